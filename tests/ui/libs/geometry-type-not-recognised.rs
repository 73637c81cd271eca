//! A nalgebra geometry type outside the recognised ones (`Perspective3`, also
//! `Orthographic3`, `Transform3`, `Affine3`, `Projective3`, `DualQuaternion`, `Scale3`,
//! `SimilarityMatrix3`): its constructor is taken for a user type's.
use fwdad::prelude::*;
use nalgebra::{Perspective3, Point3};

#[derive_frule]
fn ndc_x(fovy: f64, p: &Point3<f64>) -> f64 {
    let proj = Perspective3::new(16.0 / 9.0, fovy, 0.1, 100.0);
    proj.project_point(p).x
}

fn main() {}
