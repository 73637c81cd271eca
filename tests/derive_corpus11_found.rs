//! What the eleventh corpus (financial 1.1.5, lambert-bate 0.1.0, splines 5.0.0) found, in
//! small programs, each checked in every mode against central differences and closed
//! forms.

#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;
use fwdad::prelude::*;

/// A `&` pattern inside a closure's tuple pattern matched through a reference, as
/// financial 1.1.5's MIRR filters the discounted cash flows
/// (`powers.iter().zip(values.iter()).filter(|(_r, &v)| v < 0.)`): Rust's default binding
/// mode binds `_r: &&f64`, and the `&` pattern strips the field's own reference, `v: f64`.
/// Was: ``mismatched types: expected `&f64`, found floating-point number`` at `0.` (the
/// `&` stripped the reference the binding mode adds).
#[derive_frule]
fn discounted_outflows(p: &[f64]) -> f64 {
    let rate = p[0];
    let values = &p[1..];
    let factors: Vec<f64> = (0..values.len())
        .map(|k| (1.0 + rate).powi(k as i32))
        .collect();
    factors
        .iter()
        .zip(values.iter())
        .filter(|(_r, &v)| v < 0.)
        .map(|(r, v)| *v / *r)
        .sum()
}

/// The same pattern in `find` and in a `for` loop's closure-free match, with the pair's
/// first element bound by `&` too (`|&(&a, b)|` is Rust's spelling without the binding
/// mode).
#[derive_frule]
fn first_large_product(w: &[f64], x: &[f64]) -> f64 {
    let hit = w.iter().zip(x.iter()).find(|(&a, _b)| a > 1.0);
    let tail: f64 = w
        .iter()
        .zip(x.iter())
        .filter(|(&a, &b)| a * b > 0.5)
        .map(|(a, b)| a * b)
        .sum();
    match hit {
        Some((a, b)) => a * b + tail,
        None => tail,
    }
}

/// A function taking constant data (`inactive(days)`) and returning the crate's error as
/// a `&'static str`, as financial 1.1.5's `xnpv` and `xirr` return `Result<f64, &'static
/// str>`. Was: `` `inactive(..)` is not supported on a function that returns a reference
/// `` (a `'static` reference borrows from no buffer of the rule).
#[derive_frule(inactive(days))]
fn dated_npv(rate: f64, values: &[f64], days: &[f64]) -> Result<f64, &'static str> {
    if values.len() != days.len() {
        return Err("Values and dates length must match");
    }
    Ok(values
        .iter()
        .zip(days.iter())
        .map(|(v, d)| v / f64::powf(1. + rate, d / 365.))
        .sum())
}

#[derive_frule(inactive(days))]
fn dated_npv_at(p: &[f64], days: &[f64]) -> f64 {
    dated_npv(p[0], &p[1..], days).unwrap_or(f64::NAN)
}

/// A track of samples, as splines 5.0.0's `Spline` wraps its keys' `Vec`.
#[derive(Clone, Debug, Differentiable)]
pub struct Track(Vec<f64>);

#[derive_frule]
impl Track {
    /// A method returning `()` whose body ends in a unit method call without `;`, as
    /// splines' `Spline::clear` (`self.0.clear()`). Was: ``mismatched types: expected
    /// `Dual<(), NoTangent>`, found `()` ``.
    pub fn clear(&mut self) {
        self.0.clear()
    }

    /// The same through `push`.
    pub fn add(&mut self, x: f64) {
        self.0.push(x * x)
    }

    /// A `&Vec` field returned as a slice, as splines' `Spline::keys` (`&self.0`). Was:
    /// ``mismatched types: expected `Dual<&[f64], &[..]>`, found `Dual<&Vec<f64>, ..>` ``.
    pub fn keys(&self) -> &[f64] {
        &self.0
    }
}

/// A `&Vec` parameter returned as a slice, by name.
#[derive_frule]
fn as_slice(v: &Vec<f64>) -> &[f64] {
    v
}

/// The samples' weighted sum after the track is cleared and refilled.
#[derive_frule]
fn refilled(p: &[f64]) -> f64 {
    let mut track = Track(vec![p[0], p[1]]);
    let before: f64 = track.keys().iter().sum();
    track.clear();
    for &x in p {
        track.add(x);
    }
    let v = track.0.clone();
    let s = as_slice(&v);
    before * s[0] + s.iter().sum::<f64>() + track.keys()[2]
}

