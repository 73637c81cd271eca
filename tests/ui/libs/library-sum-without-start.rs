// A chain summed into a library value whose size the macro cannot see (`DVector`, an
// ndarray array): the fold would start from a zero of the items' size. A fixed-size
// type (`Vector3<f64>`, `Complex64`, `DVec3`) is summed as written.
use fwdad::prelude::*;
use nalgebra::DVector;

#[derive_frule]
fn centroid(points: &[DVector<f64>], w: f64) -> f64 {
    let total = points.iter().map(|p| p * w).sum::<DVector<f64>>();
    total.norm()
}

fn main() {}
