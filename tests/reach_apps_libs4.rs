//! Programs over nalgebra, glam, num-complex and ndarray as roboticists, graphics
//! programmers, DSP and ML engineers write them, annotated unmodified: a six-joint arm's
//! forward kinematics, a perspective camera, an orientation filter, a Kalman filter's
//! likelihood, least squares by QR and SVD, a hand-written Gauss-Jordan elimination and a
//! Jacobi rotation on a matrix's rows and columns in place, an integrator stepping a
//! state split into positions and velocities, glam cameras and rotation arcs, a biquad's
//! response and a DFT over `Complex<f64>`, an ndarray MLP and a layer norm.
//! Each in one direction, in batches and at second order against central differences or
//! closed forms (`check_modes!`, `check_first_order!`); primals bit for bit.
//!
//! Run with `cargo test --features nalgebra,num-complex,glam,ndarray --test reach_apps_libs4`.
#![allow(clippy::needless_range_loop, clippy::assign_op_pattern)]

#[macro_use]
mod common;

use std::f64::consts::{FRAC_PI_2, PI};

use fwdad::prelude::*;
use glam::{DMat4, DQuat, DVec3, DVec4};
use nalgebra::{
    DMatrix, DVector, Isometry3, Matrix2, Matrix2x4, Matrix3, Matrix3x4, Matrix4, Matrix4x2,
    Perspective3, Point3, Rotation3, SVector, Translation3, UnitQuaternion, Vector2, Vector3,
    Vector4,
};
use ndarray::{s, Array1, Array2, Axis};
use num_complex::Complex;

// ---------------------------------------------------------------------------------------
// Robotics: a six-joint arm (standard DH parameters of a UR5-like arm).

/// The flange's position of a six-joint arm from its standard Denavit-Hartenberg
/// parameters, each joint `Rz(q) · Tz(d) · Tx(a) · Rx(alpha)`, then a 5 cm tool offset.
#[derive_frule]
fn flange_point(q: &[f64]) -> Point3<f64> {
    let d = [0.089159, 0.0, 0.0, 0.10915, 0.09465, 0.0823];
    let a = [0.0, -0.425, -0.39225, 0.0, 0.0, 0.0];
    let alpha = [FRAC_PI_2, 0.0, 0.0, FRAC_PI_2, -FRAC_PI_2, 0.0];
    let mut t = Isometry3::identity();
    for i in 0..6 {
        let joint = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, d[i]),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), q[i]),
        );
        let link = Isometry3::from_parts(
            Translation3::new(a[i], 0.0, 0.0),
            UnitQuaternion::from_euler_angles(alpha[i], 0.0, 0.0),
        );
        t = t * joint * link;
    }
    t.transform_point(&Point3::new(0.0, 0.0, 0.05))
}

/// How far the tool's approach axis is from pointing straight down, and the tool's
/// height, the cost a grasp planner weighs: the world's down direction seen in the
/// flange frame (`inverse_transform_vector`) against the flange's z.
#[derive_frule]
fn grasp_cost(q: &[f64]) -> f64 {
    let mut t = Isometry3::identity();
    let d = [0.089159, 0.0, 0.0, 0.10915, 0.09465, 0.0823];
    let a = [0.0, -0.425, -0.39225, 0.0, 0.0, 0.0];
    for i in 0..6 {
        let rz = Rotation3::from_axis_angle(&Vector3::z_axis(), q[i]);
        let rx = Rotation3::from_axis_angle(
            &Vector3::x_axis(),
            if i == 0 || i == 3 { FRAC_PI_2 } else { 0.0 },
        );
        t *= Isometry3::from_parts(
            Translation3::from(rz * Vector3::new(a[i], 0.0, 0.0) + Vector3::new(0.0, 0.0, d[i])),
            UnitQuaternion::from_rotation_matrix(&(rz * rx)),
        );
    }
    let down_in_tool = t.inverse_transform_vector(&Vector3::new(0.0, 0.0, -1.0));
    let misalignment = 1.0 - down_in_tool.dot(&Vector3::z());
    let height = t.translation.vector.z;
    misalignment + 0.5 * (height - 0.2).powi(2)
}