#[test]
fn a_reference_pattern_inside_a_tuple_pattern_through_a_reference() {
    let p = [0.07, -100.0, 30.0, -20.0, 50.0, -5.0];
    let (v, g) = gradient(discounted_outflows {}, &p[..]);
    let b: f64 = 1.07;
    assert_eq!(v, -100.0 - 20.0 / (b * b) - 5.0 / b.powi(4));
    for (k, want) in [(1, 1.0), (3, 1.0 / (b * b)), (5, 1.0 / b.powi(4))] {
        assert_close(g[k], want, 1e-15, &format!("∂/∂v{k}"));
    }
    assert_eq!((g[2], g[4]), (0.0, 0.0));
    assert_close(
        g[0],
        2.0 * 20.0 / b.powi(3) + 4.0 * 5.0 / b.powi(5),
        1e-14,
        "∂/∂r",
    );
    check_widths!(
        discounted_outflows {},
        |q: &[f64]| {
            let values = &q[1..];
            (0..values.len())
                .filter(|&k| values[k] < 0.0)
                .map(|k| values[k] / (1.0 + q[0]).powi(k as i32))
                .sum::<f64>()
        },
        p
    );

    let (w, x) = ([0.5, 1.5, 2.0], [3.0, 0.2, -1.0]);
    let (v, d) = jvp(
        bind(first_large_product {}, (Wrt, &x[..])),
        &w[..],
        &[1.0, 1.0, 1.0],
    );
    // The hit is (1.5, 0.2); the tail sums 0.5·3.0 (1.5·0.2 = 0.3 and 2·(−1) are out).
    assert_eq!(v, 1.5 * 0.2 + 0.5 * 3.0);
    assert_close(d, 0.2 + 3.0, 1e-15, "d along w");
}

#[test]
fn constant_data_and_a_static_str_in_the_result() {
    let days = [0.0, 190.0, 365.0, 600.0];
    let p = [0.08, -400.0, 100.0, 150.0, 220.0];
    let (v, g) = gradient(bind(dated_npv_at {}, (Wrt, &days[..])), &p[..]);
    let b: f64 = 1.08;
    let want: f64 = (0..4).map(|k| p[k + 1] / b.powf(days[k] / 365.0)).sum();
    assert_eq!(v.to_bits(), want.to_bits());
    for k in 0..4 {
        assert_close(
            g[k + 1],
            b.powf(-days[k] / 365.0),
            1e-15,
            &format!("∂/∂v{k}"),
        );
    }
    let d_rate: f64 = (0..4)
        .map(|k| -days[k] / 365.0 * p[k + 1] * b.powf(-days[k] / 365.0 - 1.0))
        .sum();
    assert_close(g[0], d_rate, 1e-14, "∂/∂r");
    check_widths!(
        bind(dated_npv_at {}, (Wrt, &days[..])),
        |q: &[f64]| (0..4)
            .map(|k| q[k + 1] / (1.0 + q[0]).powf(days[k] / 365.0))
            .sum::<f64>(),
        p
    );
    let short = [0.0, 10.0];
    let zeros = [0.0; 4];
    let r = dated_npv_frule(
        Dual::new(0.1, 1.0),
        Dual::new(&p[1..], &zeros[..]),
        &short[..],
    );
    assert_eq!(r.primal, Err("Values and dates length must match"));
}

#[test]
fn unit_tails_and_vec_fields_returned_as_slices() {
    let p = [0.5, -1.5, 2.0];
    let plain = |q: &[f64]| {
        (q[0] + q[1]) * q[0] * q[0] + q.iter().map(|x| x * x).sum::<f64>() + q[2] * q[2]
    };
    let (v, g) = gradient(refilled {}, &p[..]);
    assert_eq!(v, plain(&p));
    let want = [
        p[0] * p[0] + 2.0 * p[0] * (p[0] + p[1]) + 2.0 * p[0],
        p[0] * p[0] + 2.0 * p[1],
        4.0 * p[2],
    ];
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-15, &format!("∂/∂p{k}"));
    }
    check_widths!(refilled {}, plain, p);
}
