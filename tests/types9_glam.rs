//! glam as graphics and robotics code calls it (twelfth session, feature `glam`): a
//! camera's reprojection error, a wrist's orientation read back as Euler angles
//! (`to_euler`), a spinning rigid body stepped in time, a camera path blended by `slerp`,
//! and a hand-eye transform chain of `DAffine3`s.
//!
//! Each against central differences in one direction, in batches and at second order,
//! primals bit for bit.
#![allow(clippy::needless_range_loop)]
use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;
use glam::{DAffine3, DMat3, DMat4, DQuat, DVec3, EulerRot};

#[macro_use]
mod common;

/// Sum of squared pixel errors of a pinhole camera at `pose = [x, y, z, yaw, pitch]`.
#[derive_frule]
fn reprojection_error(pose: &[f64], points: &[[f64; 3]], pixels: &[[f64; 2]]) -> f64 {
    let eye = DVec3::new(pose[0], pose[1], pose[2]);
    let rot = DQuat::from_euler(EulerRot::YXZ, pose[3], pose[4], 0.0);
    let forward = rot * DVec3::NEG_Z;
    let view = DMat4::look_to_rh(eye, forward, DVec3::Y);
    let proj = DMat4::perspective_rh(0.9, 16.0 / 9.0, 0.1, 100.0);
    let view_proj = proj * view;
    let mut err = 0.0;
    for (p, px) in points.iter().zip(pixels) {
        let ndc = view_proj.project_point3(DVec3::new(p[0], p[1], p[2]));
        let u = (ndc.x + 1.0) * 0.5 * 1920.0;
        let v = (1.0 - ndc.y) * 0.5 * 1080.0;
        err += (u - px[0]).powi(2) + (v - px[1]).powi(2);
    }
    err
}

#[test]
fn camera_reprojection() {
    let points = [
        [0.5, 0.2, -4.0],
        [-1.0, 0.7, -5.0],
        [0.3, -0.8, -3.5],
        [1.2, 1.0, -6.0],
    ];
    let pixels = [
        [1100.0, 500.0],
        [700.0, 420.0],
        [1000.0, 720.0],
        [1200.0, 350.0],
    ];
    let plain = |p: &[f64]| reprojection_error(p, &points, &pixels);
    check_modes!(
        bind(reprojection_error {}, (Wrt, &points[..], &pixels[..])),
        plain,
        [0.1, -0.05, 0.2, 0.08, -0.04]
    );
}

/// A wrist's orientation error: the tool's roll, pitch and yaw (`to_euler`) against a
/// target's.
#[derive_frule]
fn wrist_orientation_error(q: &[f64], target_rpy: &[f64; 3]) -> f64 {
    let shoulder = DQuat::from_rotation_z(q[0]);
    let elbow = DQuat::from_rotation_y(q[1]);
    let wrist = DQuat::from_rotation_x(q[2]);
    let tool = shoulder * elbow * wrist;
    let (roll, pitch, yaw) = tool.to_euler(EulerRot::XYZ);
    (roll - target_rpy[0]).powi(2) + (pitch - target_rpy[1]).powi(2) + (yaw - target_rpy[2]).powi(2)
}

/// The same through the rotation matrix, another sequence, and a repeated axis.
#[derive_frule]
fn frame_angles(q: &[f64]) -> f64 {
    let m =
        DMat3::from_rotation_x(q[0]) * DMat3::from_rotation_z(q[1]) * DMat3::from_rotation_y(q[2]);
    let (a, b, c) = m.to_euler(EulerRot::ZYX);
    let (d, e, f) = DQuat::from_mat3(&m).to_euler(EulerRot::ZXZ);
    let (g, h, k) = DMat4::from_mat3(m).to_euler(EulerRot::YXZEx);
    a * b + c.sin() + d * e - f.cos() + g * h * k
}

#[test]
fn euler_angles_back_from_rotations() {
    let target = [0.2, -0.1, 0.4];
    let plain = |q: &[f64]| wrist_orientation_error(q, &target);
    check_modes!(
        bind(wrist_orientation_error {}, (Wrt, &target)),
        plain,
        [0.5, 0.3, -0.2]
    );
    check_modes!(frame_angles {}, frame_angles, [0.4, -0.3, 0.7]);
    // The angles are glam's, bit for bit, and turn back into the rotation.
    let q =
        DQuat::from_rotation_z(0.5) * DQuat::from_rotation_y(0.3) * DQuat::from_rotation_x(-0.2);
    let (r, p, y) = q.to_euler(EulerRot::XYZ);
    let back = DQuat::from_euler(EulerRot::XYZ, r, p, y);
    assert!(back.abs_diff_eq(q, 1e-12) || back.abs_diff_eq(-q, 1e-12));
}

