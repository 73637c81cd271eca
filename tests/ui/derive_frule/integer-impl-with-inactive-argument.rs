// An extension trait implemented for an integer type, with an argument meant for free
// functions (`inactive(..)`): both errors, the argument's and the `impl`'s (the macro
// once panicked here in debug builds: "Diagnostics dropped without `finish`").
use fwdad::prelude::*;

#[derive_frule]
pub trait Decay {
    fn decay(self, rate: f64) -> f64;
}

#[derive_frule(inactive(rate))]
impl Decay for u32 {
    fn decay(self, rate: f64) -> f64 {
        (-rate * self as f64).exp()
    }
}

fn main() {}
