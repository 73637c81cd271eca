//! glam inside derived bodies (feature `glam`): a 3-link robot arm written with `DQuat`
//! and `DVec3`, and the same chain with `DMat3`, as robotics code writes them. Checked
//! against the planar arm's Jacobian derived by hand and central finite differences, in
//! one direction, batched (`gradient`, `jacobian`) and second order (`hessian`).
//!
//! Run with `cargo test --features glam --test lib_glam`.
use fwdad::prelude::*;
use glam::{DMat3, DQuat, DVec3};

/// The tip of a 3-link arm: joint `i` turns by `angles[i]` about `axes[i]` (in the frame
/// of the link before it), link `i` points along its local x axis.
#[derive_frule]
fn arm_tip(angles: &[f64], out: &mut [f64]) {
    let lengths = [1.0, 0.8, 0.5];
    let axes = [DVec3::Z, DVec3::Y, DVec3::Y];
    let mut rot = DQuat::IDENTITY;
    let mut tip = DVec3::ZERO;
    for i in 0..3 {
        rot *= DQuat::from_axis_angle(axes[i], angles[i]);
        tip += rot * DVec3::new(lengths[i], 0.0, 0.0);
    }
    out[0] = tip.x;
    out[1] = tip.y;
    out[2] = tip.z;
}

/// The inverse-kinematics objective: squared distance from the tip to a target.
#[derive_frule]
fn reach_error(angles: &[f64], target: &DVec3) -> f64 {
    let lengths = [1.0, 0.8, 0.5];
    let axes = [DVec3::Z, DVec3::Y, DVec3::Y];
    let mut rot = DQuat::IDENTITY;
    let mut tip = DVec3::ZERO;
    for i in 0..3 {
        rot *= DQuat::from_axis_angle(axes[i], angles[i]);
        tip += rot.mul_vec3(DVec3::X * lengths[i]);
    }
    tip.distance_squared(*target)
}

