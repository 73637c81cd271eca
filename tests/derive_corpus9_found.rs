//! What the ninth corpus (quadrature 0.1.2, statrs 0.19.1's distributions) found, in small
//! programs, each checked in every mode against central differences.

mod common;

use fwdad::prelude::*;

/// Sums a function over symmetric nodes of `[-1, 1]` (a rule's core, as quadrature's
/// `integrate_core` is).
#[derive_frule]
fn core_rule<F>(f: F, n: usize) -> f64
where
    F: Fn(f64) -> f64,
{
    let mut s = f(0.0);
    for i in 1..=n {
        let x = i as f64 / (n as f64 + 1.0);
        s += f(x) + f(-x);
    }
    s / (2 * n + 1) as f64 * 2.0
}

/// A change of variables: the caller's `f` on `[a, b]` wrapped in a closure on `[-1, 1]`
/// handed on (quadrature 0.1.2's `integrate`). Was: ``can only call functions by path``
/// (the closure's body read the borrowed `f` as `(*f)`).
#[derive_frule]
fn on_interval<F>(f: F, a: f64, b: f64) -> f64
where
    F: Fn(f64) -> f64,
{
    let c = 0.5 * (b - a);
    let d = 0.5 * (a + b);
    c * core_rule(|x| f(c * x + d), 8)
}

/// The same through `&dyn Fn` (a copied capture) and `impl Fn` parameters.
#[derive_frule]
fn on_unit_dyn(f: &dyn Fn(f64) -> f64, s: f64) -> f64 {
    core_rule(|x| s * f(0.5 * x + 0.5), 6)
}

#[derive_frule]
fn on_unit_impl(f: impl Fn(f64) -> f64, s: f64) -> f64 {
    core_rule(|x| s * f(0.5 * x + 0.5), 6)
}

#[derive_frule]
fn wrapped(p: &[f64]) -> f64 {
    let (k, a, b) = (p[0], p[1], p[2]);
    let g = |x: f64| (k * x).exp();
    on_interval(|x| (k * x).sin(), a, b) + on_unit_dyn(&g, a) + on_unit_impl(|x| k * x * x, b)
}

#[test]
fn a_function_value_wrapped_in_a_closure_passed_on() {
    for p in [[0.7, 0.0, 2.0], [1.3, -0.5, 1.5]] {
        crate::check_modes!(wrapped {}, wrapped, p);
    }
}
