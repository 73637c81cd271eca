// A closure passed to a function that calls another closure bound with `let`.
use fwdad::prelude::*;

#[derive_frule]
fn trapezoid<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    0.5 * (b - a) * (f(a) + f(b))
}

#[derive_frule]
fn area(k: f64) -> f64 {
    let sq = |x: f64| x * x;
    trapezoid(|x| k * sq(x), 0.0, 1.0)
}

fn main() {}
