// `x.powf(2)`: `powf` takes an `f64` exponent (`x.powf(2.0)`), or `x.powi(2)` for an
// integer one.
use fwdad::prelude::*;

#[derive_frule]
fn kinetic(m: f64, v: f64) -> f64 {
    0.5 * m * v.powf(2)
}

fn main() {}
