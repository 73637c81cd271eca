// nalgebra's dynamically sized matrices and vectors are not supported in derived bodies.
use fwdad::prelude::*;
use nalgebra::DVector;

#[derive_frule]
fn rms(v: &DVector<f64>) -> f64 {
    v.norm() / (v.len() as f64).sqrt()
}

fn main() {}
