// `Complex<T>` in a function generic over its float type: the library layer lifts
// `Complex<f64>` (and `f64`) operands only.
use fwdad::prelude::*;
use num_complex::Complex;
use num_traits::Float;

/// `|H(iω)|` of a second-order low-pass, for any float type.
#[derive_frule]
pub fn lowpass_gain<T: Float>(zeta: T, wn: T, w: T) -> T {
    let s = Complex::new(T::zero(), w);
    let two = T::from(2.0).unwrap();
    let h = Complex::new(wn * wn, T::zero()) / (s * s + s * (two * zeta * wn) + wn * wn);
    h.norm()
}

fn main() {}