#[test]
fn six_joint_arm_in_every_mode() {
    let q = [0.1, -1.2, 1.4, -0.3, 0.5, 0.2];
    let (p, j) = fwdad::jacobian(flange_point {}, &q);
    let tip = flange_point(&q);
    for i in 0..3 {
        assert_eq!(p[i].to_bits(), tip[i].to_bits(), "primal");
    }
    let h = 1e-6;
    for k in 0..6 {
        let (mut a, mut b) = (q, q);
        a[k] += h;
        b[k] -= h;
        let d = (flange_point(&a) - flange_point(&b)) / (2.0 * h);
        for i in 0..3 {
            common::modes::assert_close(j[(i, k)], d[i], 1e-7, &format!("J[{i},{k}]"));
        }
    }
    // The first joint turns the arm about the base's z: the tip moves along z × p.
    common::modes::assert_close(j[(0, 0)], -tip.y, 1e-12, "dx/dq0 = -y");
    common::modes::assert_close(j[(1, 0)], tip.x, 1e-12, "dy/dq0 = x");
    common::modes::assert_close(j[(2, 0)], 0.0, 1e-12, "dz/dq0 = 0");
    check_modes!(grasp_cost {}, grasp_cost, q);
}

// ---------------------------------------------------------------------------------------
// A pinhole camera: `look_at_rh` and `Perspective3`.

/// Normalised device coordinates of a landmark seen from a camera at `eye` looking at
/// the origin, through a 60° perspective: the sum `x + 2y` a tracker compares.
#[derive_frule]
fn landmark_ndc(eye: &[f64]) -> f64 {
    let eye = Point3::new(eye[0], eye[1], eye[2]);
    let view = Isometry3::look_at_rh(&eye, &Point3::origin(), &Vector3::y());
    let proj = Perspective3::new(4.0 / 3.0, PI / 3.0, 0.1, 100.0);
    let landmark = Point3::new(0.3, -0.2, 0.5);
    let ndc = proj.project_point(&(view * landmark));
    ndc.x + 2.0 * ndc.y
}

#[test]
fn perspective_camera_in_every_mode() {
    check_modes!(landmark_ndc {}, landmark_ndc, [2.0, 1.0, 3.0]);
}

// ---------------------------------------------------------------------------------------
// An orientation filter: gyro integration and an accelerometer correction.

/// A complementary filter over a few IMU samples (gyro rates, then the gravity measured):
/// the attitude integrated by `from_scaled_axis`, nudged towards the accelerometer's tilt
/// by `slerp`; the result's angle to level.
#[derive_frule]
fn attitude_error(gyro_bias: &[f64]) -> f64 {
    let rates = [[0.1, -0.02, 0.3], [0.12, 0.0, 0.28], [0.09, 0.03, 0.31]];
    let accel = [[0.1, 0.05, 9.8], [0.2, 0.02, 9.7], [0.15, -0.04, 9.81]];
    let dt = 0.01;
    let bias = Vector3::new(gyro_bias[0], gyro_bias[1], gyro_bias[2]);
    let mut q = UnitQuaternion::identity();
    for k in 0..3 {
        let w = Vector3::new(rates[k][0], rates[k][1], rates[k][2]) - bias;
        q = q * UnitQuaternion::from_scaled_axis(w * dt);
        let g = Vector3::new(accel[k][0], accel[k][1], accel[k][2]).normalize();
        let up_body = q.inverse() * Vector3::z();
        if let Some(tilt) = UnitQuaternion::rotation_between(&up_body, &g) {
            q = q.slerp(&(q * tilt), 0.02);
        }
    }
    q.angle_to(&UnitQuaternion::identity())
}

#[test]
fn complementary_filter_in_every_mode() {
    check_modes!(attitude_error {}, attitude_error, [0.01, -0.02, 0.005]);
}

// ---------------------------------------------------------------------------------------
// A Kalman filter: constant-velocity tracking in the plane.

