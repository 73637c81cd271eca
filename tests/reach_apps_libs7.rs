//! Programs over nalgebra, glam, num-complex and ndarray as their users write them,
//! annotated unmodified: a robot arm's forward kinematics and geometric Jacobian through
//! `Isometry3`/`UnitQuaternion`/`Rotation3`, its tool's orientation error, a camera with
//! glam's `perspective_rh`/`look_at_rh` and `DQuat::slerp`, a first-person camera from
//! `DQuat::from_euler`, an EKF and a UKF step on `SMatrix` (`transpose`, `try_inverse`,
//! `cholesky`), a rigid body and an orbit integrated with `Vector3::cross`/`normalize`, a
//! ladder network's impedance, a DFT summed in iterator chains of `Complex64`, a complex
//! Newton root, power flow over a line, and ndarray MLPs with `dot` and `mapv` on
//! `arr1`/`arr2` weights.
//!
//! Each in one direction, in batches and at second order against central differences of
//! the plain function (`check_modes!`), and against closed forms where one exists;
//! primals bit for bit.
//!
//! Run with `cargo test --features nalgebra,num-complex,glam,ndarray --test reach_apps_libs7`.
#![allow(clippy::needless_range_loop, clippy::too_many_arguments)]

#[macro_use]
mod common;

use std::f64::consts::PI;

use fwdad::prelude::*;
use glam::{DMat3, DMat4, DQuat, DVec3, DVec4, EulerRot};
use nalgebra::{
    Isometry3, Matrix2, Matrix3, Point3, Rotation3, SMatrix, Translation3, UnitQuaternion, Vector2,
    Vector3,
};
use ndarray::{arr1, arr2, Array1, Array2};
use num_complex::Complex64;

/// Central differences of each output of `f` at `x`, `jac[i][k] = ∂fᵢ/∂xₖ`.
fn fd_jacobian(f: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let m = f(x).len();
    let mut jac = vec![vec![0.0; x.len()]; m];
    for k in 0..x.len() {
        let h = 1e-6 * x[k].abs().max(1.0);
        let (mut p, mut q) = (x.to_vec(), x.to_vec());
        p[k] += h;
        q[k] -= h;
        let (fp, fq) = (f(&p), f(&q));
        for i in 0..m {
            jac[i][k] = (fp[i] - fq[i]) / (2.0 * h);
        }
    }
    jac
}

// ---------------------------------------------------------------------------------------
// Robotics: a 3-joint arm (base yaw, shoulder and elbow pitch), as nalgebra users compose
// it.

const BASE_HEIGHT: f64 = 0.2;
const UPPER_ARM: f64 = 0.4;
const FOREARM: f64 = 0.3;

/// The pose of the tool flange: each joint an `Isometry3` of its rotation, each link a
/// translation; the elbow's rotation is a `Rotation3` turned into a quaternion.
#[derive_frule]
fn flange_pose(q: &[f64]) -> Isometry3<f64> {
    let base = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, BASE_HEIGHT),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), q[0]),
    );
    let shoulder = Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_axis_angle(&Vector3::y_axis(), q[1]),
    );
    let upper = Isometry3::translation(UPPER_ARM, 0.0, 0.0);
    let elbow_rot = Rotation3::from_axis_angle(&Vector3::y_axis(), q[2]);
    let elbow = Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_rotation_matrix(&elbow_rot),
    );
    let forearm = Isometry3::translation(FOREARM, 0.0, 0.0);
    base * shoulder * upper * elbow * forearm
}

/// The flange's position, the rows of the arm's positional Jacobian.
#[derive_frule]
fn flange_position(q: &[f64]) -> Point3<f64> {
    let pose = flange_pose(q);
    pose * Point3::origin()
}

/// The geometric Jacobian, computed in plain nalgebra: column `i` is `zᵢ × (p − oᵢ)`
/// with joint `i`'s axis `zᵢ` and origin `oᵢ` in the world.
fn geometric_jacobian(q: &[f64]) -> Matrix3<f64> {
    let r0 = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), q[0]);
    let r01 = r0 * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), q[1]);
    let o0 = Vector3::new(0.0, 0.0, BASE_HEIGHT);
    let o1 = o0;
    let o2 = o1 + r01 * Vector3::new(UPPER_ARM, 0.0, 0.0);
    let r012 = r01 * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), q[2]);
    let p = o2 + r012 * Vector3::new(FOREARM, 0.0, 0.0);
    let z0 = Vector3::z();
    let z1 = r0 * Vector3::y();
    let z2 = r01 * Vector3::y();
    Matrix3::from_columns(&[
        z0.cross(&(p - o0)),
        z1.cross(&(p - o1)),
        z2.cross(&(p - o2)),
    ])
}

