// A vector returned by a generic derived function, bound without its type: the macro
// reads the result types of the file's non-generic functions only, so it cannot see
// that `p` is a `Vector3`.
use fwdad::prelude::*;
use nalgebra::{RealField, Vector3};

#[derive_frule]
fn helix<T: RealField + Copy>(t: T) -> Vector3<T> {
    Vector3::new(t.cos(), t.sin(), t / (T::one() + T::one()))
}

#[derive_frule]
fn height_over_radius(t: f64) -> f64 {
    let p = helix(t);
    p.z / p.xy().norm()
}

fn main() {}
