//! glam's affine transforms and matrix inverses in derived bodies (feature `glam`), as
//! camera and robotics code writes them: a planar arm chained with `DAffine3`, a camera
//! built with `DAffine3::look_at_rh` projecting points, an object pose from scale, rotation
//! and translation undone by its `inverse`, `DMat3::inverse` solving a linear system, and
//! `DMat4::inverse` unprojecting through a view-projection matrix, and planar poses with
//! `DAffine2` (a pose graph's relative-pose residual) and `DMat2`. Each against central
//! differences of the plain function in one direction, in batches and at second order,
//! primal bit for bit (the rule's primal is glam's own value), and against closed forms.
//!
//! Run with `cargo test --features glam --test lib_glam_affine`.
// Both forms of a product into a pose, as users write them; index loops as the formulas.
#![allow(clippy::assign_op_pattern, clippy::needless_range_loop)]

mod common;

use fwdad::prelude::*;
use glam::{DAffine2, DAffine3, DMat2, DMat3, DMat4, DQuat, DVec2, DVec3, DVec4};

/// The tip of a planar arm: each joint turns about z, each link is a translation along
/// its local x axis.
#[derive_frule]
fn arm_reach(q: &[f64]) -> f64 {
    let lengths = [1.0, 0.8, 0.5];
    let mut pose = DAffine3::IDENTITY;
    for i in 0..3 {
        pose = pose * DAffine3::from_rotation_z(q[i]);
        pose *= DAffine3::from_translation(DVec3::new(lengths[i], 0.0, 0.0));
    }
    let tip = pose.transform_point3(DVec3::ZERO);
    tip.x + 2.0 * tip.y
}

#[test]
fn planar_arm_chained_with_affine_transforms() {
    let q: [f64; 3] = [0.3, -0.7, 1.1];
    check_modes!(arm_reach {}, arm_reach, q);
    // tip = Σᵢ lᵢ (cos φᵢ, sin φᵢ), φᵢ = q₀ + .. + qᵢ: ∂/∂qⱼ = Σ_{i ≥ j} lᵢ (−sin φᵢ + 2 cos φᵢ).
    let l = [1.0, 0.8, 0.5];
    let phi = [q[0], q[0] + q[1], q[0] + q[1] + q[2]];
    let (_, g) = gradient(arm_reach {}, &q);
    for j in 0..3 {
        let want: f64 = (j..3)
            .map(|i| l[i] * (-phi[i].sin() + 2.0 * phi[i].cos()))
            .sum();
        assert!((g[j] - want).abs() < 1e-13, "∂{j}: {} vs {want}", g[j]);
    }
}

/// A pinhole camera at `eye` looking at the origin: the image coordinates of a point.
#[derive_frule]
fn project(eye: &[f64], out: &mut [f64]) {
    let view = DAffine3::look_at_rh(DVec3::new(eye[0], eye[1], eye[2]), DVec3::ZERO, DVec3::Y);
    let focal = 1.5;
    let p = view.transform_point3(DVec3::new(0.2, -0.1, 0.3));
    out[0] = focal * p.x / -p.z;
    out[1] = focal * p.y / -p.z;
}

#[derive_frule]
fn image_radius(eye: &[f64]) -> f64 {
    let mut uv = [0.0; 2];
    project(eye, &mut uv);
    uv[0].hypot(uv[1])
}

#[test]
fn camera_from_look_at_projects_points() {
    let eye: [f64; 3] = [1.0, 0.7, 4.0];
    check_modes!(image_radius {}, image_radius, eye);
    let (uv, jac) = jacobian(inplace(project {}, 2), &eye);
    let mut want = [0.0; 2];
    project(&eye, &mut want);
    assert_eq!(uv[0].to_bits(), want[0].to_bits());
    assert_eq!(uv[1].to_bits(), want[1].to_bits());
    let fd = |i: usize, j: usize| {
        let h = 1e-6;
        let (mut a, mut b) = (eye, eye);
        a[j] += h;
        b[j] -= h;
        let (mut pa, mut pb) = ([0.0; 2], [0.0; 2]);
        project(&a, &mut pa);
        project(&b, &mut pb);
        (pa[i] - pb[i]) / (2.0 * h)
    };
    for i in 0..2 {
        for j in 0..3 {
            assert!((jac[(i, j)] - fd(i, j)).abs() < 1e-7, "({i}, {j})");
        }
    }
}

/// A point given in an object's frame, taken to the world and back by the inverse of the
/// object's pose, then measured against where it started.
#[derive_frule]
fn pose_round_trip(x: &[f64]) -> f64 {
    let pose = DAffine3::from_scale_rotation_translation(
        DVec3::new(x[0], 1.5, 0.5),
        DQuat::from_axis_angle(DVec3::new(0.0, 0.6, 0.8), x[1]),
        DVec3::new(x[2], -1.0, 0.25),
    );
    let local = DVec3::new(0.3, 0.4, x[3]);
    let world = pose.transform_point3(local);
    let back = pose
        .inverse()
        .transform_point3(world + DVec3::new(0.0, 0.1, 0.0));
    let offset = pose.inverse().transform_vector3(DVec3::Z);
    (back - local).length_squared() + world.dot(offset)
}

