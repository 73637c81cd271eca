// A trait of the user's implemented generically over a float type: the rule methods the
// trait's `impl` must hold cannot carry the bounds the methods' rules need of `T` in each
// mode. Instead: `impl Kernel for Gaussian<f64>`, or an inherent `impl<T: Float>
// Gaussian<T>`.
use fwdad::prelude::*;
use num_traits::Float;

#[derive_frule]
pub trait Kernel {
    type Scalar;
    fn eval(&self, r: Self::Scalar) -> Self::Scalar;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Gaussian<T> {
    pub width: T,
}

#[derive_frule]
impl<T: Float> Kernel for Gaussian<T> {
    type Scalar = T;
    fn eval(&self, r: T) -> T {
        (-(r * r) / (self.width * self.width)).exp()
    }
}

fn main() {}
