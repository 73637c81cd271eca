// A function generic over nalgebra's `T: ComplexField` is differentiated at the real float
// types; called with `Complex<f64>` values from a derived body, it has no rule there.
// Instead: write it over `Complex<T>` with `T: Float` (or `T: RealField`), whose `exp`,
// `sin`, `sqrt`, `ln`, `powf`, `powc` are supported, or for `Complex<f64>`.
use fwdad::prelude::*;
use nalgebra::ComplexField;
use num_complex::Complex;

#[derive_frule]
pub fn damped<T: ComplexField + Copy>(x: T, a: T) -> T {
    (-(a * x)).exp() * x.sin() + (x * x + a).sqrt()
}

#[derive_frule]
pub fn damped_re(p: &[f64]) -> f64 {
    let z = Complex::new(p[0], p[1]);
    let a = Complex::new(0.3, p[2]);
    damped(z, a).re
}

fn main() {}