/// The negative log-likelihood of position fixes under a constant-velocity model
/// (state `[x, y, vx, vy]`) with process noise `q` and measurement noise `r`: the
/// innovation covariance inverted by `try_inverse` and its log-determinant by `cholesky`,
/// the gain by `lu().solve`.
#[derive_frule]
fn tracking_nll(noise: &[f64]) -> f64 {
    let (q, r) = (noise[0], noise[1]);
    let dt: f64 = 0.1;
    let f = Matrix4::new(
        1.0, 0.0, dt, 0.0, //
        0.0, 1.0, 0.0, dt, //
        0.0, 0.0, 1.0, 0.0, //
        0.0, 0.0, 0.0, 1.0,
    );
    let h = Matrix2x4::new(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    let z = [
        [0.1, 0.0],
        [0.22, 0.05],
        [0.29, 0.11],
        [0.41, 0.14],
        [0.5, 0.21],
    ];
    let mut x = Vector4::new(0.0, 0.0, 1.0, 0.5);
    let mut p = Matrix4::identity() * 0.5;
    let qm = Matrix4::from_diagonal(&Vector4::new(
        0.25 * dt.powi(4),
        0.25 * dt.powi(4),
        dt * dt,
        dt * dt,
    )) * q;
    let rm = Matrix2::identity() * r;
    let mut nll = 0.0;
    for zk in z.iter() {
        x = f * x;
        p = f * p * f.transpose() + qm;
        let y = Vector2::new(zk[0], zk[1]) - h * x;
        let s = h * p * h.transpose() + rm;
        let s_inv = s
            .try_inverse()
            .expect("innovation covariance is invertible");
        let chol = s.cholesky().expect("innovation covariance is SPD");
        let log_det = 2.0 * chol.l().diagonal().map(|d| d.ln()).sum();
        nll += 0.5 * (y.dot(&(s_inv * y)) + log_det);
        let k: Matrix4x2<f64> = s.lu().solve(&(h * p)).expect("solvable").transpose();
        x += k * y;
        p = (Matrix4::identity() - k * h) * p;
    }
    nll
}

#[test]
fn kalman_likelihood_in_every_mode() {
    check_modes!(tracking_nll {}, tracking_nll, [0.8, 0.02]);
}

// ---------------------------------------------------------------------------------------
// Least squares: a polynomial fit by QR and an exponential fit's residual by SVD.

/// The fitted cubic's value at 1.5 through noisy samples `y` at `t = 0, 0.25, ..`: the
/// design matrix from `DMatrix::from_fn`, least squares by Householder QR (`R β = Qᵀ y`).
#[derive_frule]
fn cubic_fit_at(y: &[f64]) -> f64 {
    let n = y.len();
    let a = DMatrix::from_fn(n, 4, |i, j| (0.25 * i as f64).powi(j as i32));
    let b = DVector::from_column_slice(y);
    let qr = a.qr();
    let qtb = qr.q().transpose() * b;
    let beta = qr.r().solve_upper_triangular(&qtb).expect("full rank");
    let t: f64 = 1.5;
    beta[0] + beta[1] * t + beta[2] * t * t + beta[3] * t * t * t
}

/// The fitted line's slope through `(t_i, y_i)` by the SVD's pseudo-inverse, the way a
/// calibration script solves an over-determined system robustly.
#[derive_frule]
fn svd_slope(y: &[f64]) -> f64 {
    let n = y.len();
    let a = DMatrix::from_fn(n, 2, |i, j| if j == 0 { 1.0 } else { i as f64 * 0.5 });
    let b = DVector::from_column_slice(y);
    let svd = a.svd(true, true);
    let beta = svd.solve(&b, 1e-12).expect("u and v_t were computed");
    beta[1]
}

#[test]
fn least_squares_by_qr_and_svd() {
    let y = [0.1, 0.4, 0.3, 0.9, 1.3, 1.2, 2.0];
    check_modes!(cubic_fit_at {}, cubic_fit_at, y);
    // The fit is linear in y: the gradient is the row of the pseudo-inverse evaluating
    // the cubic at 1.5, computed here from the normal equations.
    let n = y.len();
    let a = DMatrix::from_fn(n, 4, |i, j| (0.25 * i as f64).powi(j as i32));
    let phi = nalgebra::DVector::from_vec(vec![1.0, 1.5, 2.25, 3.375]);
    let w = (a.transpose() * &a).lu().solve(&phi).unwrap();
    let want = &a * w;
    let (_, g) = fwdad::gradient(cubic_fit_at {}, &y);
    for i in 0..n {
        common::modes::assert_close(g[i], want[i], 1e-9, &format!("d/dy{i}"));
    }
    let (_, g) = fwdad::gradient(svd_slope {}, &y);
    // Slope of a straight-line fit: sum (t_i - t̄) y_i / sum (t_i - t̄)².
    let t: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let tm = t.iter().sum::<f64>() / n as f64;
    let stt: f64 = t.iter().map(|t| (t - tm).powi(2)).sum();
    for i in 0..n {
        common::modes::assert_close(g[i], (t[i] - tm) / stt, 1e-9, &format!("slope d/dy{i}"));
    }
    check_first_order!(svd_slope {}, svd_slope, y);
}

/// The nuclear norm `Σ σᵢ` of a 3×2 weight matrix, a low-rank regulariser, through the
/// SVD of the active matrix (`singular_values()`).
#[derive_frule]
fn nuclear_norm(w: &[f64]) -> f64 {
    let m = DMatrix::from_row_slice(3, 2, w);
    m.singular_values().sum()
}

/// Separable least squares (variable projection) for `y ≈ c₀ e^{-k t} + c₁`: for a decay
/// rate `k`, the linear coefficients by Householder QR of the design matrix, which depends
/// on `k`; the squared residual left.
#[derive_frule]
fn varpro_residual(k: &[f64]) -> f64 {
    let t = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0];
    let y = [2.1, 1.5, 1.05, 0.85, 0.7, 0.55];
    let a = DMatrix::from_fn(6, 2, |i, j| if j == 0 { (-k[0] * t[i]).exp() } else { 1.0 });
    let b = DVector::from_column_slice(&y);
    let qr = a.clone().qr();
    let c = qr
        .r()
        .solve_upper_triangular(&(qr.q().transpose() * &b))
        .expect("full rank");
    (a * c - b).norm_squared()
}