/// A free rigid body (principal inertia `i`), Euler's equations stepped in the body frame
/// and the attitude advanced by the rotation of `ω dt`: the final attitude's tilt of the
/// body's z axis and the kinetic energy.
#[derive_frule]
fn spin_step(w0: &[f64]) -> f64 {
    let dt = 0.01;
    let inertia = DVec3::new(1.0, 2.0, 3.0);
    let mut q = DQuat::IDENTITY;
    let mut w = DVec3::new(w0[0], w0[1], w0[2]);
    for _ in 0..20 {
        let l = inertia * w;
        let dw = -w.cross(l) / inertia;
        w += dw * dt;
        q = (q * DQuat::from_scaled_axis(w * dt)).normalize();
    }
    let z_world = q * DVec3::Z;
    let energy = 0.5 * (inertia * w).dot(w);
    z_world.angle_between(DVec3::Z) + 0.1 * energy
}

#[test]
fn rigid_body_step() {
    check_modes!(spin_step {}, spin_step, [0.3, 1.1, -0.4]);
}

/// A camera path between two orientations, blended by `slerp`: how far the blended view
/// turns from each key, and the angle of its forward axis to the ground's normal.
#[derive_frule]
fn blended_view(angles: &[f64]) -> f64 {
    let a = DQuat::from_euler(EulerRot::ZYX, angles[0], angles[1], 0.0);
    let b = DQuat::from_euler(EulerRot::ZYX, angles[2], angles[3], 0.0);
    let t = angles[4];
    let mid = a.slerp(b, t);
    let dir = mid * DVec3::X;
    let (axis, angle) = mid.to_axis_angle();
    mid.angle_between(a) + dir.angle_between(DVec3::Z) + angle * axis.z
}

#[test]
fn slerp_blend() {
    check_modes!(blended_view {}, blended_view, [0.3, -0.2, 1.1, 0.4, 0.35]);
}

/// Hand-eye chain: a marker seen by the camera, mapped to the base through the
/// camera's mount (`x[0..3]` a scaled axis, `x[3..6]` the offset), against where the
/// arm says it is; and the mount's decomposition read back.
#[derive_frule]
fn hand_eye_residual(x: &[f64], seen: &[[f64; 3]], expected: &[[f64; 3]]) -> f64 {
    let mount = DAffine3::from_rotation_translation(
        DQuat::from_scaled_axis(DVec3::new(x[0], x[1], x[2])),
        DVec3::new(x[3], x[4], x[5]),
    );
    let flange =
        DAffine3::from_translation(DVec3::new(0.0, 0.0, 0.4)) * DAffine3::from_rotation_z(0.3);
    let base_from_cam = flange * mount;
    let cam_from_base = base_from_cam.inverse();
    let mut r = 0.0;
    for (s, e) in seen.iter().zip(expected) {
        let p = base_from_cam.transform_point3(DVec3::new(s[0], s[1], s[2]));
        let back = cam_from_base.transform_point3(p);
        r += p.distance_squared(DVec3::new(e[0], e[1], e[2]))
            + 1e-3 * back.distance(DVec3::new(s[0], s[1], s[2]));
    }
    let m = DMat4::from(base_from_cam);
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    r + scale.length() + rotation.w + translation.z
}

#[test]
fn hand_eye_chain() {
    let seen = [[0.1, 0.2, 0.9], [-0.3, 0.1, 1.2], [0.2, -0.2, 0.7]];
    let expected = [[0.5, 0.1, 1.3], [0.1, 0.4, 1.6], [0.6, -0.1, 1.1]];
    let plain = |x: &[f64]| hand_eye_residual(x, &seen, &expected);
    check_modes!(
        bind(hand_eye_residual {}, (Wrt, &seen[..], &expected[..])),
        plain,
        [0.1, -0.2, 0.3, 0.05, 0.1, 0.2]
    );
}
