//! Writes through a reference into an `Option` local, in a loop and out of one, as
//! newcomers write them: `*acc.get_or_insert(1.0) *= v;`, `let r = acc.get_or_insert(1.0);
//! *r *= v;`, `if let Some(m) = best.as_mut() { *m = m.max(v) }`, `*acc.as_mut().unwrap()
//! += ..`. Before, the first two in a loop were an internal error ("invalid IR after
//! `lower`"), the others a type error.
//! Derivatives against closed forms and central differences (single, batched, second
//! order), primals bit for bit against the plain functions.

#![allow(clippy::needless_range_loop, clippy::manual_unwrap_or_default)]

mod common;

use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

/// The product of the samples above a threshold, `None` when no sample passes.
#[derive_frule]
fn product_above(xs: &[f64], threshold: f64) -> f64 {
    let mut acc: Option<f64> = None;
    for &v in xs {
        if v > threshold {
            *acc.get_or_insert(1.0) *= v;
        }
    }
    acc.unwrap_or(0.0)
}

/// The same with the reference bound first, the local untyped.
#[derive_frule]
fn product_bound(xs: &[f64]) -> f64 {
    let mut acc = None;
    for &v in xs {
        let r = acc.get_or_insert(1.0);
        *r *= v.cos();
    }
    acc.unwrap_or(0.0)
}

/// Outside a loop.
#[derive_frule]
fn scaled_once(x: &[f64]) -> f64 {
    let mut acc: Option<f64> = None;
    *acc.get_or_insert(2.0) *= x[0];
    *acc.get_or_insert(5.0) += x[1].sin();
    acc.unwrap()
}

/// A running maximum kept in an `Option`, updated through `as_mut`.
#[derive_frule]
fn running_max(xs: &[f64]) -> f64 {
    let mut best: Option<f64> = None;
    for &v in xs {
        let s = v * v - v;
        if let Some(m) = best.as_mut() {
            *m = m.max(s)
        } else {
            best = Some(s);
        }
    }
    best.unwrap_or(f64::NEG_INFINITY)
}

/// An exponential moving average started at the first sample, `as_mut().unwrap()`.
#[derive_frule]
fn ema(xs: &[f64], alpha: f64) -> f64 {
    let mut state = Some(xs[0]);
    for &v in &xs[1..] {
        let s = state.as_mut().unwrap();
        *s = alpha * v + (1.0 - alpha) * *s;
    }
    state.unwrap()
}

/// `*acc.as_mut().unwrap() += ..` in a loop.
#[derive_frule]
fn sum_of_sines(xs: &[f64]) -> f64 {
    let mut acc = Some(0.0);
    for &v in xs {
        *acc.as_mut().unwrap() += v.sin();
    }
    acc.unwrap()
}

#[test]
fn get_or_insert_written_through_in_a_loop() {
    let xs = [0.8, -0.3, 1.7, 2.2, 0.1];
    let t = 0.5;
    let (v, g) = gradient(bind(product_above {}, (Wrt, t)), &xs);
    assert_eq!(v.to_bits(), product_above(&xs, t).to_bits());
    // x0·x2·x3: ∂/∂x0 = x2 x3, and so on; zero for the others.
    let want = [xs[2] * xs[3], 0.0, xs[0] * xs[3], xs[0] * xs[2], 0.0];
    for k in 0..5 {
        assert_close(g[k], want[k], 1e-15, &format!("d/dx{k}"));
    }
    crate::check_modes!(
        bind(product_above {}, (Wrt, t)),
        |x: &[f64]| product_above(x, t),
        xs
    );
    // No sample above: the fallback, a constant.
    let (v, g) = gradient(bind(product_above {}, (Wrt, 5.0)), &xs);
    assert_eq!(v, 0.0);
    assert!(g.iter().all(|d| *d == 0.0));

    let (v, g) = gradient(product_bound {}, &xs);
    assert_eq!(v.to_bits(), product_bound(&xs).to_bits());
    let p: f64 = xs.iter().map(|v| v.cos()).product();
    for k in 0..5 {
        assert_close(g[k], -p * xs[k].tan(), 1e-14, &format!("bound d/dx{k}"));
    }
    crate::check_modes!(product_bound {}, product_bound, xs);
}

#[test]
fn get_or_insert_written_through_outside_a_loop() {
    let x = [1.3, 0.4];
    let (v, g) = gradient(scaled_once {}, &x);
    assert_eq!(v.to_bits(), scaled_once(&x).to_bits());
    // 2 x0 + sin x1.
    assert_close(g[0], 2.0, 1e-15, "d/dx0");
    assert_close(g[1], x[1].cos(), 1e-15, "d/dx1");
    crate::check_modes!(scaled_once {}, scaled_once, x);
}

#[test]
fn as_mut_written_through() {
    let xs = [0.2, 1.9, -0.6, 1.1];
    let (v, g) = gradient(running_max {}, &xs);
    assert_eq!(v.to_bits(), running_max(&xs).to_bits());
    // s = v² − v is largest at x1 (1.71; x2 gives 0.96).
    let want = [0.0, 2.0 * xs[1] - 1.0, 0.0, 0.0];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-15, &format!("max d/dx{k}"));
    }
    crate::check_modes!(running_max {}, running_max, xs);

    let alpha = 0.3;
    let (v, g) = gradient(bind(ema {}, (Wrt, alpha)), &xs);
    assert_eq!(v.to_bits(), ema(&xs, alpha).to_bits());
    // s_n = (1 − α)^{n} x0 + Σ α (1 − α)^{n − k} x_k.
    let n = xs.len() - 1;
    for k in 0..xs.len() {
        let want = match k {
            0 => (1.0 - alpha).powi(n as i32),
            _ => alpha * (1.0 - alpha).powi((n - k) as i32),
        };
        assert_close(g[k], want, 1e-15, &format!("ema d/dx{k}"));
    }
    let (_, da) = derivative(bind(ema {}, (&xs[..], Wrt)), alpha);
    let h = 1e-6;
    let fd = (ema(&xs, alpha + h) - ema(&xs, alpha - h)) / (2.0 * h);
    assert_close(da, fd, 1e-8, "ema d/dalpha");
    crate::check_modes!(bind(ema {}, (Wrt, alpha)), |x: &[f64]| ema(x, alpha), xs);

    let (v, g) = gradient(sum_of_sines {}, &xs);
    assert_eq!(v.to_bits(), sum_of_sines(&xs).to_bits());
    for k in 0..4 {
        assert_close(g[k], xs[k].cos(), 1e-15, &format!("sines d/dx{k}"));
    }
    crate::check_modes!(sum_of_sines {}, sum_of_sines, xs);
}
