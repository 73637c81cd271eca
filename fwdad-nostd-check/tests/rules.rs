//! The rules of the `no_std` crate, run on the host, against derivatives written out by
//! hand (and, for the inverse kinematics, against the forward kinematics' Jacobian).

// Jacobians are compared entry by entry, `J[i][j]`, as they are written by hand.
#![allow(clippy::needless_range_loop)]

use fwdad::Dual;
use fwdad_nostd_check::{
    euler_residual, euler_residual_frule, forward_kinematics, forward_kinematics_frule,
    inverse_kinematics, inverse_kinematics_frule, Pid, PidTangent,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

const ZERO_PID: PidTangent = PidTangent {
    kp: 0.0,
    ki: 0.0,
    kd: 0.0,
    integral: 0.0,
    prev_error: 0.0,
};

/// `u = kp·e + ki·(I + e·dt) + kd·(e − e_prev)/dt` with `e = r − y`: each partial by hand,
/// and the state the step leaves behind with its tangent.
#[test]
fn pid_step_against_hand_partials() {
    let pid = Pid {
        kp: 1.8,
        ki: 0.6,
        kd: 0.05,
        integral: 0.3,
        prev_error: 0.2,
    };
    let (r, y, dt) = (1.0, 0.55, 0.01);
    let e = r - y;
    let expected_u =
        pid.kp * e + pid.ki * (pid.integral + e * dt) + pid.kd * (e - pid.prev_error) / dt;

    // (direction on the gains and state, on r, on y, on dt) → the partial of u.
    let unit = |f: fn(&mut PidTangent)| {
        let mut t = ZERO_PID;
        f(&mut t);
        t
    };
    let cases: [(PidTangent, f64, f64, f64, f64); 8] = [
        (unit(|t| t.kp = 1.0), 0.0, 0.0, 0.0, e),
        (unit(|t| t.ki = 1.0), 0.0, 0.0, 0.0, pid.integral + e * dt),
        (
            unit(|t| t.kd = 1.0),
            0.0,
            0.0,
            0.0,
            (e - pid.prev_error) / dt,
        ),
        (unit(|t| t.integral = 1.0), 0.0, 0.0, 0.0, pid.ki),
        (unit(|t| t.prev_error = 1.0), 0.0, 0.0, 0.0, -pid.kd / dt),
        (ZERO_PID, 1.0, 0.0, 0.0, pid.kp + pid.ki * dt + pid.kd / dt),
        (
            ZERO_PID,
            0.0,
            1.0,
            0.0,
            -(pid.kp + pid.ki * dt + pid.kd / dt),
        ),
        (
            ZERO_PID,
            0.0,
            0.0,
            1.0,
            pid.ki * e - pid.kd * (e - pid.prev_error) / (dt * dt),
        ),
    ];
    for (k, (tp, dr, dy, ddt, du)) in cases.into_iter().enumerate() {
        let (mut p, mut t) = (pid, tp);
        let u = Pid::step_frule(
            Dual::new(&mut p, &mut t),
            Dual::new(r, dr),
            Dual::new(y, dy),
            Dual::new(dt, ddt),
        );
        let mut plain = pid;
        assert_eq!(u.primal, plain.step(r, y, dt), "case {k}: primal");
        assert!(
            close(u.primal, expected_u, 1e-14),
            "case {k}: {} vs {expected_u}",
            u.primal
        );
        assert!(
            close(u.tangent, du, 1e-12),
            "case {k}: du {} vs {du}",
            u.tangent
        );
        // The state after the step: I' = I + e·dt, e_prev' = e.
        assert_eq!(
            (p.integral, p.prev_error),
            (plain.integral, plain.prev_error)
        );
        let di = tp.integral + (dr - dy) * dt + e * ddt;
        assert!(
            close(t.integral, di, 1e-12),
            "case {k}: dI {} vs {di}",
            t.integral
        );
        assert!(close(t.prev_error, dr - dy, 1e-14), "case {k}: de_prev");
    }
}

/// The Jacobian of the two-link arm's end effector, by hand:
/// `[[−l1·s1 − l2·s12, −l2·s12], [l1·c1 + l2·c12, l2·c12]]`, and `∂/∂l1 = (c1, s1)`.
fn fk_jacobian(q: [f64; 2], l1: f64, l2: f64) -> [[f64; 2]; 2] {
    let (s1, c1) = q[0].sin_cos();
    let (s12, c12) = (q[0] + q[1]).sin_cos();
    [
        [-l1 * s1 - l2 * s12, -l2 * s12],
        [l1 * c1 + l2 * c12, l2 * c12],
    ]
}

#[test]
fn forward_kinematics_against_hand_jacobian() {
    let (l1, l2) = (0.35, 0.25);
    for q in [[0.3, 0.9], [-1.2, 2.1], [2.5, -0.4]] {
        let jac = fk_jacobian(q, l1, l2);
        for j in 0..2 {
            let mut dq = [0.0; 2];
            dq[j] = 1.0;
            let p =
                forward_kinematics_frule(Dual::new(q, dq), Dual::new(l1, 0.0), Dual::new(l2, 0.0));
            assert_eq!(p.primal, forward_kinematics(q, l1, l2));
            for i in 0..2 {
                assert!(
                    close(p.tangent[i], jac[i][j], 1e-14),
                    "q = {q:?}: J[{i}][{j}]"
                );
            }
        }
        let p = forward_kinematics_frule(
            Dual::new(q, [0.0; 2]),
            Dual::new(l1, 1.0),
            Dual::new(l2, 0.0),
        );
        assert!(close(p.tangent[0], q[0].cos(), 1e-15) && close(p.tangent[1], q[0].sin(), 1e-15));
    }
}

/// Inverse kinematics inverts forward kinematics, so its Jacobian is the inverse of the
/// forward one at the solution: `J_fk(q) · J_ik(x) = I`.
#[test]
fn inverse_kinematics_inverts_the_forward_jacobian() {
    let (l1, l2) = (0.35, 0.25);
    for target in [[0.4, 0.2], [-0.1, 0.45], [0.25, -0.3]] {
        let q = inverse_kinematics(target, l1, l2);
        let back = forward_kinematics(q, l1, l2);
        assert!(close(back[0], target[0], 1e-13) && close(back[1], target[1], 1e-13));
        let jfk = fk_jacobian(q, l1, l2);
        for j in 0..2 {
            let mut dx = [0.0; 2];
            dx[j] = 1.0;
            let dq = inverse_kinematics_frule(
                Dual::new(target, dx),
                Dual::new(l1, 0.0),
                Dual::new(l2, 0.0),
            );
            assert_eq!(dq.primal, q);
            for i in 0..2 {
                let product = jfk[i][0] * dq.tangent[0] + jfk[i][1] * dq.tangent[1];
                let identity = if i == j { 1.0 } else { 0.0 };
                assert!(
                    (product - identity).abs() < 1e-12,
                    "target {target:?}: (J_fk·J_ik)[{i}][{j}] = {product}"
                );
            }
        }
    }
}

/// The residual's Jacobian in `next`, by hand: position rows `e_i − dt·e_{3+i}`, velocity
/// rows `e_{3+i} − dt·∂force_i`, with `∂force_i/∂x_i = −k(1 + 3s_l²) − k(1 + 3s_r²)`,
/// `∂force_i/∂x_{i∓1} = k(1 + 3s²)` of the spring between them, `∂force_i/∂v_i = −c`.
#[test]
fn euler_residual_against_hand_jacobian() {
    let next = [0.12, -0.05, 0.3, 0.4, -0.2, 0.1];
    let prev = [0.1, 0.0, 0.25, 0.35, -0.1, 0.2];
    let (k, c, dt) = (40.0, 0.8, 0.005);
    let x = |i: isize| {
        if (0..3).contains(&i) {
            next[i as usize]
        } else {
            0.0
        }
    };
    let stiff = |s: f64| k * (1.0 + 3.0 * s * s);
    let mut jac = [[0.0; 6]; 6];
    for i in 0..3 {
        let s_left = x(i as isize) - x(i as isize - 1);
        let s_right = x(i as isize + 1) - x(i as isize);
        jac[i][i] = 1.0;
        jac[i][3 + i] = -dt;
        jac[3 + i][3 + i] = 1.0 + dt * c;
        jac[3 + i][i] = dt * (stiff(s_left) + stiff(s_right));
        if i > 0 {
            jac[3 + i][i - 1] = -dt * stiff(s_left);
        }
        if i < 2 {
            jac[3 + i][i + 1] = -dt * stiff(s_right);
        }
    }
    let mut plain = [0.0; 6];
    euler_residual(&next, &prev, k, c, dt, &mut plain);
    for j in 0..6 {
        let mut dnext = [0.0; 6];
        dnext[j] = 1.0;
        let (mut out, mut dout) = ([0.0; 6], [0.0; 6]);
        euler_residual_frule(
            Dual::new(&next, &dnext),
            Dual::new(&prev, &[0.0; 6]),
            Dual::new(k, 0.0),
            Dual::new(c, 0.0),
            Dual::new(dt, 0.0),
            Dual::new(&mut out, &mut dout),
        );
        assert_eq!(out, plain);
        for i in 0..6 {
            assert!(
                close(dout[i], jac[i][j], 1e-13),
                "J[{i}][{j}] = {} vs {}",
                dout[i],
                jac[i][j]
            );
        }
    }
}