#[test]
fn pose_inverse_undoes_the_pose() {
    let x: [f64; 4] = [0.8, 0.9, 0.4, -0.3];
    check_modes!(pose_round_trip {}, pose_round_trip, x);
}

/// `M⁻¹ b` of a 3×3 system whose matrix depends on the inputs, and the 4×4 matrix of an
/// affine transform multiplied with a projection, inverted to unproject a clip point.
#[derive_frule]
fn solve_and_unproject(x: &[f64]) -> f64 {
    let m = DMat3::from_cols(
        DVec3::new(2.0 + x[0], 0.3, -0.2),
        DVec3::new(0.1, 1.5, x[1]),
        DVec3::new(x[2], 0.4, 3.0),
    );
    let sol = m.inverse() * DVec3::new(1.0, -2.0, 0.5);
    let view = DAffine3::from_rotation_translation(
        DQuat::from_rotation_y(x[0]),
        DVec3::new(0.0, x[1], -5.0),
    );
    let proj = DMat4::perspective_rh(0.8 + 0.1 * x[2], 1.25, 0.1, 50.0);
    let clip_from_world = proj * DMat4::from(view);
    let world = clip_from_world
        .inverse()
        .project_point3(DVec3::new(0.25, -0.5, 0.9));
    sol.length() + world.dot(DVec3::new(1.0, 0.5, 0.25)) + (view * DMat4::IDENTITY).w_axis.y
}

#[test]
fn matrix_inverses_solve_and_unproject() {
    let x: [f64; 3] = [0.2, -0.4, 0.6];
    check_modes!(solve_and_unproject {}, solve_and_unproject, x);
    // The mirror's inverses are glam's own values.
    let m = DMat4::from_cols(
        DVec4::new(2.0, 0.1, 0.3, 0.0),
        DVec4::new(-0.4, 1.7, 0.2, 0.1),
        DVec4::new(0.5, 0.6, 3.1, -0.2),
        DVec4::new(1.0, -2.0, 0.5, 1.0),
    );
    let id = m * m.inverse();
    assert!(id.abs_diff_eq(DMat4::IDENTITY, 1e-14));
}

/// The residual of one edge of a planar pose graph: the measured relative pose against
/// the one between two estimated poses, `T_a⁻¹ T_b`, compared on a landmark. (The
/// constant `landmark` goes to the constant `measured` as plain glam, and to the estimated
/// `relative` over duals: the first once failed to compile.)
#[derive_frule]
fn edge_residual(x: &[f64]) -> f64 {
    let pose_a = DAffine2::from_angle_translation(x[0], DVec2::new(x[1], x[2]));
    let pose_b =
        DAffine2::from_scale_angle_translation(DVec2::new(1.0, 1.0), x[3], DVec2::new(x[4], 0.5));
    let measured = DAffine2::from_angle_translation(0.4, DVec2::new(1.0, 0.2));
    let relative = pose_a.inverse() * pose_b;
    let landmark = DVec2::new(0.3, -0.8);
    let r = relative.transform_point2(landmark) - measured.transform_point2(landmark);
    let shear = DMat2::from_cols(DVec2::new(1.0, x[0]), DVec2::new(0.2, 1.0));
    let d = shear.inverse() * relative.transform_vector2(DVec2::X);
    r.length_squared() + d.x * relative.matrix2.determinant() + relative.translation.y
}

#[test]
fn planar_pose_graph_edge() {
    let x: [f64; 5] = [0.3, 1.0, -0.5, 0.9, 2.0];
    check_modes!(edge_residual {}, edge_residual, x);
}

/// Rotations about an axis: `DMat3::from_axis_angle` is glam's entry-by-entry formula, not
/// the matrix of the quaternion (its primal once was, off by an ulp in some entries).
#[derive_frule]
fn axis_angle_entries(x: &[f64]) -> f64 {
    let axis = DVec3::new(0.48, 0.6, 0.64);
    let m = DMat3::from_axis_angle(axis, x[0]);
    let a = DAffine3::from_axis_angle(axis, x[1]);
    let mut s = 0.0;
    for col in [
        m.x_axis,
        m.y_axis,
        m.z_axis,
        a.matrix3.x_axis,
        a.matrix3.y_axis,
        a.matrix3.z_axis,
    ] {
        s += col.x * 1.3 + col.y * 0.7 - col.z * 0.45;
    }
    s
}

#[test]
fn rotations_about_an_axis_are_glams() {
    for x in [[0.3, -0.7], [1.1, 2.5], [-2.9, 0.05], [0.77, 1.9]] {
        check_modes!(axis_angle_entries {}, axis_angle_entries, x);
    }
}