#[test]
fn arm_jacobian_is_the_geometric_jacobian() {
    let q = [0.4, -0.6, 0.9];
    let (p, j) = jacobian(flange_position {}, &q);
    let plain = flange_position(&q);
    for i in 0..3 {
        assert_eq!(p[i].to_bits(), plain[i].to_bits(), "primal {i}");
    }
    let want = geometric_jacobian(&q);
    for i in 0..3 {
        for k in 0..3 {
            assert!(
                (j[(i, k)] - want[(i, k)]).abs() < 1e-14,
                "J[{i}][{k}]: {} against {}",
                j[(i, k)],
                want[(i, k)]
            );
        }
    }
}

/// A pose cost for an IK solver: the flange's distance to a target point plus the angle
/// between its orientation and a target orientation (`rotation_to`, `angle`).
#[derive_frule]
fn ik_cost(q: &[f64]) -> f64 {
    let pose = flange_pose(q);
    let target = Point3::new(0.35, 0.25, 0.45);
    let target_rot = UnitQuaternion::from_euler_angles(0.0, 0.3, 0.6);
    let position_err = (pose.translation.vector - target.coords).norm_squared();
    let angle_err = pose.rotation.rotation_to(&target_rot).angle();
    position_err + 0.05 * angle_err * angle_err
}

#[test]
fn arm_ik_cost_in_every_mode() {
    check_modes!(ik_cost {}, ik_cost, [0.4, -0.6, 0.9]);
}

/// Interpolating the tool's orientation between two waypoints (`slerp`) and reading the
/// approach axis: a trajectory's orientation term.
#[derive_frule]
fn approach_along_slerp(p: &[f64]) -> f64 {
    let start = UnitQuaternion::from_euler_angles(p[0], 0.1, 0.0);
    let end = UnitQuaternion::from_euler_angles(0.0, p[1], 0.8);
    let mid = start.slerp(&end, p[2]);
    let approach = mid * Vector3::z();
    approach.dot(&Vector3::new(0.0, 0.6, 0.8))
}

#[test]
fn orientation_slerp_in_every_mode() {
    check_modes!(
        approach_along_slerp {},
        approach_along_slerp,
        [0.3, -0.4, 0.35]
    );
}

// ---------------------------------------------------------------------------------------
// glam: a camera on a keyframed orbit, and a first-person camera from Euler angles.

/// The pixel a world point lands on for a camera whose orientation is slerped between two
/// keyframes, looking at the origin: `DQuat::slerp`, `DMat4::look_at_rh`,
/// `DMat4::perspective_rh`, `project_point3`, then the viewport.
#[derive_frule]
fn keyframe_pixel(p: &[f64]) -> [f64; 2] {
    let (width, height) = (1280.0, 720.0);
    let k0 = DQuat::from_rotation_y(p[0]);
    let k1 = DQuat::from_rotation_x(-0.4) * DQuat::from_rotation_y(0.9);
    let orientation = k0.slerp(k1, p[1]);
    let eye = orientation * DVec3::new(0.0, 0.0, p[2]);
    let view = DMat4::look_at_rh(eye, DVec3::ZERO, DVec3::Y);
    let proj = DMat4::perspective_rh(60f64.to_radians(), width / height, 0.1, 100.0);
    let ndc = (proj * view).project_point3(DVec3::new(0.3, 0.2, -0.1));
    [(ndc.x * 0.5 + 0.5) * width, (0.5 - ndc.y * 0.5) * height]
}

#[derive_frule]
fn keyframe_pixel_sum(p: &[f64]) -> f64 {
    let [u, v] = keyframe_pixel(p);
    u + 0.5 * v
}

#[test]
fn keyframed_camera_projection() {
    let p = [0.2, 0.4, 5.0];
    check_modes!(keyframe_pixel_sum {}, keyframe_pixel_sum, p);
    let (uv, j) = jacobian(keyframe_pixel {}, &p);
    assert_eq!(uv[0].to_bits(), keyframe_pixel(&p)[0].to_bits());
    let want = fd_jacobian(&|x| keyframe_pixel(x).to_vec(), &p);
    for i in 0..2 {
        for k in 0..3 {
            common::modes::assert_close(j[(i, k)], want[i][k], 1e-6, &format!("J[{i}][{k}]"));
        }
    }
}

/// A first-person camera's forward vector from its yaw and pitch, as game code writes it
/// with glam's `DQuat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0)`.
#[derive_frule]
fn look_direction(yaw: f64, pitch: f64) -> DVec3 {
    let rotation = DQuat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0);
    rotation * DVec3::NEG_Z
}

#[derive_frule]
fn aim_error(a: &[f64]) -> f64 {
    let forward = look_direction(a[0], a[1]);
    let to_target = DVec3::new(1.0, 0.5, -2.0).normalize();
    1.0 - forward.dot(to_target)
}

