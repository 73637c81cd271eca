// An extension trait implemented for every float type at once: the rules need an `impl`
// per type (`f64`, `f32`); the error says so.
use fwdad::prelude::*;
use num_traits::Float;

#[derive_frule]
pub trait Smooth {
    fn softplus(self) -> Self;
}

#[derive_frule]
impl<T: Float> Smooth for T {
    fn softplus(self) -> Self {
        self.exp().ln_1p()
    }
}

fn main() {}
