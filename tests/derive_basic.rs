//! End-to-end: `#[derive_frule]` rules against analytic derivatives written by hand.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

#[derive_frule]
fn poly(x: f64) -> f64 {
    let y = x * x + 3.0 * x - 1.0;
    y / (1.0 + x * x)
}

#[derive_frule]
fn mixed(x: f64, y: &[f64], n: usize) -> f64 {
    let s = x.sin() * y[0];
    let t = f64::exp(y[1]) + (n as f64) * x;
    if s > t {
        s - t
    } else {
        s.powi(2) + t.atan2(x)
    }
}

#[test]
fn poly_matches_quotient_rule() {
    for &x in &[-2.0, -0.3, 0.0, 0.7, 3.0] {
        let d = poly_frule(Dual::new(x, 1.0));
        let f = poly(x);
        assert_eq!(d.primal.to_bits(), f.to_bits());
        let (u, du) = (x * x + 3.0 * x - 1.0, 2.0 * x + 3.0);
        let (v, dv) = (1.0 + x * x, 2.0 * x);
        let expected = (du * v - u * dv) / (v * v);
        approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-13, epsilon = 1e-15);
    }
}

#[test]
fn mixed_matches_analytic() {
    let y = [0.8, -0.2];
    for &x in &[0.3, 1.7] {
        let dy = [0.0, 0.0];
        let d = mixed_frule(
            Dual::new(x, 1.0),
            Dual::new(&y[..], &dy[..]),
            Dual::constant(2),
        );
        assert_eq!(d.primal.to_bits(), mixed(x, &y, 2).to_bits());
        let s = x.sin() * y[0];
        let t = y[1].exp() + 2.0 * x;
        let (ds, dt) = (x.cos() * y[0], 2.0);
        let expected = if s > t {
            ds - dt
        } else {
            // d/dx atan2(t, x) = (x·dt − t)/(x² + t²)
            2.0 * s * ds + (x * dt - t) / (x * x + t * t)
        };
        approx::assert_relative_eq!(d.tangent, expected, max_relative = 1e-13);
    }
}

/// `f64::from(..)` of an `f32` (mixed precision), of integers and of a `bool` (helper hunt
/// 28: the `f32` had no rule). `d/dx [2·x + 3·x²]` with `x` an `f32`.
#[derive_frule]
fn widened(x: f32, n: u16, on: bool) -> f64 {
    let w = f64::from(x);
    let s = x * x;
    2.0 * w + f64::from(n) * f64::from(s) + f64::from(on)
}

#[test]
fn float_from_widens_with_its_tangent() {
    for &x in &[0.5f32, -1.25, 3.0] {
        let d = widened_frule(
            Dual::new(x, 1.0),
            Dual::constant(3u16),
            Dual::constant(true),
        );
        assert_eq!(d.primal, widened(x, 3, true));
        let xf = f64::from(x);
        approx::assert_relative_eq!(d.tangent, 2.0 + 6.0 * xf, max_relative = 1e-6);
    }
}