#[test]
fn first_person_camera_from_euler() {
    let (yaw, pitch) = (0.3, -0.2);
    // The mirror's primal is glam's, bit for bit.
    let plain = DQuat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0) * DVec3::NEG_Z;
    assert_eq!(look_direction(yaw, pitch), plain);
    let d = look_direction_frule(Dual::new(yaw, 1.0), Dual::new(pitch, 0.0));
    assert_eq!(d.primal, plain);
    // forward = (−sin ψ cos θ, sin θ, −cos ψ cos θ): ∂/∂ψ = (−cos ψ cos θ, 0, sin ψ cos θ).
    let want = [-yaw.cos() * pitch.cos(), 0.0, yaw.sin() * pitch.cos()];
    for i in 0..3 {
        assert!((d.tangent[i] - want[i]).abs() < 1e-15, "d/dyaw {i}");
    }
    check_modes!(aim_error {}, aim_error, [yaw, pitch]);
}

/// A spacecraft's body axes from a 3-2-1 (yaw, pitch, roll) sequence with glam's matrices:
/// `DMat3::from_euler(EulerRot::ZYX, ..)` for the attitude and the same `DMat4` for a
/// model matrix, and an extrinsic sequence through the quaternion.
#[derive_frule]
fn attitude_axes(a: &[f64]) -> f64 {
    let r = DMat3::from_euler(EulerRot::ZYX, a[0], a[1], a[2]);
    let m = DMat4::from_euler(EulerRot::XZY, a[2], a[0], 0.2);
    let q = DQuat::from_euler(EulerRot::ZXZEx, a[1], 0.4, a[0]);
    let nadir = r * DVec3::new(0.0, 0.0, -1.0);
    let model = m * DVec4::new(1.0, 2.0, 3.0, 1.0);
    nadir.x + 2.0 * nadir.y + model.z + (q * DVec3::X).y
}

/// glam's 24 Euler sequences.
const ORDERS: [EulerRot; 24] = [
    EulerRot::ZYX,
    EulerRot::ZXY,
    EulerRot::YXZ,
    EulerRot::YZX,
    EulerRot::XYZ,
    EulerRot::XZY,
    EulerRot::ZYZ,
    EulerRot::ZXZ,
    EulerRot::YXY,
    EulerRot::YZY,
    EulerRot::XYX,
    EulerRot::XZX,
    EulerRot::ZYXEx,
    EulerRot::ZXYEx,
    EulerRot::YXZEx,
    EulerRot::YZXEx,
    EulerRot::XYZEx,
    EulerRot::XZYEx,
    EulerRot::ZYZEx,
    EulerRot::ZXZEx,
    EulerRot::YXYEx,
    EulerRot::YZYEx,
    EulerRot::XYXEx,
    EulerRot::XZXEx,
];

/// A rotation in the `k`-th sequence applied to a vector, by the quaternion and by the
/// matrix.
#[derive_frule]
fn euler_in_sequence(k: usize, a: &[f64]) -> f64 {
    let order = ORDERS[k];
    let q = DQuat::from_euler(order, a[0], a[1], a[2]);
    let m = DMat3::from_euler(order, a[0], a[1], a[2]);
    let v = DVec3::new(0.3, -0.5, 0.8);
    let (p, r) = (q * v, m * v);
    p.x + 2.0 * p.y + 3.0 * p.z + r.x - r.y + 0.5 * r.z
}

#[test]
fn euler_sequences_of_matrices_and_quaternions() {
    let a = [0.3, -0.2, 0.5];
    check_modes!(attitude_axes {}, attitude_axes, a);
    // Each of glam's 24 sequences: the mirror's primal is glam's bit for bit, its
    // derivatives those of glam's own constructor by central differences.
    for k in 0..ORDERS.len() {
        check_modes!(
            bind(euler_in_sequence {}, (k, Wrt)),
            |x: &[f64]| euler_in_sequence(k, x),
            [0.3, -0.7, 1.1]
        );
    }
}

// ---------------------------------------------------------------------------------------
// Estimation: an EKF and a UKF step on `SMatrix`.

type Mat3x3 = SMatrix<f64, 3, 3>;

