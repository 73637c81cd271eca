//! Programs over nalgebra, glam, num-complex, ndarray and generic floats as their users
//! write them, annotated unmodified: a robot arm's forward kinematics through
//! `Isometry3`/`UnitQuaternion`/`Rotation3`, a polynomial least-squares fit with
//! `DMatrix`/`DVector` (normal equations by `lu().solve`), a Kalman update with `Matrix4`,
//! `SMatrix` and `try_inverse`, a glam camera (`look_at_rh`, `perspective_rh`,
//! `project_point3`) and a ray-sphere intersection, an AC circuit's impedance, a DFT over
//! `Vec<Complex64>` and a second-order filter's |H(jω)|, `T: Float` code (`FloatConst`,
//! `T::from(2.0).unwrap()`, `T::epsilon()`), `T: RealField` nalgebra code called at
//! `f64`, and ndarray dot products and `mapv`; then the drivers at `f32` points
//! (`derivative_f32`, `gradient_f32`, `jacobian_f32`).
//!
//! Each in one direction, in batches and at second order against central differences of
//! the plain function (`check_modes!`) or against closed forms; primals bit for bit.
//!
//! Run with `cargo test --features nalgebra,num-complex,glam,ndarray --test derive_libs6`.
#![allow(
    clippy::needless_range_loop,
    clippy::assign_op_pattern,
    clippy::manual_unwrap_or
)]

#[macro_use]
mod common;

use std::f64::consts::PI;

use fwdad::prelude::*;
use glam::{DMat4, DQuat, DVec3};
use nalgebra::{
    DMatrix, DVector, Isometry3, Matrix2, Matrix4, Point3, RealField, Rotation3, SMatrix,
    Translation3, UnitQuaternion, Vector2, Vector3, Vector4,
};
use ndarray::{Array1, Array2};
use num_complex::Complex64;
use num_traits::{Float, FloatConst};

// ---------------------------------------------------------------------------------------
// Robotics: forward kinematics of a 4-joint arm (yaw, two pitches, a wrist roll).

/// Link lengths of the arm, in metres.
const LINKS: [f64; 3] = [0.30, 0.25, 0.12];

/// The pose of the tool: a yaw joint at the base (`Rotation3`), two pitch joints
/// (`UnitQuaternion::from_axis_angle`), a wrist roll (`from_euler_angles`), each link an
/// `Isometry3` from a translation and a rotation, composed by `*`.
#[derive_frule]
fn tool_pose(q: &[f64]) -> Isometry3<f64> {
    let base = Rotation3::from_axis_angle(&Vector3::z_axis(), q[0]);
    let mut pose = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 0.1),
        UnitQuaternion::from_rotation_matrix(&base),
    );
    for i in 0..2 {
        let joint = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), q[i + 1]);
        let link = Isometry3::from_parts(Translation3::new(LINKS[i], 0.0, 0.0), joint);
        pose = pose * link;
    }
    let wrist = Isometry3::from_parts(
        Translation3::new(LINKS[2], 0.0, 0.0),
        UnitQuaternion::from_euler_angles(q[3], 0.0, 0.0),
    );
    pose * wrist
}

/// A reaching cost: the squared distance of the tool's tip (5 cm along its x) to a target,
/// plus how far the tool's z axis is from pointing down.
#[derive_frule]
fn reach_cost(q: &[f64]) -> f64 {
    let pose = tool_pose(q);
    let tip = pose * Point3::new(0.05, 0.0, 0.0);
    let target = Point3::new(0.35, 0.2, 0.25);
    let approach = pose.rotation * Vector3::z();
    (tip - target).norm_squared() + 0.1 * (1.0 + approach.dot(&Vector3::z()))
}

#[test]
fn arm_forward_kinematics() {
    check_modes!(reach_cost {}, reach_cost, [0.4, -0.3, 0.8, 0.2]);
}

/// The tip's position in the world, the Jacobian of which a resolved-rate controller
/// inverts: checked against the closed-form geometric Jacobian of the yaw joint
/// (`ẑ × p` for the base's axis through the origin).
#[derive_frule]
fn tip_position(q: &[f64]) -> [f64; 3] {
    let tip = tool_pose(q).transform_point(&Point3::origin());
    [tip.x, tip.y, tip.z]
}

#[test]
fn arm_jacobian_yaw_column_is_z_cross_p() {
    let q = [0.4, -0.3, 0.8, 0.2];
    let (p, j) = jacobian(tip_position {}, &q);
    let plain = tip_position(&q);
    for i in 0..3 {
        assert_eq!(p[i].to_bits(), plain[i].to_bits());
    }
    // d p / d q0 = z × p (the yaw axis passes through the origin).
    let want = [-p[1], p[0], 0.0];
    for i in 0..3 {
        assert!((j[(i, 0)] - want[i]).abs() < 1e-14, "row {i}");
    }
}

// ---------------------------------------------------------------------------------------
// Least squares: a quadratic fitted to samples by the normal equations.

