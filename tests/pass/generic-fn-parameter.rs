// A closure or function passed to a function of your own through a generic `F: Fn(..)`
// parameter: type parameters of a derived function must be float types, and a derived body
// calls functions by path only. Workaround: call the function by name in the body (one
// derived function per integrand), or pass its values.
use fwdad::prelude::*;

#[derive_frule]
fn trapezoid<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    0.5 * (b - a) * (f(a) + f(b))
}

fn main() {}
