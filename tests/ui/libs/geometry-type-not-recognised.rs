//! A nalgebra geometry type outside the recognised ones (`UnitDualQuaternion`, also
//! `DualQuaternion`, `Transform3`, `Affine3`, `Projective3`, `Scale3`,
//! `SimilarityMatrix3`): its constructor is taken for a user type's.
use fwdad::prelude::*;
use nalgebra::{Point3, Translation3, UnitDualQuaternion, UnitQuaternion};

#[derive_frule]
fn moved_x(t: f64, p: &Point3<f64>) -> f64 {
    let dq = UnitDualQuaternion::from_parts(Translation3::new(t, 0.0, 0.0), UnitQuaternion::identity());
    (dq * p).x
}

fn main() {}