/// Three sensors' readings unmixed through their fixed crosstalk matrix, solved by
/// Householder QR (`a.qr().solve(&b)`), then weighted.
#[derive_frule]
fn unmixed_signal(b: &[f64]) -> f64 {
    let crosstalk = Matrix3::new(1.0, 0.2, 0.05, 0.15, 1.0, 0.1, 0.0, 0.25, 1.0);
    let x = crosstalk
        .qr()
        .solve(&Vector3::new(b[0], b[1], b[2]))
        .expect("crosstalk is invertible");
    x[0] - 2.0 * x[1] + 0.5 * x[2] * x[2]
}

#[test]
fn decompositions_of_active_matrices() {
    let w = [1.0, 0.3, -0.2, 0.8, 0.5, 0.1];
    check_modes!(nuclear_norm {}, nuclear_norm, w);
    // ∂‖W‖_*/∂W = U Vᵀ for distinct nonzero singular values.
    let m = DMatrix::from_row_slice(3, 2, &w);
    let svd = m.svd(true, true);
    let uv = svd.u.unwrap() * svd.v_t.unwrap();
    let (_, g) = fwdad::gradient(nuclear_norm {}, &w);
    for i in 0..3 {
        for j in 0..2 {
            common::modes::assert_close(g[2 * i + j], uv[(i, j)], 1e-10, "U Vᵀ");
        }
    }
    check_modes!(varpro_residual {}, varpro_residual, [0.7]);
    // x = A⁻¹ b: ∂f/∂b = A⁻ᵀ ∇ₓf.
    let b = [0.9, -0.4, 1.3];
    check_modes!(unmixed_signal {}, unmixed_signal, b);
    let a = Matrix3::new(1.0, 0.2, 0.05, 0.15, 1.0, 0.1, 0.0, 0.25, 1.0);
    let x = a.lu().solve(&Vector3::new(b[0], b[1], b[2])).unwrap();
    let want = a
        .transpose()
        .lu()
        .solve(&Vector3::new(1.0, -2.0, x[2]))
        .unwrap();
    let (_, g) = fwdad::gradient(unmixed_signal {}, &b);
    for i in 0..3 {
        common::modes::assert_close(g[i], want[i], 1e-12, "A⁻ᵀ ∇ₓf");
    }
}

// ---------------------------------------------------------------------------------------
// Rows and columns written in place.

/// A 3×3 system solved by Gauss-Jordan elimination written by hand on the augmented
/// matrix `[A | b]` (rows of `ab`): each pivot row divided through its view's `iter_mut`,
/// then eliminated from the others; a weighted sum of the solution.
#[derive_frule]
fn gauss_jordan(ab: &[f64]) -> f64 {
    let mut m = Matrix3x4::from_row_slice(ab);
    for i in 0..3 {
        let pivot = m[(i, i)];
        for e in m.row_mut(i).iter_mut() {
            *e /= pivot;
        }
        for r in 0..3 {
            if r != i {
                let f = m[(r, i)];
                for c in 0..4 {
                    m[(r, c)] -= f * m[(i, c)];
                }
            }
        }
    }
    m[(0, 3)] + 2.0 * m[(1, 3)] - m[(2, 3)]
}

#[test]
fn gauss_jordan_by_row_views() {
    let ab = [
        4.0, 1.0, 0.5, 1.0, 1.0, 3.0, -0.5, 2.0, 0.2, -0.3, 2.5, -1.0,
    ];
    check_modes!(gauss_jordan {}, gauss_jordan, ab);
    // Against nalgebra's LU: x = A⁻¹ b, and ∂(wᵀx)/∂b = A⁻ᵀ w.
    let a = Matrix3::new(
        ab[0], ab[1], ab[2], ab[4], ab[5], ab[6], ab[8], ab[9], ab[10],
    );
    let w = Vector3::new(1.0, 2.0, -1.0);
    let x = a.lu().solve(&Vector3::new(ab[3], ab[7], ab[11])).unwrap();
    let lam = a.transpose().lu().solve(&w).unwrap();
    let (v, g) = fwdad::gradient(gauss_jordan {}, &ab);
    assert!((v - w.dot(&x)).abs() < 1e-12);
    for i in 0..3 {
        common::modes::assert_close(g[4 * i + 3], lam[i], 1e-10, "d/db");
        for j in 0..3 {
            common::modes::assert_close(g[4 * i + j], -lam[i] * x[j], 1e-10, "d/dA");
        }
    }
}

