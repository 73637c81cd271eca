//! Derivatives at the edges of the rules' domains, through derived functions and every
//! driver: no NaN where the function is differentiable, and no NaN from a kink leaking into
//! directions that do not move the kinked input (strong zeros: `0 · ∞ = 0` for a tangent).
//!
//! Expected values are worked out by hand from the math (noted at each check).
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, gradient_with, hessian_with, second_derivative, Wrt};
use fwdad::prelude::*;

/// ADBench's criterion, with `±∞` equal to itself.
fn close(got: f64, want: f64) -> bool {
    got == want || (got - want).abs() / (1.0f64).max(got.abs() + want.abs()) < 1e-10
}

fn assert_all_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            close(*g, *w),
            "{what}[{i}]: got {g}, want {w} (all: {got:?})"
        );
    }
}

#[derive_frule]
pub fn powf_literals(x: &[f64]) -> f64 {
    x[0].powf(2.0) + x[1].powf(3.0)
}

#[derive_frule]
pub fn square_by_powf(x: f64) -> f64 {
    x.powf(2.0)
}

#[derive_frule]
pub fn constant_by_powf(x: f64) -> f64 {
    x.powf(0.0)
}

#[test]
fn powf_with_a_literal_exponent_has_second_derivatives_at_nonpositive_bases() {
    // f = x0² + x1³: ∇f = (2x0, 3x1²), ∇²f = diag(2, 6x1).
    let x = [-1.5, 0.5];
    let (_, g) = gradient(powf_literals {}, &x);
    assert_all_close("gradient", &g, &[-3.0, 0.75]);
    let (_, _, h) = hessian(powf_literals {}, &x);
    assert_all_close("hessian", h.as_slice(), &[2.0, 0.0, 0.0, 3.0]);
    let (_, _, h) = hessian_with::<1>(powf_literals {}, &x);
    assert_all_close("hessian, one lane", h.as_slice(), &[2.0, 0.0, 0.0, 3.0]);
    for x in [0.0, -1.5, 2.0] {
        let (_, d1, d2) = second_derivative(square_by_powf {}, x);
        assert!(
            close(d1, 2.0 * x) && close(d2, 2.0),
            "x^2 at {x}: {d1} {d2}"
        );
    }
    // x^0 = 1 everywhere (0^0 = 1 in IEEE): flat, also at 0.
    let (_, d1, d2) = second_derivative(constant_by_powf {}, 0.0);
    assert_eq!((d1, d2), (0.0, 0.0));
}

#[derive_frule]
pub fn power(x: f64, p: f64) -> f64 {
    x.powf(p)
}

#[derive_frule]
pub fn power_in_slice(x: &[f64]) -> f64 {
    x[0].powf(x[2]) + x[1] * x[1]
}

#[test]
fn powf_with_an_exponent_argument_at_zero_and_negative_bases() {
    // The exponent bound as a constant: d/dx x^p = p·x^(p-1).
    let (_, d) = derivative(bind(power {}, (Wrt, 2.0)), 0.0);
    assert_eq!(d, 0.0);
    let (v, d) = derivative(bind(power {}, (Wrt, 3.0)), -2.0);
    assert_eq!(v, -8.0);
    assert!(close(d, 12.0), "{d}");
    // ∂/∂p 0^p = 0 for p > 0 (0^p is flat in p), so ∇ at (0, 1, 2) is (0, 2, 0); every
    // mode, including the linearised batches.
    let x = [0.0, 1.0, 2.0];
    let want = [0.0, 2.0, 0.0];
    assert_all_close("gradient", &gradient(power_in_slice {}, &x).1, &want);
    assert_all_close(
        "width 1",
        &gradient_with::<1>(power_in_slice {}, &x).1,
        &want,
    );
    assert_all_close(
        "width 2",
        &gradient_with::<2>(power_in_slice {}, &x).1,
        &want,
    );
    // At a negative base with an integral exponent the function exists only for integral
    // p, so ∂/∂p is NaN; the other entries stay right: ∇(x0³ + x1²) at (-2, 1) = (12, 2).
    let (_, g) = gradient(power_in_slice {}, &[-2.0, 1.0, 3.0]);
    assert!(
        close(g[0], 12.0) && close(g[1], 2.0) && g[2].is_nan(),
        "{g:?}"
    );
    let (_, _, h) = hessian(power_in_slice {}, &[-2.0, 1.0, 3.0]);
    // ∂²/∂x0² x0³ = 6·x0 = -12; ∂²/∂x1² = 2; x1 is separate from the rest.
    assert!(close(h[(0, 0)], -12.0) && close(h[(1, 1)], 2.0), "{h:?}");
    assert_eq!(
        (h[(0, 1)], h[(1, 0)], h[(1, 2)], h[(2, 1)]),
        (0.0, 0.0, 0.0, 0.0)
    );
}

#[derive_frule]
pub fn angle(y: f64, x: f64) -> f64 {
    y.atan2(x)
}

#[test]
fn atan2_partials_neither_overflow_nor_underflow() {
    // ∂/∂y atan2(y, x) = x / (x² + y²); at y = x = s that is 1 / (2s).
    for s in [1e200, 1e-200, 1.0, 1e-300] {
        let dy = angle_frule(Dual::new(s, 1.0), Dual::new(s, 0.0)).tangent;
        let dx = angle_frule(Dual::new(s, 0.0), Dual::new(s, 1.0)).tangent;
        // ∂/∂x = -y / (x² + y²) = -1 / (2s).
        assert!(
            close(dy * s, 0.5) && close(dx * s, -0.5),
            "at {s}: {dy} {dx}"
        );
    }
    // Second order at a large magnitude: ∂²/∂y² = -2xy / (x² + y²)² = -1 / (2s²).
    let s = 1e100;
    let (_, _, d2) = second_derivative(bind(angle {}, (Wrt, s)), s);
    assert!(close(d2 * s * s, -0.5), "{d2}");
}