/// The fitted quadratic's curvature `2 c₂` through samples `y` at `t = 0, 0.5, 1, ..`:
/// the design matrix from `DMatrix::from_fn`, `AᵀA c = Aᵀy` solved by LU, and the
/// residual's `norm_squared`.
#[derive_frule]
fn curvature_fit(y: &[f64]) -> f64 {
    let n = y.len();
    let a = DMatrix::from_fn(n, 3, |i, j| (0.5 * i as f64).powi(j as i32));
    let b = DVector::from_column_slice(y);
    let ata = a.transpose() * &a;
    let atb = a.transpose() * &b;
    let c = ata.lu().solve(&atb).expect("full-rank design");
    let residual = &a * &c - &b;
    2.0 * c[2] + 0.01 * residual.norm_squared()
}

#[test]
fn least_squares_by_normal_equations() {
    let y = [1.0, 1.3, 2.1, 3.2, 4.9, 6.8];
    check_modes!(curvature_fit {}, curvature_fit, y);
}

/// The fit is linear in `y`: the gradient of `2 c₂` alone is row 2 of `2 (AᵀA)⁻¹Aᵀ`,
/// computed here in plain `f64` with nalgebra.
#[derive_frule]
fn curvature_only(y: &[f64]) -> f64 {
    let n = y.len();
    let a = DMatrix::from_fn(n, 3, |i, j| (0.5 * i as f64).powi(j as i32));
    let b = DVector::from_column_slice(y);
    let c = (a.transpose() * &a)
        .lu()
        .solve(&(a.transpose() * b))
        .unwrap();
    2.0 * c[2]
}

#[test]
fn least_squares_gradient_is_the_pseudo_inverse_row() {
    let y = [1.0, 1.3, 2.1, 3.2, 4.9, 6.8];
    let (v, g) = gradient(curvature_only {}, &y);
    assert_eq!(v.to_bits(), curvature_only(&y).to_bits());
    let a = DMatrix::from_fn(6, 3, |i, j| (0.5 * i as f64).powi(j as i32));
    let pinv = (a.transpose() * &a).try_inverse().unwrap() * a.transpose();
    for k in 0..6 {
        assert!((g[k] - 2.0 * pinv[(2, k)]).abs() < 1e-10, "d/dy{k}");
    }
}

// ---------------------------------------------------------------------------------------
// A Kalman filter's measurement update (constant velocity in the plane).

/// The filter's state after one position fix `z` with measurement noise `r`: the
/// innovation covariance `S = H P Hᵀ + R` inverted by `try_inverse`, the gain
/// `K = P Hᵀ S⁻¹`, the state `x + K (z − H x)` and the covariance `(I − K H) P`; returns the
/// updated velocity's speed plus the covariance's trace.
#[derive_frule]
fn kalman_update(p: &[f64]) -> f64 {
    let (z, r) = (Vector2::new(p[0], p[1]), p[2]);
    let x = Vector4::new(0.0, 0.0, 1.0, 0.5);
    let cov = Matrix4::new(
        0.5, 0.0, 0.1, 0.0, //
        0.0, 0.5, 0.0, 0.1, //
        0.1, 0.0, 0.3, 0.0, //
        0.0, 0.1, 0.0, 0.3,
    );
    let h = SMatrix::<f64, 2, 4>::new(
        1.0, 0.0, 0.0, 0.0, //
        0.0, 1.0, 0.0, 0.0,
    );
    let s = h * cov * h.transpose() + Matrix2::identity() * r;
    let s_inv = s.try_inverse().unwrap();
    let k = cov * h.transpose() * s_inv;
    let x_new = x + k * (z - h * x);
    let cov_new = (Matrix4::identity() - k * h) * cov;
    x_new.fixed_rows::<2>(2).norm() + cov_new.trace()
}

#[test]
fn kalman_measurement_update() {
    check_modes!(kalman_update {}, kalman_update, [0.3, -0.2, 0.25]);
}

// ---------------------------------------------------------------------------------------
// glam: a camera orbiting a point, and a ray-sphere intersection.

/// Where a landmark lands on screen (NDC x plus y) for a camera orbiting the origin at
/// `angle` and `height`, looking at it: `DQuat::from_rotation_y` turns the eye,
/// `DMat4::look_at_rh` and `perspective_rh` build the view-projection, `project_point3`
/// divides by w.
#[derive_frule]
fn orbit_ndc(p: &[f64]) -> f64 {
    let (angle, height, fov) = (p[0], p[1], p[2]);
    let eye = DQuat::from_rotation_y(angle) * DVec3::new(0.0, height, 5.0);
    let view = DMat4::look_at_rh(eye, DVec3::ZERO, DVec3::Y);
    let proj = DMat4::perspective_rh(fov, 16.0 / 9.0, 0.1, 100.0);
    let ndc = (proj * view).project_point3(DVec3::new(0.5, 0.25, -0.3));
    ndc.x + ndc.y
}

#[test]
fn orbit_camera_projection() {
    check_modes!(orbit_ndc {}, orbit_ndc, [0.3, 1.5, 0.9]);
}

