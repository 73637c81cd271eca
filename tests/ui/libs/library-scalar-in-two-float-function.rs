// A library constant whose scalar is not written (`Vector3::zeros()`) in a function
// generic over two float types: the rule names such a constant's scalar, the function's
// float type, and with two it cannot tell which. Write it (`Vector3::<T>::zeros()`).
// (Library values over one float type parameter are supported:
// `tests/lib_generic_float_types.rs`.)
use fwdad::prelude::*;
use nalgebra::{RealField, Vector3};

/// The distance of a point in `T` from the origin, with a tolerance in `U`.
#[derive_frule]
fn distance_from_origin<T: RealField + Copy, U: RealField + Copy>(p: &Vector3<T>, _tol: U) -> T {
    let origin = Vector3::zeros();
    (p - origin).norm()
}

fn main() {}
