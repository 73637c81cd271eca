//! nalgebra as roboticists and estimation engineers write it, annotated unmodified: a
//! roll-pitch-yaw arm composed of `Isometry3`s, a damped-least-squares IK step through
//! `try_inverse`, a Gaussian-process mean through `cholesky().solve`, a spring chain's
//! compliance through `lu().solve`, the smallest eigenvalue of a symmetric matrix, a
//! Kalman filter step on `SMatrix`, a least-squares fit on `DMatrix`, and rows normalised
//! or centred in place with `row_iter_mut` / `column_iter_mut`.
//! Each in one direction, in batches (`gradient_with::<4>`) and at second order
//! (`hessian_with::<2>`) against central differences or closed forms; primals bit for bit.
//!
//! Run with `cargo test --features nalgebra --test reach_apps_nalgebra_users`.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use fwdad::prelude::*;
use nalgebra::{
    DMatrix, DVector, Isometry3, Matrix2, Matrix3, Point3, SMatrix, SVector, Translation3,
    UnitQuaternion, Vector2, Vector3,
};

/// Tool point of a three-link arm whose joints each turn about a tilted axis: link `i`
/// is 30 cm along z, rotated by roll `q_i`, pitch `q_i / 2`.
#[derive_frule]
fn tool_point(q: &[f64]) -> Point3<f64> {
    let link = Vector3::new(0.0, 0.0, 0.3);
    let mut pose = Isometry3::identity();
    for i in 0..3 {
        let rot = UnitQuaternion::from_euler_angles(q[i], 0.5 * q[i], 0.0);
        pose *= Isometry3::from_parts(Translation3::from(link), rot);
    }
    pose * Point3::origin()
}

/// The tool point's distance to a target, the cost an IK solver descends.
#[derive_frule]
fn reach_error(q: &[f64]) -> f64 {
    let tip = tool_point(q);
    (tip - Point3::new(0.2, -0.1, 0.7)).norm()
}

#[test]
fn euler_angle_arm_in_every_mode() {
    let q = [0.3, -0.5, 0.8];
    let (p, j) = fwdad::jacobian(tool_point {}, &q);
    let tip = tool_point(&q);
    for i in 0..3 {
        assert_eq!(p[i].to_bits(), tip[i].to_bits(), "primal");
    }
    let h = 1e-6;
    for k in 0..3 {
        let (mut a, mut b) = (q, q);
        a[k] += h;
        b[k] -= h;
        let d = (tool_point(&a) - tool_point(&b)) / (2.0 * h);
        for i in 0..3 {
            common::modes::assert_close(j[(i, k)], d[i], 1e-7, &format!("J[{i},{k}]"));
        }
    }
    check_modes!(reach_error {}, reach_error, q);
}

/// One damped-least-squares step `Δq = (JᵀJ + λ²I)⁻¹ Jᵀ e` of a planar two-joint
/// Jacobian (entries by rows) towards the task error `e`: the step's length.
#[derive_frule]
fn dls_step_length(j: &[f64], lambda: f64) -> f64 {
    let jac = Matrix2::new(j[0], j[1], j[2], j[3]);
    let e = Vector2::new(0.1, -0.2);
    let damped = jac.transpose() * jac + Matrix2::identity() * (lambda * lambda);
    let inv = damped
        .try_inverse()
        .expect("damped normal matrix is invertible");
    let dq = inv * jac.transpose() * e;
    dq.norm()
}

#[test]
fn damped_least_squares_through_try_inverse() {
    check_modes!(
        bind(dls_step_length {}, (Wrt, 0.3)),
        |x: &[f64]| dls_step_length(x, 0.3),
        [1.0, 0.4, -0.2, 0.8]
    );
}

/// Posterior mean at 0.3 of a Gaussian process with a squared-exponential kernel of
/// length `ell` and noise 0.1 on the diagonal, through `x` observing `sin(i)`.
#[derive_frule]
fn gp_posterior_mean(x: &[f64], ell: f64) -> f64 {
    let n = x.len();
    let k = DMatrix::from_fn(n, n, |i, j| {
        let d = x[i] - x[j];
        (-0.5 * d * d / (ell * ell)).exp() + if i == j { 0.1 } else { 0.0 }
    });
    let y = DVector::from_fn(n, |i, _| (i as f64).sin());
    let alpha = k.cholesky().expect("kernel matrix is SPD").solve(&y);
    let k_star = DVector::from_fn(n, |i, _| (-0.5 * (x[i] - 0.3).powi(2) / (ell * ell)).exp());
    k_star.dot(&alpha)
}