/// One sweep of one-sided Jacobi (Hestenes) on the columns of a 3×3 matrix: each pair of
/// columns borrowed together by `columns_range_pair_mut` and rotated to be orthogonal;
/// then the columns' norms, the singular values' estimates, weighted.
#[derive_frule]
fn jacobi_sweep(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(x);
    for i in 0..2 {
        for j in (i + 1)..3 {
            let (mut ci, mut cj) = m.columns_range_pair_mut(i, j);
            let alpha = ci.norm_squared();
            let beta = cj.norm_squared();
            let gamma = ci.dot(&cj);
            let zeta = (beta - alpha) / (2.0 * gamma);
            let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
            let c = 1.0 / (1.0 + t * t).sqrt();
            let s = c * t;
            for k in 0..3 {
                let a = ci[k];
                let b = cj[k];
                ci[k] = c * a - s * b;
                cj[k] = s * a + c * b;
            }
        }
    }
    m.column(0).norm() + 2.0 * m.column(1).norm() + 3.0 * m.column(2).norm()
}

#[test]
fn jacobi_rotation_on_column_pairs() {
    check_modes!(
        jacobi_sweep {},
        jacobi_sweep,
        [2.0, 0.5, 0.1, 0.4, 1.5, -0.3, 0.2, -0.1, 1.0]
    );
}

/// A three-dimensional oscillator stepped by symplectic Euler, its state
/// `[x, y, z, vx, vy, vz]` split into positions and velocities with
/// `as_mut_slice().split_at_mut(3)`: the energy after 40 steps.
#[derive_frule]
fn symplectic_energy(x0: &[f64], k: f64) -> f64 {
    let mut state = SVector::<f64, 6>::from_column_slice(x0);
    let dt = 0.05;
    for _ in 0..40 {
        let (pos, vel) = state.as_mut_slice().split_at_mut(3);
        for i in 0..3 {
            vel[i] -= dt * k * pos[i];
            pos[i] += dt * vel[i];
        }
    }
    let p = state.fixed_rows::<3>(0).norm_squared();
    let v = state.fixed_rows::<3>(3).norm_squared();
    0.5 * v + 0.5 * k * p
}

#[test]
fn state_split_into_positions_and_velocities() {
    check_modes!(
        bind(symplectic_energy {}, (Wrt, 2.0)),
        |x: &[f64]| symplectic_energy(x, 2.0),
        [1.0, 0.2, -0.5, 0.0, 0.3, 0.1]
    );
}

/// Leapfrog (kick-drift-kick) on an ndarray state `[q; p]` whose halves are borrowed
/// together by `multi_slice_mut`, for a chain of three unit masses on springs `k`.
#[derive_frule]
fn leapfrog_action(x0: &[f64], k: f64) -> f64 {
    let mut s = Array1::from_vec(x0.to_vec());
    let dt = 0.1;
    let mut action = 0.0;
    for _ in 0..25 {
        let (mut q, mut p) = s.multi_slice_mut((s![..3], s![3..]));
        for i in 0..3 {
            p[i] -= 0.5 * dt * k * q[i];
        }
        for i in 0..3 {
            q[i] += dt * p[i];
        }
        for i in 0..3 {
            p[i] -= 0.5 * dt * k * q[i];
        }
        action += dt * (p.dot(&p) - k * q.dot(&q)) * 0.5;
    }
    action
}

#[test]
fn leapfrog_on_halves_of_an_array() {
    check_modes!(
        bind(leapfrog_action {}, (Wrt, 1.5)),
        |x: &[f64]| leapfrog_action(x, 1.5),
        [0.5, -0.2, 0.1, 0.0, 0.4, -0.3]
    );
}

/// `|det A|` by modified Gram-Schmidt: each earlier column `qi` borrowed beside the
/// column `qj` being orthogonalised (`columns_range_pair_mut`), `qj -= qi * r`, then the
/// column normalised through its view; the product of `R`'s diagonal.
#[derive_frule]
fn gram_schmidt_volume(x: &[f64]) -> f64 {
    let mut q = Matrix3::from_column_slice(x);
    let mut r_diag = [0.0; 3];
    for j in 0..3 {
        for i in 0..j {
            let (qi, mut qj) = q.columns_range_pair_mut(i, j);
            let r = qi.dot(&qj);
            qj -= qi * r;
        }
        let n = q.column(j).norm();
        r_diag[j] = n;
        let mut c = q.column_mut(j);
        c /= n;
    }
    r_diag[0] * r_diag[1] * r_diag[2]
}

