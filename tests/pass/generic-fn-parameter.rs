// A closure passed to a function of your own through a generic `F: Fn(..)` parameter, and
// the function calling it.
use fwdad::prelude::*;

#[derive_frule]
fn trapezoid<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    0.5 * (b - a) * (f(a) + f(b))
}

#[derive_frule]
fn area(k: f64) -> f64 {
    trapezoid(|x| k * x * x, 0.0, 1.0)
}

fn main() {}
