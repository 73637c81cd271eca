// A blanket `impl` of an extension trait with an argument meant for functions
// (`inactive(..)`): both errors, the argument's and the blanket `impl`'s (the macro
// once panicked here in debug builds: "Diagnostics dropped without `finish`").
use fwdad::prelude::*;
use num_traits::Float;

#[derive_frule]
pub trait Smooth {
    fn softplus(self, beta: Self) -> Self;
}

#[derive_frule(inactive(beta))]
impl<T: Float> Smooth for T {
    fn softplus(self, beta: T) -> T {
        (beta * self).exp().ln_1p() / beta
    }
}

fn main() {}