#[test]
fn gram_schmidt_volume_is_the_determinant() {
    let x = [2.0, 0.5, 0.1, 0.4, 1.5, -0.3, 0.2, -0.1, 1.0];
    check_modes!(gram_schmidt_volume {}, gram_schmidt_volume, x);
    // ∂|det A|/∂A = |det A| A⁻ᵀ (Jacobi's formula), entries in column-major order.
    let a = Matrix3::from_column_slice(&x);
    let det = a.determinant().abs();
    let cof = a.try_inverse().unwrap().transpose() * det;
    let (v, g) = fwdad::gradient(gram_schmidt_volume {}, &x);
    common::modes::assert_close(v, det, 1e-12, "|det A|");
    for k in 0..9 {
        common::modes::assert_close(g[k], cof[k], 1e-10, &format!("d|det|/dA[{k}]"));
    }
}

/// A stereo rig's two intrinsic matrices (focal lengths and principal points, by rows)
/// rescaled for images shrunk by `s`: the first row of the left camera's and the second
/// of the right's borrowed together, `(kl.row_mut(0), kr.row_mut(1))`, and scaled in
/// place; a point's disparity after.
#[derive_frule]
fn rescaled_disparity(k: &[f64], s: f64) -> f64 {
    let mut kl = Matrix3::new(k[0], 0.0, k[1], 0.0, k[0], k[2], 0.0, 0.0, 1.0);
    let mut kr = Matrix3::new(k[3], 0.0, k[4], 0.0, k[3], k[5], 0.0, 0.0, 1.0);
    let (mut fl, mut fr) = (kl.row_mut(0), kr.row_mut(1));
    fl *= s;
    fr *= s;
    let p = Vector3::new(0.3, -0.1, 2.0);
    let base = Vector3::new(0.12, 0.0, 0.0);
    let ul = kl * p;
    let ur = kr * (p - base);
    ul.x / ul.z - ur.x / ur.z + 0.5 * ur.y / ur.z
}

/// The rows of a 4×3 feature matrix split at the first (`view_mut().split_at`): the
/// header row scaled by `w[0]`, the rest by `w[1]` and shifted; the squared Frobenius
/// norm of the result.
#[derive_frule]
fn block_scaled_energy(x: &[f64], w: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((4, 3), x.to_vec()).unwrap();
    let (mut head, mut tail) = a.view_mut().split_at(Axis(0), 1);
    head *= w[0];
    tail *= w[1];
    tail += 0.1;
    a.mapv(|v| v * v).sum()
}

#[test]
fn views_of_a_tuple_written_in_place() {
    check_modes!(
        bind(rescaled_disparity {}, (Wrt, 0.5)),
        |k: &[f64]| rescaled_disparity(k, 0.5),
        [500.0, 320.0, 240.0, 510.0, 318.0, 242.0]
    );
    let x: Vec<f64> = (0..12).map(|i| (i as f64 * 0.3).cos()).collect();
    check_modes!(
        bind(block_scaled_energy {}, (Wrt, &[2.0, 0.5][..])),
        |x: &[f64]| block_scaled_energy(x, &[2.0, 0.5]),
        x
    );
    // In the weights: Σ (w₀ a₀ⱼ)² + Σ (w₁ aᵢⱼ + 0.1)², whose gradient is closed.
    let w = [2.0, 0.5];
    let (_, g) = fwdad::gradient(bind(block_scaled_energy {}, (&x[..], Wrt)), &w);
    let head: f64 = x[..3].iter().map(|a| 2.0 * w[0] * a * a).sum();
    let tail: f64 = x[3..].iter().map(|a| 2.0 * (w[1] * a + 0.1) * a).sum();
    common::modes::assert_close(g[0], head, 1e-12, "d/dw0");
    common::modes::assert_close(g[1], tail, 1e-12, "d/dw1");
}

// ---------------------------------------------------------------------------------------
// Geometry: a triangle mesh's area and shading.

/// Total area of a triangle fan around the first vertex, and the Lambert shading of each
/// face under a light from `(1, 1, 2)`: `cross`, `norm`, `normalize`, `dot`.
#[derive_frule]
fn fan_area_and_shade(v: &[f64]) -> f64 {
    let light = Vector3::new(1.0, 1.0, 2.0).normalize();
    let p0 = Vector3::new(v[0], v[1], v[2]);
    let mut area = 0.0;
    let mut shade = 0.0;
    for f in 1..(v.len() / 3 - 1) {
        let a = Vector3::new(v[3 * f], v[3 * f + 1], v[3 * f + 2]) - p0;
        let b = Vector3::new(v[3 * f + 3], v[3 * f + 4], v[3 * f + 5]) - p0;
        let n = a.cross(&b);
        area += 0.5 * n.norm();
        shade += n.normalize().dot(&light).max(0.0);
    }
    area + shade
}