/// The distance along a ray (unit `dir`) to the nearest hit on a sphere, or `None`.
#[derive_frule]
fn ray_sphere(origin: DVec3, dir: DVec3, center: DVec3, radius: f64) -> Option<f64> {
    let oc = origin - center;
    let b = oc.dot(dir);
    let c = oc.length_squared() - radius * radius;
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    if t > 0.0 {
        Some(t)
    } else {
        None
    }
}

/// The hit distance of a ray from `(0, 0, 5)` aimed by two angles at a sphere of radius
/// `p[2]` at the origin, `f64::INFINITY` on a miss (what a shadow test compares).
#[derive_frule]
fn hit_distance(p: &[f64]) -> f64 {
    let dir = DVec3::new(p[0].sin(), p[1].sin(), -1.0).normalize();
    match ray_sphere(DVec3::new(0.0, 0.0, 5.0), dir, DVec3::ZERO, p[2]) {
        Some(t) => t,
        None => f64::INFINITY,
    }
}

#[test]
fn ray_sphere_hit_distance() {
    let p = [0.05, -0.08, 1.2];
    check_modes!(hit_distance {}, hit_distance, p);
    // On the axis the hit is at 5 - r: d t / d r = -1.
    let (t, d) = derivative(bind(hit_distance_axis {}, (Wrt,)), 1.2);
    assert_eq!(t.to_bits(), hit_distance_axis(1.2).to_bits());
    assert!((d + 1.0).abs() < 1e-15);
}

#[derive_frule]
fn hit_distance_axis(r: f64) -> f64 {
    ray_sphere(DVec3::new(0.0, 0.0, 5.0), DVec3::NEG_Z, DVec3::ZERO, r).unwrap_or(f64::INFINITY)
}

// ---------------------------------------------------------------------------------------
// num-complex: an AC circuit, a DFT and a transfer function.

/// The magnitude of the impedance of a resistor in series with an inductor and a
/// capacitor in parallel, at angular frequency `w`: `Z = R + (jωL ∥ 1/(jωC))`.
#[derive_frule]
fn impedance(r: f64, l: f64, c: f64, w: f64) -> f64 {
    let j = Complex64::i();
    let zl = j * w * l;
    let zc = 1.0 / (j * w * c);
    let z = Complex64::new(r, 0.0) + zl * zc / (zl + zc);
    z.norm()
}

/// The same in the units a bench engineer reads them in: ohms, millihenries, microfarads
/// and kilo-radians per second.
#[derive_frule]
fn impedance_of(p: &[f64]) -> f64 {
    impedance(p[0], p[1] * 1e-3, p[2] * 1e-6, p[3] * 1e3)
}

#[test]
fn ac_circuit_impedance() {
    let p = [50.0, 1.0, 2.0, 15.0];
    check_first_order!(impedance_of {}, impedance_of, p);
    let (r, l, c, w) = (p[0], p[1] * 1e-3, p[2] * 1e-6, p[3] * 1e3);
    // Closed form: Z = R + jωL / (1 − ω²LC), |Z| = √(R² + X²).
    let x = w * l / (1.0 - w * w * l * c);
    let (z, dz) = derivative(bind(impedance {}, (Wrt, l, c, w)), r);
    assert_eq!(z.to_bits(), impedance(r, l, c, w).to_bits());
    assert!((dz - r / (r * r + x * x).sqrt()).abs() < 1e-14);
}

/// The power in bin `k` of a real signal's DFT: the signal lifted to `Vec<Complex64>`,
/// the twiddles by `Complex64::from_polar`, the bin's `norm_sqr`.
#[derive_frule]
fn dft_bin_power(x: &[f64], k: usize) -> f64 {
    let n = x.len();
    let signal: Vec<Complex64> = x.iter().map(|&v| Complex64::new(v, 0.0)).collect();
    let mut bin = Complex64::new(0.0, 0.0);
    for (i, s) in signal.iter().enumerate() {
        let phase = -2.0 * PI * (k * i) as f64 / n as f64;
        bin += s * Complex64::from_polar(1.0, phase);
    }
    bin.norm_sqr()
}

#[test]
fn dft_bin_power_gradient() {
    let x = [0.3, 1.0, -0.4, 0.8, 0.1, -0.9, 0.5, 0.2];
    let k = 2;
    check_modes!(
        bind(dft_bin_power {}, (Wrt, k)),
        |v: &[f64]| dft_bin_power(v, k),
        x
    );
    // Closed form: |X_k|² = (Σ xᵢ cos θᵢ)² + (Σ xᵢ sin θᵢ)², θᵢ = 2πki/n.
    let n = x.len() as f64;
    let (re, im) = x.iter().enumerate().fold((0.0, 0.0), |(a, b), (i, v)| {
        let th = 2.0 * PI * (k * i) as f64 / n;
        (a + v * th.cos(), b - v * th.sin())
    });
    let (_, g) = gradient(bind(dft_bin_power {}, (Wrt, k)), &x);
    for i in 0..x.len() {
        let th = 2.0 * PI * (k * i) as f64 / n;
        let want = 2.0 * (re * th.cos() - im * th.sin());
        assert!((g[i] - want).abs() < 1e-12, "d/dx{i}");
    }
}

