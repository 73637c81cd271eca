//! What the seventh round of crates annotated verbatim found, in small programs written as
//! their authors write them: itertools' `izip!` and `tuple_windows()` (interp 2.1.2,
//! `tests/interp_verbatim.rs`), read as the `std` chains they are, in chains and `for`
//! loops, against closed forms and central differences; primals bit for bit.

use fwdad::prelude::*;
use itertools::{izip, Itertools};

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-12 * want.abs().max(1.0),
        "{what}: {got} against {want}"
    );
}

/// A trapezoid rule over samples: pairs of neighbours from `tuple_windows`, zipped with
/// the abscissae by `izip!`.
#[derive_frule]
fn trapezoid(t: &[f64], f: &[f64]) -> f64 {
    let mut area = 0.0;
    for ((t0, t1), (f0, f1)) in izip!(t.iter().tuple_windows(), f.iter().tuple_windows()) {
        area += 0.5 * (t1 - t0) * (f0 + f1);
    }
    area
}

/// A weighted residual over three slices, `izip!` of three (a tuple of three items).
#[derive_frule]
fn weighted_sse(model: &[f64], data: &[f64], w: &[f64]) -> f64 {
    izip!(model, data, w)
        .map(|(m, d, w)| w * (m - d) * (m - d))
        .sum()
}

/// Second differences (a roughness penalty) by windows of three, named by the turbofish,
/// and by a `for` loop over windows of two.
#[derive_frule]
fn roughness(x: &[f64]) -> f64 {
    let second: f64 = x
        .iter()
        .tuple_windows::<(_, _, _)>()
        .map(|(a, b, c)| (a - 2.0 * b + c).powi(2))
        .sum();
    let mut first = 0.0;
    for (a, b) in x.iter().tuple_windows() {
        first += (b - a).abs();
    }
    second + first
}

/// Four series at once, `izip!` of four in a `for` loop.
#[derive_frule]
fn four(a: &[f64], b: &[f64], c: &[f64], d: &[f64]) -> f64 {
    let mut s = 0.0;
    for (p, q, r, u) in izip!(a, b, c, d) {
        s += p * q - r / u;
    }
    s
}

#[test]
fn trapezoid_of_tuple_windows_and_izip() {
    let t = [0.0, 0.3, 0.5, 1.1, 1.6];
    let f: Vec<f64> = t.iter().map(|t: &f64| (2.0 * t).sin()).collect();
    let (v, g) = gradient(bind(trapezoid {}, (&t[..], Wrt)), &f);
    assert_eq!(v.to_bits(), trapezoid(&t, &f).to_bits());
    // ∂/∂fₖ = (tₖ₊₁ − tₖ₋₁)/2, the end ones half their interval.
    for k in 0..t.len() {
        let left = if k > 0 { t[k] - t[k - 1] } else { 0.0 };
        let right = if k + 1 < t.len() {
            t[k + 1] - t[k]
        } else {
            0.0
        };
        close(g[k], 0.5 * (left + right), "∂/∂f");
    }
    let (_, g) = gradient(bind(trapezoid {}, (Wrt, &f[..])), &t);
    for k in 0..t.len() {
        let h = 1e-7;
        let (mut a, mut b) = (t, t);
        a[k] += h;
        b[k] -= h;
        let fd = (trapezoid(&a, &f) - trapezoid(&b, &f)) / (2.0 * h);
        assert!((g[k] - fd).abs() < 1e-6, "∂/∂t{k}: {} against {fd}", g[k]);
    }
}

#[test]
fn three_and_four_zipped() {
    let model = [1.0, 2.5, -0.5];
    let data = [0.5, 2.0, 0.0];
    let w = [1.0, 2.0, 0.5];
    let (v, g) = gradient(bind(weighted_sse {}, (Wrt, &data[..], &w[..])), &model);
    assert_eq!(v.to_bits(), weighted_sse(&model, &data, &w).to_bits());
    for k in 0..3 {
        close(g[k], 2.0 * w[k] * (model[k] - data[k]), "∂/∂m");
    }
    let (a, b, c, d) = ([1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]);
    let (v, g) = gradient(bind(four {}, (&a[..], &b[..], &c[..], Wrt)), &d);
    assert_eq!(v.to_bits(), four(&a, &b, &c, &d).to_bits());
    for k in 0..2 {
        close(g[k], c[k] / (d[k] * d[k]), "∂/∂d");
    }
}

#[test]
fn windows_of_three_and_in_a_loop() {
    let x = [0.0, 1.0, 0.5, 2.0, 1.5];
    let (v, g) = gradient(roughness {}, &x);
    assert_eq!(v.to_bits(), roughness(&x).to_bits());
    for k in 0..x.len() {
        let h = 1e-7;
        let (mut a, mut b) = (x, x);
        a[k] += h;
        b[k] -= h;
        let fd = (roughness(&a) - roughness(&b)) / (2.0 * h);
        assert!((g[k] - fd).abs() < 1e-6, "∂/∂x{k}: {} against {fd}", g[k]);
    }
}
