// `^` written for a power, as in maths or Python: in Rust it is the bitwise exclusive or,
// which floats do not have. Instead: `x.powi(2)` (integer exponent) or `x.powf(p)`.
use fwdad::prelude::*;

#[derive_frule]
fn kinetic_energy(m: f64, v: f64) -> f64 {
    0.5 * m * v ^ 2.0
}

fn main() {}