/// The negative log-likelihood of one range-bearing measurement after an EKF predict and
/// update of a unicycle, as a function of the noise parameters and the initial heading (what
/// a filter's tuning maximises): `transpose`, `try_inverse`, `determinant`.
#[derive_frule]
fn ekf_nll(p: &[f64]) -> f64 {
    let (q_pos, q_heading, r_range, r_bearing) = (p[0], p[1], p[2], p[3]);
    let (v, omega, dt) = (1.0, 0.2, 0.1);
    let x = Vector3::new(0.0, 0.0, p[4]);
    let cov = Mat3x3::identity() * 0.1;
    // Predict.
    let theta = x[2];
    let x_pred = Vector3::new(
        x[0] + v * dt * theta.cos(),
        x[1] + v * dt * theta.sin(),
        theta + omega * dt,
    );
    let f = Mat3x3::new(
        1.0,
        0.0,
        -v * dt * theta.sin(), //
        0.0,
        1.0,
        v * dt * theta.cos(), //
        0.0,
        0.0,
        1.0,
    );
    let q = Mat3x3::from_diagonal(&Vector3::new(
        q_pos * q_pos,
        q_pos * q_pos,
        q_heading * q_heading,
    ));
    let cov_pred = f * cov * f.transpose() + q;
    // Update with a landmark at (2, 1).
    let (dx, dy) = (2.0 - x_pred[0], 1.0 - x_pred[1]);
    let r2 = dx * dx + dy * dy;
    let range = r2.sqrt();
    let z_pred = Vector2::new(range, dy.atan2(dx) - x_pred[2]);
    let z = Vector2::new(2.2, 0.35);
    let h = SMatrix::<f64, 2, 3>::new(
        -dx / range,
        -dy / range,
        0.0, //
        dy / r2,
        -dx / r2,
        -1.0,
    );
    let r = Matrix2::new(r_range * r_range, 0.0, 0.0, r_bearing * r_bearing);
    let s = h * cov_pred * h.transpose() + r;
    let s_inv = s.try_inverse().expect("innovation covariance");
    let innovation = z - z_pred;
    let k = cov_pred * h.transpose() * s_inv;
    let _x_new = x_pred + k * innovation;
    0.5 * (innovation.transpose() * s_inv * innovation)[(0, 0)] + 0.5 * s.determinant().ln()
}

#[test]
fn ekf_likelihood_in_every_mode() {
    check_modes!(ekf_nll {}, ekf_nll, [0.05, 0.02, 0.1, 0.05, 0.3]);
}

/// A UKF's predicted range to a beacon: sigma points from the Cholesky factor of the
/// scaled covariance, pushed through the range, weighted mean and variance.
#[derive_frule]
fn ukf_range(p: &[f64]) -> f64 {
    let n = 2.0;
    let (alpha, beta, kappa) = (1.0, 2.0, 0.0);
    let lambda = alpha * alpha * (n + kappa) - n;
    let mean = Vector2::new(p[0], p[1]);
    let cov = Matrix2::new(p[2], p[3], p[3], p[4]);
    let l = (cov * (n + lambda)).cholesky().expect("covariance").l();
    let beacon = Vector2::new(3.0, 4.0);
    let range = |s: Vector2<f64>| (beacon - s).norm();
    let mut sigmas = vec![mean];
    for i in 0..2 {
        sigmas.push(mean + l.column(i));
        sigmas.push(mean - l.column(i));
    }
    let w0_mean = lambda / (n + lambda);
    let w0_cov = w0_mean + (1.0 - alpha * alpha + beta);
    let wi = 1.0 / (2.0 * (n + lambda));
    let ys: Vec<f64> = sigmas.iter().map(|s| range(*s)).collect();
    let mut y_mean = w0_mean * ys[0];
    for i in 1..ys.len() {
        y_mean += wi * ys[i];
    }
    let mut y_var = w0_cov * (ys[0] - y_mean).powi(2);
    for i in 1..ys.len() {
        y_var += wi * (ys[i] - y_mean).powi(2);
    }
    y_mean + y_var
}

#[test]
fn ukf_sigma_points_in_every_mode() {
    check_modes!(ukf_range {}, ukf_range, [0.5, 0.2, 0.3, 0.05, 0.2]);
}

// ---------------------------------------------------------------------------------------
// Rigid bodies and orbits with `Vector3`.

/// A free rigid body's angular velocity after `n` steps of Euler's equations
/// `I ω̇ = −ω × Iω`, its orientation advanced by `from_scaled_axis(ω dt)`; the final body
/// x axis's z plus the kinetic energy.
#[derive_frule]
fn tumbling_body(w0: &[f64]) -> f64 {
    let inertia = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let inv_inertia = Matrix3::from_diagonal(&Vector3::new(1.0, 0.5, 1.0 / 3.0));
    let mut omega = Vector3::new(w0[0], w0[1], w0[2]);
    let mut attitude = UnitQuaternion::identity();
    let dt = 0.01;
    for _ in 0..50 {
        let torque_free = -omega.cross(&(inertia * omega));
        omega += inv_inertia * torque_free * dt;
        attitude *= UnitQuaternion::from_scaled_axis(omega * dt);
    }
    let body_x = attitude * Vector3::x();
    body_x.z + 0.5 * omega.dot(&(inertia * omega))
}