#[test]
fn gaussian_process_mean_through_cholesky_solve() {
    check_modes!(
        bind(gp_posterior_mean {}, (Wrt, 0.7)),
        |x: &[f64]| gp_posterior_mean(x, 0.7),
        [0.1, 0.5, 1.2, -0.4]
    );
}

/// Compliance `fᵀu` of three springs in series (`k[0]` to the wall), a unit load on the
/// free end: the stiffness system solved by LU.
#[derive_frule]
fn chain_compliance(k: &[f64]) -> f64 {
    #[rustfmt::skip]
    let stiffness = Matrix3::new(
        k[0] + k[1], -k[1], 0.0,
        -k[1], k[1] + k[2], -k[2],
        0.0, -k[2], k[2],
    );
    let f = Vector3::new(0.0, 0.0, 1.0);
    let u = stiffness
        .lu()
        .solve(&f)
        .expect("a spring chain fixed at the wall");
    f.dot(&u)
}

#[test]
fn spring_chain_compliance_is_the_series_formula() {
    let k = [2.0, 1.5, 3.0];
    // Springs in series: C = Σ 1/kᵢ, ∂C/∂kᵢ = −1/kᵢ², ∂²C/∂kᵢ² = 2/kᵢ³.
    let (c, g) = fwdad::gradient_with::<4>(chain_compliance {}, &k);
    assert_eq!(c.to_bits(), chain_compliance(&k).to_bits());
    assert!((c - k.iter().map(|v| 1.0 / v).sum::<f64>()).abs() < 1e-14);
    let (_, _, h) = fwdad::hessian_with::<2>(chain_compliance {}, &k);
    for i in 0..3 {
        assert!((g[i] + 1.0 / (k[i] * k[i])).abs() < 1e-13, "∂C/∂k{i}");
        for j in 0..3 {
            let want = if i == j { 2.0 / k[i].powi(3) } else { 0.0 };
            assert!((h[(i, j)] - want).abs() < 1e-12, "H[{i},{j}]");
        }
    }
    check_modes!(chain_compliance {}, chain_compliance, k);
}

/// The smallest principal moment of a symmetric 3×3 tensor with three free entries.
#[derive_frule]
fn smallest_moment(x: &[f64]) -> f64 {
    let m = Matrix3::new(x[0], x[1], 0.0, x[1], x[2], 0.1, 0.0, 0.1, 2.0);
    let eig = m.symmetric_eigen();
    eig.eigenvalues.min()
}

