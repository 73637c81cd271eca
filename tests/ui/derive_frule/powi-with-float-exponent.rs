// `powi` takes an `i32` exponent: `x.powi(2)`, or `x.powf(2.5)` for a float one.
use fwdad::prelude::*;

#[derive_frule]
fn spring_energy(k: f64, x: f64) -> f64 {
    0.5 * k * x.powi(2.0)
}

fn main() {}
