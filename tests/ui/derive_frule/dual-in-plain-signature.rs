// The function is written on `Dual`s by hand and annotated: `#[derive_frule]` writes the
// `Dual` version itself from the plain `f64` function. Instead: `fn square(x: f64) -> f64`,
// and call `square_frule(Dual::new(x, 1.0))`.
use fwdad::prelude::*;

#[derive_frule]
fn square(x: Dual<f64>) -> Dual<f64> {
    x * x
}

fn main() {}
