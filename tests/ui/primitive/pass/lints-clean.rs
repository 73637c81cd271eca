//! The items `#[primitive]` and `#[non_differentiable]` generate raise no warnings under
//! strict lints, in every form.
#![deny(warnings, missing_docs, unused, nonstandard_style, rust_2018_idioms)]

use fwdad::prelude::*;
use fwdad::ScalarTangent;

/// One partial, using the result.
#[primitive(d = y * (1.0 - y))]
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Two partials, an integer argument, a comparison in the partials.
#[primitive(d = (if a > b { 1.0 } else { 0.0 }, if a > b { 0.0 } else { k as f64 }))]
pub fn pick(a: f64, k: i32, b: f64) -> f64 {
    if a > b {
        a
    } else {
        k as f64 * b
    }
}

/// Three partials.
#[primitive(d = (b * c, a * c, a * b))]
pub fn triple(a: f64, b: f64, c: f64) -> f64 {
    a * b * c
}

/// A full rule.
#[primitive(rule = sum_rule)]
pub fn sum(x: &[f64]) -> f64 {
    x.iter().sum()
}

/// The rule of [`sum`].
pub fn sum_rule<T: ScalarTangent<f64>>(x: Dual<&[f64], &[T]>) -> Dual<f64, T> {
    let mut s = Dual::new(0.0, T::zero());
    for i in 0..x.len() {
        s += x.at(i).copied();
    }
    Dual::new(sum(x.primal), s.tangent)
}

/// No tangent.
#[non_differentiable]
pub fn count_positive(x: &[f64]) -> usize {
    x.iter().filter(|v| **v > 0.0).count()
}

fn main() {
    let x = [1.0, -2.0];
    let dx = [1.0, 1.0];
    assert_eq!(sum_frule(Dual::new(&x[..], &dx[..])).tangent, 2.0);
    assert_eq!(count_positive_frule(Dual::new(&x[..], &dx[..])).primal, 1);
    assert_eq!(logistic_frule(Dual::new(0.0, 1.0)).tangent, 0.25);
    assert_eq!(pick_frule(Dual::new(1.0, 1.0), Dual::constant(2), Dual::new(0.0, 1.0)).tangent, 1.0);
    assert_eq!(triple_frule(Dual::new(1.0, 1.0), Dual::new(2.0, 0.0), Dual::new(3.0, 0.0)).tangent, 6.0);
}
