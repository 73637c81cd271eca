//! nalgebra's free functions on points (`distance`, `distance_squared`, `center`) have no
//! rule: a call by path needs one.
use fwdad::prelude::*;
use nalgebra::Point3;

#[derive_frule]
fn reach(x: &[f64], target: &Point3<f64>) -> f64 {
    let tip = Point3::new(x[0], x[1], x[2]);
    nalgebra::distance(&tip, target)
}

fn main() {}