/// The gain in dB of a second-order low-pass `H(s) = ω₀² / (s² + 2ζω₀s + ω₀²)` at
/// `s = jω`.
#[derive_frule]
fn lowpass_gain_db(w0: f64, zeta: f64, w: f64) -> f64 {
    let s = Complex64::new(0.0, w);
    let h = w0 * w0 / (s * s + 2.0 * zeta * w0 * s + w0 * w0);
    20.0 * h.norm().log10()
}

#[test]
fn transfer_function_gain() {
    let (w0, zeta, w) = (100.0, 0.3, 80.0);
    // |H|² = ω₀⁴ / ((ω₀² − ω²)² + (2ζω₀ω)²); d(dB)/dζ = −10/ln10 · 8ζω₀²ω² / D.
    let d = (w0 * w0 - w * w).powi(2) + (2.0 * zeta * w0 * w).powi(2);
    let (g, dg) = derivative(bind(lowpass_gain_db {}, (w0, Wrt, w)), zeta);
    assert_eq!(g.to_bits(), lowpass_gain_db(w0, zeta, w).to_bits());
    let want = -10.0 / std::f64::consts::LN_10 * 8.0 * zeta * w0 * w0 * w * w / d;
    assert!(
        (dg - want).abs() < 1e-12 * want.abs(),
        "{dg} against {want}"
    );
    // d(dB)/dω against central differences.
    let h = 1e-5;
    let fd = (lowpass_gain_db(w0, zeta, w + h) - lowpass_gain_db(w0, zeta, w - h)) / (2.0 * h);
    let (_, dw) = derivative(bind(lowpass_gain_db {}, (w0, zeta, Wrt)), w);
    assert!((dw - fd).abs() < 1e-7 * (1.0 + fd.abs()));
}

// ---------------------------------------------------------------------------------------
// Generic floats: num-traits `Float` and `FloatConst`, nalgebra's `RealField`.

/// GELU by its tanh approximation, over any float.
#[derive_frule]
fn gelu<T: Float + FloatConst>(x: T) -> T {
    let half = T::from(0.5).unwrap();
    let c = (T::from(2.0).unwrap() / T::PI()).sqrt();
    half * x * (T::one() + (c * (x + T::from(0.044715).unwrap() * x.powi(3))).tanh())
}

/// The Euclidean norm with an epsilon guard, over any float (`T::epsilon()`).
#[derive_frule]
fn safe_norm<T: Float>(v: &[T]) -> T {
    let mut s = T::zero();
    for &x in v {
        s = s + x * x;
    }
    (s + T::epsilon()).sqrt()
}

/// A square root by Newton's method to `T::epsilon()`, over any float.
#[derive_frule]
fn newton_sqrt<T: Float>(a: T) -> T {
    let two = T::from(2.0).unwrap();
    let mut x = if a > T::one() { a / two } else { T::one() };
    for _ in 0..60 {
        let next = (x + a / x) / two;
        if (next - x).abs() <= T::epsilon() * next {
            return next;
        }
        x = next;
    }
    x
}

#[test]
fn generic_float_functions_at_f64() {
    let x = 0.7_f64;
    let (y, dy) = derivative(gelu {}, x);
    assert_eq!(y.to_bits(), gelu(x).to_bits());
    let c = (2.0 / PI).sqrt();
    let u = c * (x + 0.044715 * x.powi(3));
    let want = 0.5 * (1.0 + u.tanh())
        + 0.5 * x * (1.0 - u.tanh().powi(2)) * c * (1.0 + 3.0 * 0.044715 * x * x);
    assert!((dy - want).abs() < 1e-15);

    let v = [3.0, -4.0, 12.0];
    let (n, g) = gradient(safe_norm {}, &v);
    assert_eq!(n.to_bits(), safe_norm(&v).to_bits());
    for i in 0..3 {
        assert!((g[i] - v[i] / n).abs() < 1e-16);
    }

    let (r, dr) = derivative(newton_sqrt {}, 2.0);
    assert_eq!(r.to_bits(), newton_sqrt(2.0_f64).to_bits());
    assert!((dr - 0.5 / 2f64.sqrt()).abs() < 1e-15);
}

/// A spring's energy between two points, over nalgebra's `RealField`.
#[derive_frule]
fn spring_energy<T: RealField + Copy>(a: &Vector3<T>, b: &Vector3<T>, k: T, rest: T) -> T {
    let stretch = (a - b).norm() - rest;
    k * stretch * stretch / (T::one() + T::one())
}

