// A function generic over a float trait of the crate's own, implemented for `f32` and
// `f64` (the roots crate's `F: FloatType`, with `From<i16>` and the operators as
// supertraits): `F` is taken for a type of the user's with a trait, not for a float.
use fwdad::prelude::*;
use std::ops::{Div, Neg};

#[derive_frule]
pub trait FloatType: Sized + Copy + From<i16> + PartialOrd + Neg<Output = Self> + Div<Output = Self> {
    fn zero() -> Self;
}

#[derive_frule]
impl FloatType for f64 {
    fn zero() -> Self {
        0f64
    }
}

#[derive_frule]
pub fn find_root_linear<F: FloatType>(a1: F, a0: F) -> F {
    if a1 == F::zero() {
        F::zero()
    } else {
        -a0 / a1
    }
}

fn main() {}
