// A closure passed to a function that calls a `move` closure bound with `let`, whose
// captured variable was assigned since (calling `sq` there is supported when what it reads
// is unchanged).
use fwdad::prelude::*;

#[derive_frule]
fn trapezoid<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    0.5 * (b - a) * (f(a) + f(b))
}

#[derive_frule]
fn area(k: f64) -> f64 {
    let mut s = k;
    let sq = move |x: f64| s * x * x;
    s = 2.0 * k;
    trapezoid(|x| s * sq(x), 0.0, 1.0)
}

fn main() {}