#[test]
fn tumbling_rigid_body_in_every_mode() {
    check_modes!(tumbling_body {}, tumbling_body, [0.3, 1.0, 0.2]);
}

/// A gyroscope's precession direction: the spin axis normalised, crossed with gravity's
/// torque arm (`cross`, `normalize`, `angle`).
#[derive_frule]
fn precession_angle(axis: &[f64]) -> f64 {
    let spin = Vector3::new(axis[0], axis[1], axis[2]).normalize();
    let torque = spin.cross(&Vector3::new(0.0, 0.0, -9.81));
    let precession = torque.normalize();
    precession.angle(&Vector3::x()) + spin.z
}

#[test]
fn gyroscope_precession_in_every_mode() {
    let a = [0.3, 0.4, 1.0];
    check_modes!(precession_angle {}, precession_angle, a);
    // The precession is (−a_y, a_x, 0)/ρ with ρ = √(a_x² + a_y²), at the angle
    // acos(−a_y/ρ) to x: its gradient is (−a_y, a_x, 0)/ρ² for a_x > 0; the spin's z is
    // a_z/|a|, whose gradient is e_z/|a| − a_z a/|a|³.
    let (rho2, n) = (
        a[0] * a[0] + a[1] * a[1],
        (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt(),
    );
    let want = [
        -a[1] / rho2 - a[2] * a[0] / n.powi(3),
        a[0] / rho2 - a[2] * a[1] / n.powi(3),
        1.0 / n - a[2] * a[2] / n.powi(3),
    ];
    let (_, g) = gradient(precession_angle {}, &a);
    for k in 0..3 {
        assert!(
            (g[k] - want[k]).abs() < 1e-14,
            "d/da{k}: {} against {}",
            g[k],
            want[k]
        );
    }
}

/// A satellite's position after a leapfrog integration of two-body gravity
/// `r̈ = −μ r / |r|³`, from its initial velocity.
#[derive_frule]
fn orbit_after(v0: &[f64]) -> [f64; 3] {
    let mu = 1.0;
    let dt = 0.01;
    let mut r = Vector3::new(1.0, 0.0, 0.0);
    let mut v = Vector3::new(v0[0], v0[1], v0[2]);
    let accel = |r: Vector3<f64>| -mu * r / r.norm().powi(3);
    let mut a = accel(r);
    for _ in 0..100 {
        v += a * (0.5 * dt);
        r += v * dt;
        a = accel(r);
        v += a * (0.5 * dt);
    }
    [r.x, r.y, r.z]
}

#[test]
fn orbit_sensitivity_to_initial_velocity() {
    let v0 = [0.0, 1.05, 0.1];
    let (r, j) = jacobian(orbit_after {}, &v0);
    let plain = orbit_after(&v0);
    for i in 0..3 {
        assert_eq!(r[i].to_bits(), plain[i].to_bits());
    }
    let want = fd_jacobian(&|x| orbit_after(x).to_vec(), &v0);
    for i in 0..3 {
        for k in 0..3 {
            common::modes::assert_close(j[(i, k)], want[i][k], 1e-6, &format!("J[{i}][{k}]"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// num-complex: networks, spectra and roots.

/// The input impedance of an RC ladder of `n` sections seen from the source, computed from
/// the load back: each section a series resistor and a shunt capacitor,
/// `Z ← R + 1 / (jωC + 1/Z)`; its magnitude in dB and its phase.
#[derive_frule]
fn ladder_response(p: &[f64], sections: usize) -> f64 {
    let (r, c, w, load) = (p[0], p[1] * 1e-6, p[2], p[3]);
    let j = Complex64::i();
    let mut z = Complex64::new(load, 0.0);
    for _ in 0..sections {
        let shunt = j * w * c + z.inv();
        z = r + shunt.inv();
    }
    20.0 * z.norm().log10() + z.arg()
}

#[test]
fn rc_ladder_impedance() {
    let p = [100.0, 1.0, 2000.0, 500.0];
    check_modes!(
        bind(ladder_response {}, (Wrt, 3)),
        |x: &[f64]| ladder_response(x, 3),
        p
    );
    // One section: Z = R + L / (1 + jωCL); ∂|Z|/∂R at fixed ω = Re(Z)/|Z|.
    let (r, c, w, load) = (p[0], p[1] * 1e-6, p[2], p[3]);
    let wcl = w * c * load;
    let re = r + load / (1.0 + wcl * wcl);
    let im = -load * wcl / (1.0 + wcl * wcl);
    let mag = (re * re + im * im).sqrt();
    let (_, g) = gradient(bind(ladder_response {}, (Wrt, 1)), &p);
    let want = 20.0 / std::f64::consts::LN_10 * re / (mag * mag) - im / (mag * mag);
    assert!((g[0] - want).abs() < 1e-12, "{} against {want}", g[0]);
}

/// A signal's spectrum by the DFT written as iterator chains over `Complex64`
/// (`.sum::<Complex64>()` per bin, collected into a `Vec<Complex64>`), and its energy by
/// `spectrum.iter().map(|c| c.norm_sqr())`.
#[derive_frule]
fn spectral_energy(x: &[f64]) -> f64 {
    let n = x.len();
    let spectrum: Vec<Complex64> = (0..n)
        .map(|k| {
            (0..n)
                .map(|t| {
                    let phase = -2.0 * PI * (k * t) as f64 / n as f64;
                    x[t] * Complex64::from_polar(1.0, phase)
                })
                .sum::<Complex64>()
        })
        .collect();
    spectrum.iter().map(|c| c.norm_sqr()).sum::<f64>() / n as f64
}

#[test]
fn parseval_through_complex_chains() {
    let x = [0.3, 1.0, -0.4, 0.8, 0.1, -0.9];
    check_modes!(spectral_energy {}, spectral_energy, x);
    // Parseval: Σ|X_k|²/n = Σ x², whose gradient is 2x.
    let (e, g) = gradient(spectral_energy {}, &x);
    assert!((e - x.iter().map(|v| v * v).sum::<f64>()).abs() < 1e-13);
    for i in 0..x.len() {
        assert!((g[i] - 2.0 * x[i]).abs() < 1e-13, "d/dx{i}");
    }
}

/// The spectral centroid of a frame: each bin by a chain summed into a `Complex64`
/// (`let bin: Complex64 = ...sum();`), the magnitudes of the first half read from a
/// `Vec<Complex64>` by `iter().map(|c| c.norm())`.
#[derive_frule]
fn spectral_centroid(x: &[f64]) -> f64 {
    let n = x.len();
    let mut bins: Vec<Complex64> = Vec::with_capacity(n / 2);
    for k in 0..n / 2 {
        let w = Complex64::from_polar(1.0, -2.0 * PI * k as f64 / n as f64);
        let bin: Complex64 = x
            .iter()
            .enumerate()
            .map(|(t, &v)| w.powi(t as i32) * v)
            .sum();
        bins.push(bin);
    }
    let mags: Vec<f64> = bins.iter().map(|c| c.norm()).collect();
    let total: f64 = mags.iter().sum();
    mags.iter()
        .enumerate()
        .map(|(k, m)| k as f64 * m)
        .sum::<f64>()
        / total
}

#[test]
fn spectral_centroid_in_every_mode() {
    check_modes!(
        spectral_centroid {},
        spectral_centroid,
        [0.3, 1.0, -0.4, 0.8, 0.1, -0.9, 0.5, 0.2]
    );
}

/// A root of `z³ + a z + b` by Newton's method in `Complex64`, from a complex start.
#[derive_frule]
fn cubic_root(a: f64, b: f64) -> Complex64 {
    let mut z = Complex64::new(0.5, 1.0);
    for _ in 0..60 {
        let p = z * z * z + a * z + b;
        let dp = 3.0 * z * z + a;
        z -= p / dp;
    }
    z
}

#[derive_frule]
fn root_imag(p: &[f64]) -> f64 {
    let z = cubic_root(p[0], p[1]);
    z.im + 0.5 * z.re
}

#[test]
fn complex_newton_root_sensitivity() {
    let (a, b) = (1.0, 1.0);
    let z = cubic_root(a, b);
    // Implicit function theorem: ∂z/∂a = −z / p'(z), ∂z/∂b = −1 / p'(z).
    let dp = 3.0 * z * z + a;
    let d = cubic_root_frule(Dual::new(a, 1.0), Dual::new(b, 0.0));
    assert_eq!(d.primal, z);
    let want = -z / dp;
    assert!(
        (d.tangent - want).norm() < 1e-12,
        "{} against {want}",
        d.tangent
    );
    let d = cubic_root_frule(Dual::new(a, 0.0), Dual::new(b, 1.0));
    assert!((d.tangent + 1.0 / dp).norm() < 1e-12);
    check_modes!(root_imag {}, root_imag, [a, b]);
}

/// The real power sent over a line of impedance `R + jX` from bus 1 to bus 2, from the
/// voltage magnitudes and the angle between them: `S = V₁ conj((V₁ − V₂)/Z)`.
#[derive_frule]
fn line_power(p: &[f64]) -> f64 {
    let (v1, v2, delta, r, x) = (p[0], p[1], p[2], p[3], p[4]);
    let z = Complex64::new(r, x);
    let bus1 = Complex64::from_polar(v1, delta);
    let bus2 = Complex64::new(v2, 0.0);
    let current = (bus1 - bus2) / z;
    let s = bus1 * current.conj();
    s.re
}

#[test]
fn power_flow_over_a_line() {
    let p = [1.02, 0.98, 0.1, 0.0, 0.25];
    // Lossless: P = V₁V₂ sin δ / X, so ∂P/∂δ = V₁V₂ cos δ / X.
    let (pw, g) = gradient(line_power {}, &p);
    assert_eq!(pw.to_bits(), line_power(&p).to_bits());
    assert!((pw - p[0] * p[1] * p[2].sin() / p[4]).abs() < 1e-14);
    assert!((g[2] - p[0] * p[1] * p[2].cos() / p[4]).abs() < 1e-13);
    check_modes!(line_power {}, line_power, [1.02, 0.98, 0.1, 0.05, 0.25]);
}

// ---------------------------------------------------------------------------------------
// ndarray: small networks.

/// A 2-3-1 tanh network's squared error at an input, with its weights as an ML engineer
/// writes constants: `arr2`/`arr1` bound untyped, `dot`, `mapv`.
#[derive_frule]
fn mlp_loss(x: &[f64]) -> f64 {
    let w1 = arr2(&[[0.5, -0.3], [0.8, 0.2], [-0.4, 0.9]]);
    let b1 = arr1(&[0.1, -0.2, 0.05]);
    let w2 = arr2(&[[1.2, -0.7, 0.4]]);
    let input = Array1::from_vec(x.to_vec());
    let hidden = (w1.dot(&input) + &b1).mapv(f64::tanh);
    let out = w2.dot(&hidden);
    let err = out[0] - 0.5;
    0.5 * err * err
}

#[test]
fn mlp_input_gradient_by_backpropagation() {
    let x = [0.7, -0.4];
    check_modes!(mlp_loss {}, mlp_loss, x);
    // By hand: δ = (y − t) w₂ ⊙ (1 − h²), ∇ₓ = W₁ᵀ δ.
    let w1 = [[0.5, -0.3], [0.8, 0.2], [-0.4, 0.9]];
    let b1 = [0.1, -0.2, 0.05];
    let w2 = [1.2, -0.7, 0.4];
    let h: Vec<f64> = (0..3)
        .map(|i| (w1[i][0] * x[0] + w1[i][1] * x[1] + b1[i]).tanh())
        .collect();
    let y: f64 = (0..3).map(|i| w2[i] * h[i]).sum();
    let (_, g) = gradient(mlp_loss {}, &x);
    for k in 0..2 {
        let want: f64 = (0..3)
            .map(|i| (y - 0.5) * w2[i] * (1.0 - h[i] * h[i]) * w1[i][k])
            .sum();
        assert!((g[k] - want).abs() < 1e-15, "d/dx{k}");
    }
}

/// The same network's loss over a batch as a function of its first layer's weights
/// (what training differentiates): `Array2::from_shape_vec`, a matrix product with the
/// batch, a broadcast bias, `mapv`, a softplus output and the mean.
#[derive_frule]
fn batch_loss(w: &[f64]) -> f64 {
    let w1 = Array2::from_shape_vec((3, 2), w.to_vec()).unwrap();
    let batch = arr2(&[[0.7, -0.4], [0.1, 0.9], [-0.6, 0.3], [0.2, 0.2]]);
    let targets = arr1(&[0.5, -0.1, 0.3, 0.0]);
    let w2 = arr1(&[1.2, -0.7, 0.4]);
    let hidden = batch.dot(&w1.t()).mapv(|z| z.max(0.0) + 0.1 * z.min(0.0));
    let out = hidden.dot(&w2).mapv(|o| (1.0 + o.exp()).ln());
    let err = &out - &targets;
    err.mapv(|e| e * e).mean().unwrap()
}

#[test]
fn batch_loss_in_every_mode() {
    check_modes!(batch_loss {}, batch_loss, [0.5, -0.3, 0.8, 0.2, -0.4, 0.9]);
}

/// A discretised damped oscillator driven by a unit force, `s ← A s + B`, with the
/// matrices and the state assembled from the parameters by `arr2`/`arr1` bound untyped.
#[derive_frule]
fn oscillator_state(p: &[f64]) -> f64 {
    let (k, c, dt) = (p[0], p[1], 0.05);
    let a = arr2(&[[1.0, dt], [-k * dt, 1.0 - c * dt]]);
    let b = arr1(&[0.0, dt]);
    let mut state = arr1(&[p[2], 0.0]);
    for _ in 0..20 {
        state = a.dot(&state) + &b;
    }
    state[0] + 0.1 * state[1]
}

#[test]
fn state_space_step_with_arr_constructors() {
    check_modes!(oscillator_state {}, oscillator_state, [4.0, 0.3, 0.5]);
    // Linear in the initial position: ∂/∂x₀ = (Aⁿ)₀₀ + 0.1 (Aⁿ)₁₀.
    let (k, c, dt) = (4.0, 0.3, 0.05);
    let a = Matrix2::new(1.0, dt, -k * dt, 1.0 - c * dt);
    let an = a.pow(20);
    let (_, g) = gradient(oscillator_state {}, &[k, c, 0.5]);
    assert!((g[2] - (an[(0, 0)] + 0.1 * an[(1, 0)])).abs() < 1e-14);
}

// ---------------------------------------------------------------------------------------
// Sums and products of library values in iterator chains.

/// The centre of mass of a cluster of particles weighted by their masses, by glam
/// (`sum::<DVec3>()`) and by nalgebra (`let total: Vector3<f64> = ..sum();`), and the
/// orientation at the end of a chain of joints turning about z then x
/// (`product::<DQuat>()`).
#[derive_frule]
fn cluster_pose(p: &[f64]) -> f64 {
    let masses = [1.0, p[0], 2.0];
    let positions = [
        DVec3::new(p[1], 0.0, 0.5),
        DVec3::new(0.2, p[2], -0.1),
        DVec3::new(-0.4, 0.3, 1.0),
    ];
    let total_mass: f64 = masses.iter().sum();
    let com = positions
        .iter()
        .zip(masses.iter())
        .map(|(x, m)| *x * *m)
        .sum::<DVec3>()
        / total_mass;
    let arms: Vec<Vector3<f64>> = vec![
        Vector3::new(p[1], 1.0, 0.0),
        Vector3::new(0.0, p[2], 1.0),
        Vector3::new(1.0, 0.0, p[0]),
    ];
    let moment: Vector3<f64> = arms.iter().map(|r| r.cross(&Vector3::z())).sum();
    let chain = [p[1], -0.3, p[2]]
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            if i % 2 == 0 {
                DQuat::from_rotation_z(a)
            } else {
                DQuat::from_rotation_x(a)
            }
        })
        .product::<DQuat>();
    com.length() + moment.norm() + (chain * DVec3::X).y
}

#[test]
fn sums_and_products_of_library_values() {
    let p = [1.5, 0.3, -0.2];
    check_modes!(cluster_pose {}, cluster_pose, p);
    // The centre of mass moves with particle 0's x by m₀ / Σm: d|c|/dp₁ ⊇ that.
    let (_, g) = gradient(com_x {}, &p);
    assert!((g[1] - 1.0 / (3.0 + p[0])).abs() < 1e-15);
}

#[derive_frule]
fn com_x(p: &[f64]) -> f64 {
    let masses = [1.0, p[0], 2.0];
    let positions = [
        DVec3::new(p[1], 0.0, 0.5),
        DVec3::new(0.2, p[2], -0.1),
        DVec3::new(-0.4, 0.3, 1.0),
    ];
    let total_mass: f64 = masses.iter().sum();
    let com: DVec3 = positions.iter().zip(&masses).map(|(x, m)| *x * *m).sum();
    com.x / total_mass
}

/// The gain of an analogue Butterworth low-pass of order `n` at `ω` from its poles, each
/// `ω_c e^{jπ(2k+n+1)/2n}`: `|H(jω)| = ω_cⁿ / |Π (jω − p_k)|`, the product by
/// `product::<Complex64>()`.
#[derive_frule]
fn butterworth_gain(wc: f64, w: f64, n: usize) -> f64 {
    let s = Complex64::new(0.0, w);
    let denominator = (0..n)
        .map(|k| {
            let theta = PI * (2 * k + n + 1) as f64 / (2 * n) as f64;
            s - Complex64::from_polar(wc, theta)
        })
        .product::<Complex64>();
    wc.powi(n as i32) / denominator.norm()
}

#[test]
fn butterworth_gain_from_its_poles() {
    let (wc, w) = (2.0_f64, 1.3_f64);
    for n in 1..5 {
        // |H| = 1 / √(1 + (ω/ω_c)^{2n}): d|H|/dω = −n (ω/ω_c)^{2n−1} / ω_c · |H|³.
        let h = 1.0 / (1.0 + (w / wc).powi(2 * n as i32)).sqrt();
        let (g, dg) = derivative(bind(butterworth_gain {}, (wc, Wrt, n)), w);
        assert_eq!(g.to_bits(), butterworth_gain(wc, w, n).to_bits());
        assert!((g - h).abs() < 1e-14, "order {n}: {g} against {h}");
        let want = -(n as f64) * (w / wc).powi(2 * n as i32 - 1) / wc * h.powi(3);
        assert!((dg - want).abs() < 1e-13, "order {n}: {dg} against {want}");
        check_modes!(
            bind(butterworth_gain {}, (Var(0), Var(1), n)),
            |x: &[f64]| butterworth_gain(x[0], x[1], n),
            [wc, w]
        );
    }
}
