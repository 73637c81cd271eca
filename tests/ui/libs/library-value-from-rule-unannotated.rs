// A vector returned by another derived function, bound without its type: the macro
// cannot see that `p` is a `Vector3`.
use fwdad::prelude::*;
use nalgebra::Vector3;

#[derive_frule]
fn helix(t: f64) -> Vector3<f64> {
    Vector3::new(t.cos(), t.sin(), 0.5 * t)
}

#[derive_frule]
fn height_over_radius(t: f64) -> f64 {
    let p = helix(t);
    p.z / p.xy().norm()
}

fn main() {}
