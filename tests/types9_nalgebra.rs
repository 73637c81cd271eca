//! nalgebra as graphics and robotics code calls it (twelfth session, feature `nalgebra`):
//! a camera looking at a scene through `Isometry3::look_at_rh` and `Perspective3`, an IK
//! objective on the tool's roll, pitch and yaw (`euler_angles`), a rigid body stepped by
//! `UnitQuaternion::from_scaled_axis`, an orientation blend by `slerp` with `angle_to`,
//! and homogeneous transforms (`to_homogeneous`, `Matrix4::new_translation`,
//! `transform_point`).
//!
//! Each against central differences in one direction, in batches and at second order,
//! primals bit for bit.
#![allow(clippy::needless_range_loop)]
use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;
use nalgebra::{
    Isometry3, Matrix4, Perspective3, Point3, Rotation3, Translation3, UnitQuaternion, Vector3,
};

#[macro_use]
mod common;

/// Squared pixel errors of a camera at `eye = x[0..3]` looking at `x[3..6]`.
#[derive_frule]
fn look_at_error(x: &[f64], points: &[Point3<f64>], pixels: &[[f64; 2]]) -> f64 {
    let eye = Point3::new(x[0], x[1], x[2]);
    let target = Point3::new(x[3], x[4], x[5]);
    let view = Isometry3::look_at_rh(&eye, &target, &Vector3::y());
    let proj = Perspective3::new(16.0 / 9.0, 0.9, 0.1, 100.0);
    let mut err = 0.0;
    for (p, px) in points.iter().zip(pixels) {
        let ndc = proj.project_point(&view.transform_point(p));
        let u = (ndc.x + 1.0) * 960.0;
        let v = (1.0 - ndc.y) * 540.0;
        err += (u - px[0]).powi(2) + (v - px[1]).powi(2);
    }
    err
}

#[test]
fn camera_look_at() {
    let points = [
        Point3::new(0.5, 0.2, -4.0),
        Point3::new(-1.0, 0.7, -5.0),
        Point3::new(0.3, -0.8, -3.5),
    ];
    let pixels = [[1100.0, 500.0], [700.0, 420.0], [1000.0, 720.0]];
    let plain = |x: &[f64]| look_at_error(x, &points, &pixels);
    check_modes!(
        bind(look_at_error {}, (Wrt, &points[..], &pixels[..])),
        plain,
        [0.1, 0.2, 0.5, 0.0, 0.1, -4.0]
    );
}

/// IK on the tool's orientation: roll, pitch, yaw of a three-joint wrist against a target.
#[derive_frule]
fn tool_rpy_error(q: &[f64], target: &[f64; 3]) -> f64 {
    let r = Rotation3::from_axis_angle(&Vector3::z_axis(), q[0])
        * Rotation3::from_axis_angle(&Vector3::y_axis(), q[1])
        * Rotation3::from_axis_angle(&Vector3::x_axis(), q[2]);
    let (roll, pitch, yaw) = r.euler_angles();
    let uq = UnitQuaternion::from_rotation_matrix(&r);
    let (r2, p2, y2) = uq.euler_angles();
    (roll - target[0]).powi(2)
        + (pitch - target[1]).powi(2)
        + (yaw - target[2]).powi(2)
        + 0.1 * (r2 * p2 + y2)
}

#[test]
fn ik_on_euler_angles() {
    let target = [0.2, -0.1, 0.4];
    let plain = |q: &[f64]| tool_rpy_error(q, &target);
    check_modes!(
        bind(tool_rpy_error {}, (Wrt, &target)),
        plain,
        [0.5, 0.3, -0.2]
    );
}

/// A free rigid body stepped in time: Euler's equations in the body frame, the attitude
/// advanced by `from_scaled_axis(ω dt)`; the tilt of the body's z axis and the energy.
#[derive_frule]
fn spin(w0: &[f64]) -> f64 {
    let dt = 0.01;
    let inertia = Vector3::new(1.0, 2.0, 3.0);
    let mut q = UnitQuaternion::identity();
    let mut w = Vector3::new(w0[0], w0[1], w0[2]);
    for _ in 0..20 {
        let l = inertia.component_mul(&w);
        let dw = -w.cross(&l).component_div(&inertia);
        w += dw * dt;
        q *= UnitQuaternion::from_scaled_axis(w * dt);
    }
    let z_world = q * Vector3::z();
    z_world.angle(&Vector3::z()) + 0.05 * inertia.component_mul(&w).dot(&w)
}

#[test]
fn rigid_body_step() {
    check_modes!(spin {}, spin, [0.3, 1.1, -0.4]);
}

/// An orientation blend: two keys from Euler angles, `slerp` between them, how far the
/// blend is from each (`angle_to`), its scaled axis.
#[derive_frule]
fn blend(x: &[f64]) -> f64 {
    let a = UnitQuaternion::from_euler_angles(x[0], x[1], 0.0);
    let b = UnitQuaternion::from_euler_angles(0.0, x[2], x[3]);
    let mid = a.slerp(&b, x[4]);
    let axis = mid.scaled_axis();
    mid.angle_to(&a) + 0.5 * mid.angle_to(&b) + axis.z
}

#[test]
fn slerp_blend() {
    check_modes!(blend {}, blend, [0.3, -0.2, 1.1, 0.4, 0.35]);
}

/// A point through a chain of homogeneous transforms (4×4 matrices), against the same
/// through the isometries.
#[derive_frule]
fn homogeneous_chain(x: &[f64], p: &Point3<f64>) -> f64 {
    let base = Isometry3::from_parts(
        Translation3::new(x[0], x[1], 0.3),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), x[2]),
    );
    let link = Matrix4::new_translation(&Vector3::new(0.5, 0.0, 0.0))
        * Rotation3::from_axis_angle(&Vector3::y_axis(), x[3]).to_homogeneous();
    let m = base.to_homogeneous() * link;
    let q = m.transform_point(p);
    let direct = base
        * Point3::new(
            0.5 + x[3].cos() * p.x + x[3].sin() * p.z,
            p.y,
            -x[3].sin() * p.x + x[3].cos() * p.z,
        );
    q.coords.norm_squared() + q.x * direct.z
}

#[test]
fn homogeneous_transforms() {
    let p = Point3::new(0.2, -0.1, 0.4);
    let plain = |x: &[f64]| homogeneous_chain(x, &p);
    check_modes!(
        bind(homogeneous_chain {}, (Wrt, &p)),
        plain,
        [0.1, -0.3, 0.4, 0.7]
    );
}
