// `x.pow(2)`: integers have `pow`; floats have `powi` (integer exponent) and `powf`.
use fwdad::prelude::*;

#[derive_frule]
fn squared_error(y: f64, target: f64) -> f64 {
    (y - target).pow(2)
}

fn main() {}