#[derive_frule]
pub fn root_plus_square(x: &[f64]) -> f64 {
    x[0].sqrt() + x[1] * x[1]
}

#[derive_frule]
pub fn roots_in_a_loop(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i].sqrt() + x[i].asin() * x[i] + x[i] * x[i];
    }
    s
}

#[derive_frule]
pub fn radius_and_more(x: &[f64]) -> f64 {
    x[0].hypot(x[1]) + x[2].cbrt() + (x[3] * 2.0).exp()
}

#[test]
fn a_kink_does_not_leak_into_other_directions() {
    // ∇(√x0 + x1²) at (0, 1) = (+∞, 2): the x1 direction does not move x0.
    let want = [f64::INFINITY, 2.0];
    let x = [0.0, 1.0];
    assert_all_close("gradient", &gradient(root_plus_square {}, &x).1, &want);
    assert_all_close(
        "width 1",
        &gradient_with::<1>(root_plus_square {}, &x).1,
        &want,
    );
    let (_, _, h) = hessian(root_plus_square {}, &x);
    assert_eq!((h[(0, 1)], h[(1, 0)], h[(1, 1)]), (0.0, 0.0, 2.0), "{h:?}");

    // The same inside a loop (the linearised zero-tested path): d/dxᵢ (√xᵢ + xᵢ·asin xᵢ +
    // xᵢ²) = 1/(2√xᵢ) + asin xᵢ + xᵢ/√(1-xᵢ²) + 2xᵢ, infinite at xᵢ = 0 and at xᵢ = 1.
    let x = [0.25, 0.0, 0.5, 1.0, 0.75];
    let d = |v: f64| 0.5 / v.sqrt() + v.asin() + v / (1.0 - v * v).sqrt() + 2.0 * v;
    let want: Vec<f64> = x.iter().map(|&v| d(v)).collect();
    assert_eq!((want[1], want[3]), (f64::INFINITY, f64::INFINITY));
    assert_all_close("loop", &gradient(roots_in_a_loop {}, &x).1, &want);
    assert_all_close(
        "loop, w2",
        &gradient_with::<2>(roots_in_a_loop {}, &x).1,
        &want,
    );
    assert_all_close(
        "loop, w8",
        &gradient_with::<8>(roots_in_a_loop {}, &x).1,
        &want,
    );

    // hypot at the origin, a norm's kink, has zero partials (as abs'(0) = 0), cbrt at 0 an
    // infinite one; the exp term is untouched: ∂/∂x3 e^(2x3) = 2e^(2x3).
    let x = [0.0, 0.0, 0.0, 0.5];
    for g in [
        gradient(radius_and_more {}, &x[..]).1,
        gradient_with::<1>(radius_and_more {}, &x).1,
        gradient_with::<4>(radius_and_more {}, &x).1,
    ] {
        assert!(g[0] == 0.0 && g[1] == 0.0 && g[2] == f64::INFINITY, "{g:?}");
        assert!(close(g[3], 2.0 * 1f64.exp()), "{g:?}");
    }
}

#[derive_frule]
pub fn quotient_plus(x: &[f64]) -> f64 {
    x[0] / x[1] + x[2]
}

#[test]
fn an_overflowing_partial_does_not_leak_into_other_directions() {
    // a/b + c at (1, 1e-160, 0): the value is 1e160, ∂/∂a = 1/b = 1e160, ∂/∂b = -a/b²
    // overflows to -∞, ∂/∂c = 1.
    let x = [1.0, 1e-160, 0.0];
    let want = [1e160, f64::NEG_INFINITY, 1.0];
    assert_all_close("gradient", &gradient(quotient_plus {}, &x).1, &want);
    assert_all_close(
        "width 1",
        &gradient_with::<1>(quotient_plus {}, &x).1,
        &want,
    );
    assert_all_close(
        "width 4",
        &gradient_with::<4>(quotient_plus {}, &x).1,
        &want,
    );
}

#[derive_frule]
pub fn angle_of(x: &[f64]) -> f64 {
    x[0].atan2(x[1])
}

#[derive_frule]
pub fn exp_minus_one(x: f64) -> f64 {
    x.exp_m1()
}

#[test]
fn second_order_and_cancellation_at_extreme_magnitudes() {
    // ∂²/∂a∂b atan2(a, b) = (a² - b²) / (a² + b²)², -1/b² at a = 0: (a² + b²)² overflows at
    // b = 1e150 unless scaled.
    let (_, _, hv) = fwdad::drivers::hvp_with::<2>(angle_of {}, &[0.0, 1e150], &[1.0, 0.0]);
    assert!(close(hv[1], -1e-300), "{hv:?}");
    let (_, _, h) = hessian(angle_of {}, &[0.0, 1e150]);
    assert!(
        close(h[(0, 1)], -1e-300) && close(h[(1, 0)], -1e-300),
        "{h:?}"
    );
    // d/dx (eˣ - 1) = eˣ, to full relative accuracy far into x < 0.
    for x in [-30.0f64, -40.0, -700.0] {
        let (_, d) = derivative(exp_minus_one {}, x);
        assert!(
            (d - x.exp()).abs() <= 1e-15 * x.exp(),
            "at {x}: {d} vs {}",
            x.exp()
        );
    }
}