#[test]
fn mesh_area_and_shading_in_every_mode() {
    check_modes!(
        fan_area_and_shade {},
        fan_area_and_shade,
        [0.0, 0.0, 0.0, 1.0, 0.1, 0.2, 0.9, 1.1, 0.1, -0.2, 1.0, 0.3, -1.0, 0.2, 0.4]
    );
}

// ---------------------------------------------------------------------------------------
// glam: a chase camera and a rotation arc.

/// A chase camera behind a target: the camera's up rotated by the arc between the
/// world's up and the terrain normal (`DQuat::from_rotation_arc`), blended by `slerp`,
/// then `look_at_rh` and `perspective_rh`; the target's screen y and depth.
#[derive_frule]
fn chase_camera(p: &[f64]) -> f64 {
    let normal = DVec3::new(p[0], 1.0, p[1]).normalize();
    let tilt = DQuat::from_rotation_arc(DVec3::Y, normal);
    let up = DQuat::IDENTITY.slerp(tilt, 0.3) * DVec3::Y;
    let target = DVec3::new(0.0, 0.5, 0.0);
    let eye = target + DVec3::new(0.0, 2.0, 5.0 + p[2]);
    let view = DMat4::look_at_rh(eye, target, up);
    let proj = DMat4::perspective_rh(0.9, 16.0 / 9.0, 0.1, 50.0);
    let clip = proj * view * DVec4::new(0.3, 0.8, -0.2, 1.0);
    clip.y / clip.w + clip.z / clip.w
}

#[test]
fn chase_camera_in_every_mode() {
    check_modes!(chase_camera {}, chase_camera, [0.2, -0.1, 0.5]);
    // On flat ground glam's arc is its identity branch: the camera still turns with the
    // normal, as the finite differences of glam's function across it show.
    check_modes!(chase_camera {}, chase_camera, [0.0, 0.0, 0.5]);
}

// ---------------------------------------------------------------------------------------
// DSP over `Complex<f64>`.

/// A biquad's response at `w`: `H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²)` at
/// `z = e^{iw}` (`from_polar`), its magnitude in dB (`norm_sqr`) and phase (`arg`), and the
/// group delay's numerator through `conj`.
#[derive_frule]
fn biquad_response(c: &[f64], w: f64) -> f64 {
    let z_inv = Complex::from_polar(1.0, -w);
    let num = Complex::new(c[0], 0.0) + z_inv * c[1] + z_inv * z_inv * c[2];
    let den = Complex::new(1.0, 0.0) + z_inv * c[3] + z_inv.powi(2) * c[4];
    let h = num / den;
    let mag_db = 10.0 * h.norm_sqr().log10();
    let phase = h.arg();
    let cross = (num * den.conj()).im;
    mag_db + phase + 0.1 * cross
}

/// A chirp's energy in one DFT bin, the twiddles `exp(-2πi k n / N)` as `Complex::exp`
/// and the chirp's phase `exp(i·φ)` raised by `powc` to a complex exponent.
#[derive_frule]
fn chirp_bin_power(params: &[f64]) -> f64 {
    let (f0, rate, decay) = (params[0], params[1], params[2]);
    let n = 32;
    let k = 3;
    let mut acc = Complex::new(0.0, 0.0);
    for i in 0..n {
        let t = i as f64 / n as f64;
        let phase = 2.0 * PI * (f0 * t + 0.5 * rate * t * t);
        let base = Complex::new(0.0, phase).exp();
        let sample = base.powc(Complex::new(1.0, decay * t));
        let twiddle = Complex::new(0.0, -2.0 * PI * (k * i) as f64 / n as f64).exp();
        acc += sample * twiddle;
    }
    acc.norm_sqr() / n as f64
}

#[test]
fn biquad_and_chirp_in_every_mode() {
    check_modes!(
        bind(biquad_response {}, (Wrt, 0.7)),
        |c: &[f64]| biquad_response(c, 0.7),
        [0.2, 0.4, 0.2, -0.5, 0.3]
    );
    check_modes!(chirp_bin_power {}, chirp_bin_power, [2.5, 1.2, 0.05]);
}

// ---------------------------------------------------------------------------------------
// ndarray: an MLP and a layer norm.

