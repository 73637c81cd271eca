//! nalgebra's free functions other than `distance`, `distance_squared`, `center` and
//! `clamp` (which are supported) have no rule on differentiated arguments:
//! `nalgebra::try_convert`.
use fwdad::prelude::*;
use nalgebra::{Isometry3, Point3};

#[derive_frule]
fn reach(x: &[f64], target: &Point3<f64>) -> f64 {
    let tip = Point3::new(x[0], x[1], x[2]);
    let pose: Isometry3<f64> = nalgebra::try_convert(Isometry3::translation(x[0], 0.0, 0.0)).unwrap();
    (pose * tip - target).norm()
}

fn main() {}