#[test]
fn smallest_eigenvalue_has_the_eigenvector_derivative() {
    let x = [1.0, 0.3, 1.5];
    let m = Matrix3::new(x[0], x[1], 0.0, x[1], x[2], 0.1, 0.0, 0.1, 2.0);
    let eig = m.symmetric_eigen();
    let k = eig.eigenvalues.imin();
    let v = eig.eigenvectors.column(k);
    // A simple eigenvalue moves by vᵀ dA v: dλ/dx₀ = v₀², dλ/dx₁ = 2 v₀ v₁, dλ/dx₂ = v₁².
    let want = [v[0] * v[0], 2.0 * v[0] * v[1], v[1] * v[1]];
    let (l, g) = fwdad::gradient_with::<4>(smallest_moment {}, &x);
    assert_eq!(l.to_bits(), smallest_moment(&x).to_bits());
    for i in 0..3 {
        assert!(
            (g[i] - want[i]).abs() < 1e-10,
            "∂λ/∂x{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    check_modes!(smallest_moment {}, smallest_moment, x);
}

/// One constant-velocity Kalman step on `[px, py, vx, vy]` with a position fix: the
/// normalised innovation squared plus the updated state's squared norm, as a tuning
/// objective of the prior mean.
#[derive_frule]
fn kalman_step_cost(prior: &[f64]) -> f64 {
    let x = SVector::<f64, 4>::new(prior[0], prior[1], prior[2], prior[3]);
    let dt = 0.1;
    #[rustfmt::skip]
    let f = SMatrix::<f64, 4, 4>::new(
        1.0, 0.0, dt, 0.0,
        0.0, 1.0, 0.0, dt,
        0.0, 0.0, 1.0, 0.0,
        0.0, 0.0, 0.0, 1.0,
    );
    let h = SMatrix::<f64, 2, 4>::new(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    let p = SMatrix::<f64, 4, 4>::identity() * 0.5;
    let q = SMatrix::<f64, 4, 4>::identity() * 0.01;
    let r = SMatrix::<f64, 2, 2>::identity() * 0.2;
    let x_pred = f * x;
    let p_pred = f * p * f.transpose() + q;
    let z = SVector::<f64, 2>::new(1.0, 0.5);
    let innovation = z - h * x_pred;
    let s = h * p_pred * h.transpose() + r;
    let s_inv = s.try_inverse().expect("innovation covariance is SPD");
    let gain = p_pred * h.transpose() * s_inv;
    let x_upd = x_pred + gain * innovation;
    innovation.dot(&(s_inv * innovation)) + x_upd.norm_squared()
}

#[test]
fn kalman_step_on_smatrix() {
    check_modes!(kalman_step_cost {}, kalman_step_cost, [0.2, -0.1, 0.5, 0.3]);
}

/// Residual of the straight-line least-squares fit `c₀ + c₁ (p₀ i)` to `cos(p₁ i)`,
/// `i = 0..6`, through the normal equations.
#[derive_frule]
fn line_fit_residual(p: &[f64]) -> f64 {
    let m = 6;
    let a = DMatrix::from_fn(m, 2, |i, j| if j == 0 { 1.0 } else { i as f64 * p[0] });
    let b = DVector::from_fn(m, |i, _| (i as f64 * p[1]).cos());
    let ata = a.transpose() * &a;
    let atb = a.transpose() * &b;
    let coef = ata.lu().solve(&atb).expect("two independent columns");
    let r = &a * &coef - &b;
    r.norm_squared()
}

#[test]
fn least_squares_fit_on_dmatrix() {
    check_modes!(line_fit_residual {}, line_fit_residual, [0.8, 0.6]);
}

/// Two direction vectors (stored by rows) made unit length in place, then read back.
#[derive_frule]
fn unit_rows(x: &[f64]) -> f64 {
    let mut dirs = DMatrix::from_row_slice(2, 3, x);
    for mut row in dirs.row_iter_mut() {
        let n = row.norm();
        row /= n;
    }
    dirs[(0, 1)] + 2.0 * dirs[(1, 2)]
}

/// Columns of a 3×3 matrix centred in place, the result's squared Frobenius norm.
#[derive_frule]
fn centred_columns(x: &[f64]) -> f64 {
    let mut m = Matrix3::new(x[0], x[1], x[2], x[3], x[4], x[5], 1.0, 2.0, 3.0);
    for mut col in m.column_iter_mut() {
        let mean = col.mean();
        col.add_scalar_mut(-mean);
    }
    m.norm_squared()
}

/// Rows and columns read through their views.
#[derive_frule]
fn row_and_column_stats(x: &[f64]) -> f64 {
    let m = DMatrix::from_row_slice(2, 3, x);
    let mut s = 0.0;
    for row in m.row_iter() {
        s += row.norm() * row[1];
    }
    for col in m.column_iter() {
        s += col.sum().sin();
    }
    s
}

#[test]
fn rows_and_columns_updated_in_place() {
    let x: [f64; 6] = [1.0, 0.3, 1.5, -0.4, 0.7, 0.2];
    // Closed form of `unit_rows`: x₁/|r₀| + 2 x₅/|r₁|.
    let (n0, n1) = (
        (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt(),
        (x[3] * x[3] + x[4] * x[4] + x[5] * x[5]).sqrt(),
    );
    let (v, g) = fwdad::gradient_with::<4>(unit_rows {}, &x);
    assert_eq!(v.to_bits(), unit_rows(&x).to_bits());
    assert!((v - (x[1] / n0 + 2.0 * x[5] / n1)).abs() < 1e-14);
    let want = [
        -x[1] * x[0] / n0.powi(3),
        1.0 / n0 - x[1] * x[1] / n0.powi(3),
        -x[1] * x[2] / n0.powi(3),
        -2.0 * x[5] * x[3] / n1.powi(3),
        -2.0 * x[5] * x[4] / n1.powi(3),
        2.0 / n1 - 2.0 * x[5] * x[5] / n1.powi(3),
    ];
    for i in 0..6 {
        assert!(
            (g[i] - want[i]).abs() < 1e-13,
            "∂{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    check_modes!(unit_rows {}, unit_rows, x);
    check_modes!(centred_columns {}, centred_columns, x);
    check_modes!(row_and_column_stats {}, row_and_column_stats, x);
}

/// A commanded twist's three joint rates, each softly saturated at
/// `limit` in place, then the kinetic energy of the saturated rates.
#[derive_frule]
fn saturated_energy(qd: &[f64], limit: f64) -> f64 {
    let mut rates = Vector3::new(qd[0], qd[1], qd[2]);
    for r in rates.iter_mut() {
        *r = limit * (*r / limit).tanh();
    }
    0.5 * rates.norm_squared()
}

#[test]
fn elements_written_through_iter_mut() {
    let qd: [f64; 3] = [0.4, -1.3, 2.0];
    let limit = 1.5;
    // ∂/∂q̇ᵢ of ½ Σ (L tanh(q̇ᵢ/L))² = L tanh(q̇ᵢ/L) (1 − tanh²(q̇ᵢ/L)).
    let (v, g) = fwdad::gradient_with::<4>(bind(saturated_energy {}, (Wrt, limit)), &qd);
    assert_eq!(v.to_bits(), saturated_energy(&qd, limit).to_bits());
    for i in 0..3 {
        let t = (qd[i] / limit).tanh();
        assert!((g[i] - limit * t * (1.0 - t * t)).abs() < 1e-14, "∂{i}");
    }
    check_modes!(
        bind(saturated_energy {}, (Wrt, limit)),
        |x: &[f64]| saturated_energy(x, limit),
        qd
    );
}

/// The first of two stored directions made unit length through its row view, bound by
/// `let`: `r /= n` writes the matrix.
#[derive_frule]
fn first_row_unit(x: &[f64]) -> f64 {
    let mut m = DMatrix::from_row_slice(2, 3, x);
    let mut r = m.row_mut(0);
    let n = r.norm();
    r /= n;
    m[(0, 1)] + m[(1, 1)]
}

#[test]
fn a_row_view_bound_by_let_writes_the_matrix() {
    let x: [f64; 6] = [0.3, -0.7, 1.2, 0.5, 0.1, -0.4];
    let n = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
    // x₁/|r₀| + x₄.
    assert!((first_row_unit(&x) - (x[1] / n + x[4])).abs() < 1e-15);
    let (v, g) = fwdad::gradient_with::<4>(first_row_unit {}, &x);
    assert_eq!(v.to_bits(), first_row_unit(&x).to_bits());
    let want = [
        -x[1] * x[0] / n.powi(3),
        1.0 / n - x[1] * x[1] / n.powi(3),
        -x[1] * x[2] / n.powi(3),
        0.0,
        1.0,
        0.0,
    ];
    for i in 0..6 {
        assert!(
            (g[i] - want[i]).abs() < 1e-14,
            "∂{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    check_modes!(first_row_unit {}, first_row_unit, x);
}

/// The squared projections of the state on three fixed directions, which the body first
/// normalises in place (constant data: no derivative flows through the directions).
#[derive_frule]
fn projected_energy(x: &[f64]) -> f64 {
    let mut dirs = Matrix3::new(1.0, 2.0, 2.0, 0.0, 3.0, 4.0, 1.0, 0.0, 0.0);
    for mut row in dirs.row_iter_mut() {
        let n = row.norm();
        row /= n;
    }
    let v = Vector3::new(x[0], x[1], x[2]);
    (dirs * v).norm_squared()
}

#[test]
fn constant_rows_normalised_in_place() {
    let x: [f64; 3] = [0.4, -1.3, 2.0];
    // D has the unit rows (1, 2, 2)/3, (0, 3, 4)/5, (1, 0, 0): the energy is |D x|², its
    // gradient 2 Dᵀ D x.
    let d = Matrix3::new(
        1.0 / 3.0,
        2.0 / 3.0,
        2.0 / 3.0,
        0.0,
        0.6,
        0.8,
        1.0,
        0.0,
        0.0,
    );
    let xv = Vector3::new(x[0], x[1], x[2]);
    let want = 2.0 * d.transpose() * d * xv;
    let (v, g) = fwdad::gradient_with::<4>(projected_energy {}, &x);
    assert_eq!(v.to_bits(), projected_energy(&x).to_bits());
    assert!((v - (d * xv).norm_squared()).abs() < 1e-13);
    for i in 0..3 {
        assert!(
            (g[i] - want[i]).abs() < 1e-13,
            "∂{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    check_modes!(projected_energy {}, projected_energy, x);
}
