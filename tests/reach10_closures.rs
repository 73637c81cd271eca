//! A closure that calls a function value a call returned, passed on to a function of the
//! user's: a quadrature of a scaled force law (`let f = make_scaler(k); integrate(|t|
//! f(t) * x, 0.0, 1.0)`), a shifted loss handed to a `&dyn Fn` helper, as library authors
//! write them. In one direction, in batches and at second order against central
//! differences, primals bit for bit.

#[macro_use]
mod common;

use fwdad::prelude::*;

/// A force law `k·sin t`, made by a factory.
#[derive_frule]
pub fn make_scaler(k: f64) -> impl Fn(f64) -> f64 {
    move |t| k * t.sin()
}

/// Composite Simpson's rule on 16 panels.
#[derive_frule]
pub fn integrate<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    let n = 16;
    let h = (b - a) / n as f64;
    let mut s = f(a) + f(b);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        s += w * f(a + i as f64 * h);
    }
    s * h / 3.0
}

/// The work of the scaled force over `[0, p[2]]`, weighted by `p[1]`.
#[derive_frule]
pub fn work(p: &[f64]) -> f64 {
    let f = make_scaler(p[0]);
    integrate(|t| f(t) * p[1], 0.0, p[2])
}

#[test]
fn returned_function_called_in_a_closure_passed_to_quadrature() {
    check_modes!(work {}, work, [1.3, 0.7, 1.1]);
    // Simpson's rule integrates k·x·sin t to within 1e-6 of the closed form.
    let p = [1.3, 0.7, 1.1];
    let (v, g) = gradient(work {}, &p);
    let (k, x, b) = (p[0], p[1], p[2]);
    let exact = k * x * (1.0 - b.cos());
    assert!((v - exact).abs() < 1e-6, "{v} against {exact}");
    common::modes::assert_close(g[0], x * (1.0 - b.cos()), 1e-6, "d/dk");
    common::modes::assert_close(g[1], k * (1.0 - b.cos()), 1e-6, "d/dx");
    common::modes::assert_close(g[2], k * x * b.sin(), 1e-6, "d/db");
}

/// A smooth loss of a residual, made for a scale `a`.
#[derive_frule]
pub fn make_loss(a: f64) -> impl Fn(f64) -> f64 {
    move |r: f64| a * a * ((1.0 + (r / a).powi(2)).sqrt() - 1.0)
}

/// Applies `f` twice.
#[derive_frule]
pub fn apply_twice(f: &dyn Fn(f64) -> f64, r: f64) -> f64 {
    f(f(r))
}

/// The loss of a shifted residual, passed on as `&dyn Fn`.
#[derive_frule]
pub fn shifted_loss(p: &[f64]) -> f64 {
    let (a, b, r) = (p[0], p[1], p[2]);
    let loss = make_loss(a);
    let shifted = |r: f64| loss(r - b);
    apply_twice(&shifted, r)
}

#[test]
fn returned_function_called_in_a_let_closure_passed_as_dyn_fn() {
    check_modes!(shifted_loss {}, shifted_loss, [1.5, 0.2, 2.3]);
}

/// The mean of `g` over `[0, b]` scaled by `w`: a function-valued parameter called in a
/// `move` closure passed on to the quadrature.
#[derive_frule]
pub fn weighted_mean<G: Fn(f64) -> f64>(g: G, w: f64, b: f64) -> f64 {
    integrate(move |t| w * g(t), 0.0, b) / b
}

/// The weighted mean of a force law a factory made.
#[derive_frule]
pub fn mean_force(p: &[f64]) -> f64 {
    let f = make_scaler(p[0]);
    weighted_mean(|t| f(t) + t * t, p[1], p[2])
}

#[test]
fn function_parameter_called_in_a_move_closure_passed_on() {
    check_modes!(mean_force {}, mean_force, [0.9, 1.7, 0.8]);
}

/// A factory built on another: the force law made by `make_scaler`, offset, returned.
#[derive_frule]
pub fn make_offset_scaler(k: f64, c: f64) -> impl Fn(f64) -> f64 {
    let f = make_scaler(k);
    move |t| f(t) + c * t
}

#[derive_frule]
pub fn offset_work(p: &[f64]) -> f64 {
    let g = make_offset_scaler(p[0], p[1]);
    integrate(|t| g(t) * g(t), 0.0, p[2])
}

#[test]
fn returned_function_called_in_a_returned_closure() {
    check_modes!(offset_work {}, offset_work, [1.1, 0.4, 0.9]);
}