/// A planar arm with rotation matrices: all joints about z.
#[derive_frule]
fn planar_tip(angles: &[f64], out: &mut [f64]) {
    let lengths = [1.0, 0.8, 0.5];
    let mut frame = DMat3::IDENTITY;
    let mut tip = DVec3::ZERO;
    for (i, &theta) in angles.iter().enumerate() {
        frame *= DMat3::from_rotation_z(theta);
        tip += frame * DVec3::new(lengths[i], 0.0, 0.0);
    }
    out[0] = tip.x;
    out[1] = tip.y;
    out[2] = tip.z;
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn central(f: &dyn Fn(&[f64]) -> f64, x: &[f64], v: &[f64], h: f64) -> f64 {
    let at = |s: f64| -> Vec<f64> { x.iter().zip(v).map(|(a, b)| a + s * b).collect() };
    (f(&at(h)) - f(&at(-h))) / (2.0 * h)
}

fn unit(j: usize) -> Vec<f64> {
    (0..3).map(|i| f64::from(u8::from(i == j))).collect()
}

#[test]
fn planar_arm_jacobian_matches_the_hand_derived_one() {
    let q = [0.3, -0.7, 1.1];
    let (tip, jac) = fwdad::jacobian(inplace(planar_tip {}, 3), &q);
    // tip = Σᵢ lᵢ (cos φᵢ, sin φᵢ, 0), φᵢ = θ₀ + .. + θᵢ; ∂tip/∂θⱼ = Σ_{i ≥ j} lᵢ (−sin φᵢ, cos φᵢ, 0).
    let l = [1.0, 0.8, 0.5];
    let phi = [q[0], q[0] + q[1], q[0] + q[1] + q[2]];
    let x: f64 = (0..3).map(|i| l[i] * phi[i].cos()).sum();
    let y: f64 = (0..3).map(|i| l[i] * phi[i].sin()).sum();
    assert!(close(tip[0], x, 1e-14) && close(tip[1], y, 1e-14) && tip[2] == 0.0);
    for j in 0..3 {
        let dx: f64 = (j..3).map(|i| -l[i] * phi[i].sin()).sum();
        let dy: f64 = (j..3).map(|i| l[i] * phi[i].cos()).sum();
        assert!(close(jac[(0, j)], dx, 1e-14), "J[0,{j}]");
        assert!(close(jac[(1, j)], dy, 1e-14), "J[1,{j}]");
        assert_eq!(jac[(2, j)], 0.0);
    }
}

#[test]
fn quaternion_arm_matches_finite_differences() {
    let q = [0.3, -0.7, 1.1];
    let (tip, jac) = fwdad::jacobian(inplace(arm_tip {}, 3), &q);
    let mut plain = [0.0; 3];
    arm_tip(&q, &mut plain);
    // glam's value, bit for bit.
    assert_eq!(tip, plain);
    for j in 0..3 {
        for i in 0..3 {
            let fd = central(
                &|a| {
                    let mut out = [0.0; 3];
                    arm_tip(a, &mut out);
                    out[i]
                },
                &q,
                &unit(j),
                1e-6,
            );
            assert!(
                close(jac[(i, j)], fd, 1e-8),
                "J[{i},{j}] = {} vs {fd}",
                jac[(i, j)]
            );
        }
    }
    // With the second and third joints at zero the arm is straight along the first
    // link's direction: the tip is at |l| (cos θ₀, sin θ₀, 0).
    let (tip, _) = fwdad::jacobian(inplace(arm_tip {}, 3), &[0.4, 0.0, 0.0]);
    assert!(close(tip[0], 2.3 * 0.4f64.cos(), 1e-15));
    assert!(close(tip[1], 2.3 * 0.4f64.sin(), 1e-15));
}

#[test]
fn reach_error_gradient_and_hessian_match_finite_differences() {
    let q = [0.3, -0.7, 1.1];
    let target = DVec3::new(0.9, 0.6, 0.4);
    let f = |a: &[f64]| reach_error(a, &target);
    let (e, g) = fwdad::gradient(bind(reach_error {}, (Wrt, &target)), &q);
    assert_eq!(e, f(&q));
    for (j, gj) in g.iter().enumerate() {
        let fd = central(&f, &q, &unit(j), 1e-6);
        assert!(close(*gj, fd, 1e-8), "∂{j}: {gj} vs {fd}");
    }
    // The gradient is 2 Jᵀ (tip − target), with J from `arm_tip`.
    let (tip, jac) = fwdad::jacobian(inplace(arm_tip {}, 3), &q);
    for (j, gj) in g.iter().enumerate() {
        let expected: f64 = (0..3)
            .map(|i| 2.0 * jac[(i, j)] * (tip[i] - target.to_array()[i]))
            .sum();
        assert!(close(*gj, expected, 1e-13));
    }
    let (_, _, h) = fwdad::hessian(bind(reach_error {}, (Wrt, &target)), &q);
    for j in 0..3 {
        for i in 0..3 {
            let fd = central(
                &|a| fwdad::gradient(bind(reach_error {}, (Wrt, &target)), a).1[i],
                &q,
                &unit(j),
                1e-6,
            );
            assert!(
                close(h[(i, j)], fd, 1e-7),
                "H[{i},{j}] = {} vs {fd}",
                h[(i, j)]
            );
        }
    }
    // Along the target (a `&DVec3` parameter with a tangent): ∂e/∂target = 2 (target − tip).
    let dt = [0.5, -1.0, 0.25];
    let d = reach_error_frule(Dual::new(&q[..], &[0.0; 3][..]), Dual::new(&target, &dt));
    let expected: f64 = (0..3)
        .map(|i| 2.0 * (target.to_array()[i] - tip[i]) * dt[i])
        .sum();
    assert!(
        close(d.tangent, expected, 1e-13),
        "{} vs {expected}",
        d.tangent
    );
}
