//! nalgebra's geometry types inside derived bodies (feature `nalgebra`).
//!
//! Run with `cargo test --features nalgebra --test lib_nalgebra_geometry`.
use fwdad::prelude::*;
use nalgebra::{Rotation3, Vector3};

#[derive_frule]
fn fk(q: &[f64]) -> [f64; 3] {
    let r0 = Rotation3::from_axis_angle(&Vector3::z_axis(), q[0]);
    let r1 = Rotation3::from_axis_angle(&Vector3::y_axis(), q[1]);
    let r2 = Rotation3::from_axis_angle(&Vector3::y_axis(), q[2]);
    let elbow = r0 * r1 * Vector3::new(0.4, 0.0, 0.0);
    let tip = elbow + r0 * r1 * r2 * Vector3::new(0.3, 0.0, 0.0);
    [tip.x, tip.y, tip.z]
}

#[test]
fn fk_smoke() {
    let q = [0.3, -0.4, 0.9];
    let (y, j) = jacobian(fk {}, &q);
    assert_eq!(y, fk(&q));
    println!("{j:?}");
}