/// A pendulum's Lagrangian `½ m l² θ̇² + m g l cos θ`, over `RealField`
/// (`T::from_f64`, `cos`).
#[derive_frule]
fn pendulum_lagrangian<T: RealField + Copy>(theta: T, omega: T, l: T) -> T {
    let m = T::from_f64(1.5).unwrap();
    let g = T::from_f64(9.81).unwrap();
    let half = T::from_f64(0.5).unwrap();
    half * m * l * l * omega * omega + m * g * l * theta.cos()
}

#[derive_frule]
fn springs_of(p: &[f64]) -> f64 {
    let a = Vector3::new(p[0], p[1], p[2]);
    let b = Vector3::new(1.0, 0.5, -0.2);
    spring_energy(&a, &b, 40.0, 0.8) + pendulum_lagrangian(p[3], p[4], 0.6)
}

#[test]
fn real_field_code_at_f64() {
    check_modes!(springs_of {}, springs_of, [0.2, 0.1, 0.3, 0.4, 1.2]);
    // ∂L/∂θ = −m g l sin θ (the bound literals typed: `T` is generic, see `bind`).
    let (_, d) = derivative(bind(pendulum_lagrangian {}, (Wrt, 1.2_f64, 0.6_f64)), 0.4);
    assert!((d + 1.5 * 9.81 * 0.6 * 0.4_f64.sin()).abs() < 1e-14);
}

// ---------------------------------------------------------------------------------------
// ndarray: a small network's output and a softmax cross-entropy.

/// A two-layer network's output: `W₁ x` by `dot`, `tanh` by `mapv`, then `w₂ · h`.
#[derive_frule]
fn tiny_net(x: &[f64]) -> f64 {
    let w1 = Array2::from_shape_vec((3, 2), vec![0.5, -0.3, 0.8, 0.1, -0.6, 0.4]).unwrap();
    let w2 = Array1::from_vec(vec![1.0, -0.5, 0.7]);
    let input = Array1::from_vec(x.to_vec());
    let h = w1.dot(&input).mapv(|z| z.tanh());
    w2.dot(&h)
}

#[test]
fn ndarray_network() {
    check_modes!(tiny_net {}, tiny_net, [0.4, -0.9]);
}

/// The cross-entropy of a softmax over logits `W x` against class 1.
#[derive_frule]
fn softmax_xent(x: &[f64]) -> f64 {
    let w = Array2::from_shape_vec((3, 3), vec![0.2, -0.1, 0.4, 0.5, 0.3, -0.2, -0.3, 0.6, 0.1])
        .unwrap();
    let logits = w.dot(&Array1::from_vec(x.to_vec()));
    let max = logits.fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    let exps = logits.mapv(|v| (v - max).exp());
    let total = exps.sum();
    -(exps[1] / total).ln()
}

#[test]
fn ndarray_softmax_cross_entropy() {
    let x = [0.8, -0.4, 1.1];
    check_modes!(softmax_xent {}, softmax_xent, x);
    // ∂/∂x = Wᵀ (softmax − e₁).
    let w = [[0.2, -0.1, 0.4], [0.5, 0.3, -0.2], [-0.3, 0.6, 0.1]];
    let z: Vec<f64> = (0..3)
        .map(|i| (0..3).map(|j| w[i][j] * x[j]).sum())
        .collect();
    let zmax = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|v| (v - zmax).exp()).collect();
    let s: f64 = e.iter().sum();
    let (_, g) = gradient(softmax_xent {}, &x);
    for j in 0..3 {
        let want: f64 = (0..3)
            .map(|i| w[i][j] * (e[i] / s - if i == 1 { 1.0 } else { 0.0 }))
            .sum();
        assert!((g[j] - want).abs() < 1e-14, "d/dx{j}");
    }
}

// ---------------------------------------------------------------------------------------
// The drivers at `f32` points.

