// A float method called through a qualified type path (`<f64>::abs(x)`). Workaround:
// `x.abs()` or `f64::abs(x)`.
use fwdad::prelude::*;

#[derive_frule]
fn magnitude(x: f64) -> f64 {
    <f64>::abs(x)
}

fn main() {}