/// A two-layer MLP's mean squared error on a small batch: weights unpacked from the
/// flat parameter vector with `Array2::from_shape_fn`, `dot`, the bias broadcast over
/// the batch's rows, `mapv` for tanh, the error summed with `sum_axis`.
#[derive_frule]
fn mlp_loss(theta: &[f64]) -> f64 {
    let (n_in, n_hid) = (3, 4);
    let x = Array2::from_shape_fn((5, n_in), |(i, j)| ((i * n_in + j) as f64 * 0.37).sin());
    let y = Array1::from_shape_fn(5, |i| (i as f64 * 0.5).cos());
    let w1 = Array2::from_shape_fn((n_in, n_hid), |(i, j)| theta[i * n_hid + j]);
    let b1 = Array1::from_shape_fn(n_hid, |j| theta[n_in * n_hid + j]);
    let w2 = Array1::from_shape_fn(n_hid, |j| theta[n_in * n_hid + n_hid + j]);
    let b2 = theta[n_in * n_hid + 2 * n_hid];
    let h = (x.dot(&w1) + &b1).mapv(f64::tanh);
    let out = h.dot(&w2) + b2;
    let err = (&out - &y).mapv(|e| e * e);
    err.sum_axis(Axis(0)).into_scalar() / 5.0
}

/// Layer normalisation of each row of a 2×4 activation (mean and variance per row by
/// `axis_iter`), then a weighted readout.
#[derive_frule]
fn layer_norm_readout(a: &[f64]) -> f64 {
    let x = Array2::from_shape_vec((2, 4), a.to_vec()).unwrap();
    let w = Array1::from_vec(vec![0.5, -1.0, 2.0, 0.3]);
    let mut out = 0.0;
    for row in x.axis_iter(Axis(0)) {
        let mean = row.sum() / 4.0;
        let var = row.mapv(|v| (v - mean).powi(2)).sum() / 4.0;
        let normed = row.mapv(|v| (v - mean) / (var + 1e-5).sqrt());
        out += normed.dot(&w);
    }
    let col_means = x.sum_axis(Axis(0)) / 2.0;
    out + col_means.mapv(|v| v * v).sum()
}

/// Single-head scaled dot-product attention over three tokens of width 2: scores
/// `Q Kᵀ / √d`, a softmax along each row written through `rows_mut`, then `· V`; the
/// output's weighted sum. The queries are the parameters.
#[derive_frule]
fn attention_readout(q: &[f64]) -> f64 {
    let q = Array2::from_shape_vec((3, 2), q.to_vec()).unwrap();
    let k = Array2::from_shape_fn((3, 2), |(i, j)| ((i + 2 * j) as f64 * 0.4).sin());
    let v = Array2::from_shape_fn((3, 2), |(i, j)| ((2 * i + j) as f64 * 0.3).cos());
    let mut scores = q.dot(&k.t()) / (2.0f64).sqrt();
    for mut row in scores.rows_mut() {
        let m = row.fold(f64::NEG_INFINITY, |m, &x| m.max(x));
        row.mapv_inplace(|x| (x - m).exp());
        let z = row.sum();
        row /= z;
    }
    let out = scores.dot(&v);
    out[[0, 0]] + 2.0 * out[[1, 1]] - out[[2, 0]]
}

/// Batch normalisation of a 4×3 batch with the statistics over the batch
/// (`mean_axis`, `var_axis`) broadcast back over its rows, then a scale-and-shift and a
/// squared readout.
#[derive_frule]
fn batch_norm_loss(x: &[f64]) -> f64 {
    let x = Array2::from_shape_vec((4, 3), x.to_vec()).unwrap();
    let mean = x.mean_axis(Axis(0)).unwrap();
    let var = x.var_axis(Axis(0), 0.0);
    let gamma = Array1::from_vec(vec![1.0, 0.5, 2.0]);
    let normed = (&x - &mean) / var.mapv(|v| (v + 1e-5).sqrt());
    let y = &normed * &gamma + 0.1;
    y.mapv(|v| v * v).sum() + y[[0, 2]]
}

#[test]
fn attention_and_batch_norm_in_every_mode() {
    check_modes!(
        attention_readout {},
        attention_readout,
        [0.3, -0.2, 0.8, 0.1, -0.5, 0.4]
    );
    let x: Vec<f64> = (0..12).map(|i| ((i * 7) as f64 * 0.13).sin()).collect();
    check_modes!(batch_norm_loss {}, batch_norm_loss, x);
}

#[test]
fn mlp_and_layer_norm_in_every_mode() {
    let theta: Vec<f64> = (0..21).map(|i| ((i as f64) * 0.7).sin() * 0.5).collect();
    check_modes!(mlp_loss {}, mlp_loss, theta);
    check_modes!(
        layer_norm_readout {},
        layer_norm_readout,
        [0.1, 0.5, -0.3, 0.9, 1.2, -0.4, 0.2, 0.0]
    );
}