/// Smoothstep over `f32`.
#[derive_frule]
fn smoothstep(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A soft clip over `f32`.
#[derive_frule]
fn soft_clip(x: f32, k: f32) -> f32 {
    (x * k).tanh() / k
}

/// A light's falloff at a point, over `f32`.
#[derive_frule]
fn falloff(p: &[f32]) -> f32 {
    let d2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    (-0.5 * d2).exp() / (1.0 + d2)
}

/// A pinhole projection over `f32`.
#[derive_frule]
fn pinhole(p: &[f32]) -> [f32; 2] {
    let f = 500.0;
    [f * p[0] / p[2] + 320.0, f * p[1] / p[2] + 240.0]
}

/// A particle's position after `n` semi-implicit Euler steps of drag, over `f32` (more
/// inputs than one pass of eight: the position, velocity and drag of three particles).
#[derive_frule]
fn drift(s: &[f32]) -> Vec<f32> {
    let dt = 0.1f32;
    let mut out = Vec::new();
    for p in 0..3 {
        let (mut x, mut v, k) = (s[3 * p], s[3 * p + 1], s[3 * p + 2]);
        for _ in 0..4 {
            v = v - k * v * dt;
            x = x + v * dt;
        }
        out.push(x);
    }
    out
}

#[test]
fn drivers_at_f32_points() {
    let (y, dy) = derivative_f32(smoothstep {}, 0.25f32);
    assert_eq!(y.to_bits(), smoothstep(0.25).to_bits());
    assert_eq!(dy, 6.0 * 0.25 * 0.75);
    // An untyped literal is an `f32` here.
    let (_, d) = derivative_f32(smoothstep {}, 0.5);
    assert_eq!(d, 1.5);
    // A function of several `f32`s through `bind`: ∂/∂k of `(x k).tanh() / k`.
    let (y, dk) = derivative_f32(bind(soft_clip {}, (0.8f32, Wrt)), 2.0);
    assert_eq!(y.to_bits(), soft_clip(0.8, 2.0).to_bits());
    let (x, k) = (0.8f64, 2.0f64);
    let want = x * (1.0 - (x * k).tanh().powi(2)) / k - (x * k).tanh() / (k * k);
    assert!((f64::from(dk) - want).abs() < 1e-6, "{dk} against {want}");

    let p = [0.3f32, -0.4, 0.5];
    let (v, g) = gradient_f32(falloff {}, &p);
    assert_eq!(v.to_bits(), falloff(&p).to_bits());
    // ∂/∂pᵢ = pᵢ · v · (−1 − 2 / (1 + d²)).
    let d2: f64 = p.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
    let v64 = (-0.5 * d2).exp() / (1.0 + d2);
    for i in 0..3 {
        let want = f64::from(p[i]) * v64 * (-1.0 - 2.0 / (1.0 + d2));
        assert!((f64::from(g[i]) - want).abs() < 1e-6, "d/dp{i}");
    }

    let (uv, j) = jacobian_f32(pinhole {}, &[0.2, -0.1, 2.0]);
    assert_eq!(uv, pinhole(&[0.2, -0.1, 2.0]));
    assert_eq!(j, [[250.0, 0.0, -25.0], [0.0, 250.0, 12.5]]);

    let s = [0.0f32, 1.0, 0.5, 1.0, -2.0, 0.2, -1.0, 0.5, 1.0];
    let (x, j) = jacobian_f32(drift {}, &s);
    assert_eq!(x, drift(&s));
    // x₄ = x₀ + dt v₀ Σₖ₌₁⁴ (1 − k dt)ᵏ: ∂x₄/∂x₀ = 1, ∂x₄/∂v₀ = dt Σ (1 − k dt)ᵏ.
    for p in 0..3 {
        let k = f64::from(s[3 * p + 2]);
        let dv: f64 = (1..=4).map(|n| 0.1 * (1.0 - k * 0.1).powi(n)).sum();
        for c in 0..9 {
            let want = if c == 3 * p {
                1.0
            } else if c == 3 * p + 1 {
                dv
            } else if c == 3 * p + 2 {
                let v0 = f64::from(s[3 * p + 1]);
                (1..=4)
                    .map(|n| -0.1 * v0 * 0.1 * n as f64 * (1.0 - k * 0.1).powi(n - 1))
                    .sum()
            } else {
                0.0
            };
            assert!((f64::from(j[p][c]) - want).abs() < 1e-6, "row {p} col {c}");
        }
    }
}

/// The `f64` drivers keep inferring `f64` from untyped literals beside the `f32` ones.
#[test]
fn f64_drivers_still_infer_untyped_literals() {
    let (v, d) = derivative(bind(hit_distance_axis {}, (Wrt,)), 2.0);
    assert!((v - 3.0).abs() < 1e-15);
    assert!((d.abs() - 1.0).abs() < 1e-15);
    let (_, g) = gradient(safe_norm {}, &[3.0, 4.0]);
    assert!((g[0] - 0.6).abs() < 1e-15);
}

// ---------------------------------------------------------------------------------------
// More of the same libraries, as their users write them.

/// A camera with intrinsics and a pose, projecting world points (a bundle adjuster's
/// residual): `inverse_transform_point`, a `Matrix3` times the point's coordinates.
#[derive_frule]
fn reprojection(p: &[f64]) -> f64 {
    let k = nalgebra::Matrix3::new(500.0, 0.0, 320.0, 0.0, 500.0, 240.0, 0.0, 0.0, 1.0);
    let pose = Isometry3::new(
        Vector3::new(p[0], p[1], p[2]),
        Vector3::new(p[3], p[4], p[5]),
    );
    let world = Point3::new(0.3, -0.2, 4.0);
    let cam = pose.inverse_transform_point(&world);
    let uvw = k * cam.coords;
    let (u, v) = (uvw.x / uvw.z, uvw.y / uvw.z);
    (u - 330.0).powi(2) + (v - 225.0).powi(2)
}

#[test]
fn camera_reprojection_error() {
    check_modes!(
        reprojection {},
        reprojection,
        [0.05, -0.02, 0.1, 0.01, 0.02, -0.03]
    );
}

/// The angle between a rotated axis and a target direction, with nalgebra's
/// `rotation_between`, `euler_angles` and `angle`.
#[derive_frule]
fn attitude_cost(a: &[f64]) -> f64 {
    let r = Rotation3::from_euler_angles(a[0], a[1], a[2]);
    let q = UnitQuaternion::from_rotation_matrix(&r);
    let forward = q * Vector3::x();
    let target = Vector3::new(0.6, 0.8, 0.0);
    let between = UnitQuaternion::rotation_between(&forward, &target).unwrap();
    let (roll, pitch, yaw) = r.euler_angles();
    between.angle() + 0.1 * (roll * roll + pitch * pitch + yaw * yaw)
}

#[test]
fn attitude_cost_in_every_mode() {
    check_modes!(attitude_cost {}, attitude_cost, [0.1, 0.2, 0.3]);
}

/// Gaussian log-density of a 2-vector under a covariance built from the parameters:
/// `cholesky`, `determinant`, a quadratic form by `solve`.
#[derive_frule]
fn gaussian_logpdf(p: &[f64]) -> f64 {
    let cov = Matrix2::new(p[0], p[2], p[2], p[1]);
    let x = Vector2::new(0.4, -0.3);
    let chol = cov.cholesky().unwrap();
    let z = chol.solve(&x);
    -0.5 * x.dot(&z) - 0.5 * cov.determinant().ln() - (2.0 * PI).ln()
}

#[test]
fn gaussian_log_density() {
    check_modes!(gaussian_logpdf {}, gaussian_logpdf, [1.2, 0.8, 0.3]);
}

/// glam: a point light's Lambert shading at a point of a sphere, the normal by
/// `normalize`, the light turned by two `DQuat`s, a reflection by `reflect`.
#[derive_frule]
fn shade(p: &[f64]) -> f64 {
    // The rotation `DQuat::from_euler(EulerRot::YXZ, p[0], p[1], 0.0)` as its factors
    // (`from_euler` itself: tests/reach_apps_libs7.rs).
    let light =
        DQuat::from_rotation_y(p[0]) * DQuat::from_rotation_x(p[1]) * DVec3::new(0.0, 0.0, 1.0);
    let normal = DVec3::new(0.3, 0.5, 0.8).normalize();
    let view = DVec3::new(p[2], 0.0, 1.0).normalize();
    let r = (-light).reflect(normal);
    let diffuse = normal.dot(light).max(0.0);
    let spec = r.dot(view).max(0.0).powf(8.0);
    diffuse + 0.5 * spec
}

#[test]
fn lambert_phong_shading() {
    check_modes!(shade {}, shade, [0.3, 0.2, 0.1]);
}

/// A model matrix from scale, rotation and translation, its inverse, and a point taken
/// there and back (`transform_point3`), plus the cross product of two transformed axes.
#[derive_frule]
fn model_roundtrip(p: &[f64]) -> f64 {
    let m = DMat4::from_scale_rotation_translation(
        DVec3::splat(p[0]),
        DQuat::from_axis_angle(DVec3::new(1.0, 1.0, 0.0).normalize(), p[1]),
        DVec3::new(p[2], 0.0, -1.0),
    );
    let inv = m.inverse();
    let q = inv.transform_point3(DVec3::new(1.0, 2.0, 3.0));
    let a = m.transform_vector3(DVec3::X);
    let b = m.transform_vector3(DVec3::Y);
    q.length() + a.cross(b).z
}

#[test]
fn model_matrix_roundtrip() {
    check_modes!(model_roundtrip {}, model_roundtrip, [1.5, 0.4, 0.2]);
}

/// A transmission line's input impedance `Z₀ (Z_L + j Z₀ tan βl) / (Z₀ + j Z_L tan βl)`,
/// its reflection coefficient's magnitude, with `Complex64::new`, `.conj()`, `.inv()`,
/// `.exp()` and `Complex64::I`.
#[derive_frule]
fn line_reflection(p: &[f64]) -> f64 {
    let z0 = 50.0;
    let zl = Complex64::new(p[0], p[1]);
    let bl = p[2];
    let t = Complex64::I * bl.tan();
    let zin = z0 * (zl + t * z0) / (z0 + t * zl);
    let gamma = (zin - z0) * (zin + z0).inv();
    let phase = (Complex64::I * -2.0 * bl).exp();
    (gamma * phase * gamma.conj()).re.sqrt()
}

#[test]
fn transmission_line_reflection() {
    check_modes!(line_reflection {}, line_reflection, [75.0, 20.0, 0.6]);
}

/// The sum of a signal's DFT magnitudes, each bin accumulated in a `Complex64` by a loop
/// and read by index. (By iterator chains, `.sum::<Complex64>()` and
/// `spectrum.iter().map(|c| c.norm())`: tests/reach_apps_libs7.rs.)
#[derive_frule]
fn spectrum_l1(x: &[f64]) -> f64 {
    let n = x.len();
    let mut spectrum: Vec<Complex64> = Vec::new();
    for k in 0..n {
        let mut bin = Complex64::new(0.0, 0.0);
        for i in 0..n {
            let w = -2.0 * PI * (k * i) as f64 / n as f64;
            bin += Complex64::new(w.cos(), w.sin()) * x[i];
        }
        spectrum.push(bin);
    }
    let mut total = 0.0;
    for k in 0..n {
        total += spectrum[k].norm();
    }
    total
}

#[test]
fn spectrum_magnitudes() {
    check_modes!(spectrum_l1 {}, spectrum_l1, [0.3, 1.0, -0.4, 0.8, 0.1]);
}

/// Generic numerics: a softplus and a log-sum-exp over any float, with `T::max_value`,
/// `mul_add`, `FloatConst::LN_2` and conversions from `usize`.
#[derive_frule]
fn softplus<T: Float + FloatConst>(x: T) -> T {
    if x > T::from(30.0).unwrap() {
        x
    } else {
        (T::one() + x.exp()).ln() - T::LN_2()
    }
}

#[derive_frule]
fn logsumexp<T: Float>(xs: &[T]) -> T {
    let mut m = -T::max_value();
    for &x in xs {
        m = m.max(x);
    }
    let mut s = T::zero();
    for &x in xs {
        s = s + (x - m).exp();
    }
    m + s.ln() - T::from(xs.len()).unwrap().ln()
}

#[derive_frule]
fn generic_mix(p: &[f64]) -> f64 {
    softplus(p[0]).mul_add(2.0, logsumexp(p))
}

#[test]
fn generic_float_numerics() {
    check_modes!(generic_mix {}, generic_mix, [0.3, -1.2, 0.8]);
}

/// A generic Horner evaluation over nalgebra's `RealField` with coefficients converted by
/// `T::from_f64`, and a distance over `Point3<T>`.
#[derive_frule]
fn horner<T: RealField + Copy>(x: T, coeffs: &[f64]) -> T {
    let mut acc = T::zero();
    for &c in coeffs.iter().rev() {
        acc = acc * x + T::from_f64(c).unwrap();
    }
    acc
}

#[derive_frule]
fn point_gap<T: RealField + Copy>(a: &Point3<T>, b: &Point3<T>) -> T {
    nalgebra::distance(a, b)
}

#[derive_frule]
fn real_field_mix(p: &[f64]) -> f64 {
    let a = Point3::new(p[0], p[1], 0.5);
    let b = Point3::new(1.0, -0.5, p[1]);
    horner(p[0], &[1.0, -0.5, 0.25, 0.1]) + point_gap(&a, &b)
}

#[test]
fn real_field_horner_and_distance() {
    check_modes!(real_field_mix {}, real_field_mix, [0.7, 0.2]);
}

/// ndarray: ridge regression's loss over `Array2` data with `t()`, `dot`, `mapv`, `sum`,
/// `mean` and `Array1::from_iter`.
#[derive_frule]
fn ridge_loss(w: &[f64]) -> f64 {
    // Typed here (untyped `arr2(..)`: tests/reach_apps_libs7.rs).
    let x: Array2<f64> = ndarray::arr2(&[[1.0, 0.5], [0.2, 1.5], [-0.7, 0.3], [1.1, -0.4]]);
    let y: Array1<f64> = ndarray::arr1(&[1.2, 0.8, -0.5, 0.9]);
    let weights = Array1::from_iter(w.iter().cloned());
    let residual = x.dot(&weights) - &y;
    let mse = residual.mapv(|r| r * r).mean().unwrap();
    mse + 0.1 * weights.dot(&weights)
}

#[test]
fn ridge_regression_loss() {
    let w = [0.4, -0.2];
    check_modes!(ridge_loss {}, ridge_loss, w);
    // ∇ = (2/n) Xᵀ(Xw − y) + 0.2 w.
    let x = [[1.0, 0.5], [0.2, 1.5], [-0.7, 0.3], [1.1, -0.4]];
    let y = [1.2, 0.8, -0.5, 0.9];
    let r: Vec<f64> = (0..4)
        .map(|i| x[i][0] * w[0] + x[i][1] * w[1] - y[i])
        .collect();
    let (_, g) = gradient(ridge_loss {}, &w);
    for j in 0..2 {
        let want = 2.0 / 4.0 * (0..4).map(|i| x[i][j] * r[i]).sum::<f64>() + 0.2 * w[j];
        assert!((g[j] - want).abs() < 1e-15, "d/dw{j}");
    }
}

/// ndarray: a layer's activations normalised per feature (`sum_axis`, broadcasting
/// division, `mapv_inplace`).
#[derive_frule]
fn batch_norm_energy(p: &[f64]) -> f64 {
    let mut a = Array2::from_shape_fn((3, 2), |(i, j)| p[i] * (j as f64 + 1.0) + 0.1 * i as f64);
    let mean = a.sum_axis(ndarray::Axis(0)) / 3.0;
    a -= &mean;
    a.mapv_inplace(|v| v * v);
    a.sum()
}

#[test]
fn batch_norm_energy_in_every_mode() {
    check_modes!(batch_norm_energy {}, batch_norm_energy, [0.5, -0.3, 1.1]);
}
