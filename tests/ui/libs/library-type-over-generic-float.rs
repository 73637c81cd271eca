// A nalgebra matrix over the generic float type (`SVector<T, 3>` with `T: RealField`):
// the runtime lifts nalgebra values of `f64` only.
use fwdad::prelude::*;
use nalgebra::{RealField, SVector};

/// Energy of a spring between two points, generic over the float type.
#[derive_frule]
fn spring_energy<T: RealField + Copy>(a: &SVector<T, 3>, b: &SVector<T, 3>, k: T, rest: T) -> T {
    let stretch = (b - a).norm() - rest;
    k * stretch * stretch / T::from_f64(2.0).unwrap()
}

fn main() {}
