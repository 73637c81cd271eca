//! Library values in generic code as library authors write it (thirteenth session):
//! num-complex's `Complex<T>` over `T: Float` (`norm`, `arg`, `exp`, `powc`, `conj`,
//! `sqrt`), nalgebra over `T: RealField` / `T: ComplexField` (`Matrix3<T>`, `Vector3<T>`,
//! `UnitQuaternion<T>`, `SVector<T, N>`: `norm`, `dot`, `cross`, `try_inverse`,
//! `transpose`, `lu().solve`, `cholesky`), and glam's `DVec3`/`DMat3` in plain `f64`
//! code (`length`, `normalize`, `dot`, `cross`, `mul_vec3`); each annotated unmodified.
//!
//! Each is checked by `check_widths!` (one direction, batches of 1 to 16 lanes, second
//! order, against central differences; primals bit for bit) and, where there is one,
//! against a closed form.
//!
//! Run with `cargo test --features nalgebra,num-complex,glam --test generic10_libs`.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, jvp, Var, Wrt};
use fwdad::prelude::*;
use glam::{DMat3, DQuat, DVec3};
use nalgebra::{ComplexField, Matrix3, RealField, SMatrix, SVector, Unit, UnitQuaternion, Vector3};
use num_complex::Complex;
use num_traits::{Float, FloatConst};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// num-complex over `T: Float`
// ---------------------------------------------------------------------------------------

/// |H(iω)| and ∠H(iω) of a first-order lag with a delay, `H(s) = k e^{-sτ} / (1 + sT)`.
#[derive_frule]
pub fn lag_response<T: Float>(k: T, tau: T, t: T, w: T) -> (T, T) {
    let s = Complex::new(T::zero(), w);
    let h =
        Complex::new(k, T::zero()) * (-s * tau).exp() / (Complex::new(T::one(), T::zero()) + s * t);
    (h.norm(), h.arg())
}

#[derive_frule]
pub fn lag_gain(p: &[f64]) -> f64 {
    lag_response(p[0], p[1], p[2], 1.7).0
}

#[derive_frule]
pub fn lag_phase(p: &[f64]) -> f64 {
    lag_response(p[0], p[1], p[2], 1.7).1
}

#[test]
fn complex_transfer_function() {
    let p = [2.0, 0.3, 0.8];
    check_widths!(lag_gain {}, lag_gain, p);
    check_widths!(lag_phase {}, lag_phase, p);
    // Closed forms: |H| = k / √(1 + ω²T²), ∠H = -ωτ - atan(ωT).
    let w = 1.7;
    let (_, g) = gradient(lag_gain {}, &p);
    let r = (1.0 + w * w * p[2] * p[2]).sqrt();
    assert_close(g[0], 1.0 / r, 1e-14, "d|H|/dk");
    assert_close(g[2], -p[0] * w * w * p[2] / r.powi(3), 1e-14, "d|H|/dT");
    let (_, g) = gradient(lag_phase {}, &p);
    assert_close(g[1], -w, 1e-14, "d arg/dtau");
    assert_close(g[2], -w / (1.0 + w * w * p[2] * p[2]), 1e-14, "d arg/dT");
}

/// The principal square root, a complex power and the conjugate: `Re √(z^{z̄})`.
#[derive_frule]
pub fn complex_power<T: Float>(a: T, b: T) -> T {
    let z = Complex::new(a, b);
    let w = z.powc(z.conj());
    w.sqrt().re + (z * z.conj()).re.sqrt()
}

#[test]
fn complex_powc_conj_sqrt() {
    check_widths!(
        bind(complex_power {}, (Var(0), Var(1))),
        |v: &[f64]| complex_power(v[0], v[1]),
        [0.9, 0.4]
    );
}

/// A Goertzel-style DFT bin's power of a real signal, generic over `T: Float + FloatConst`.
#[derive_frule]
pub fn dft_power<T: Float + FloatConst>(x: &[T], k: usize) -> T {
    let n = T::from(x.len()).unwrap();
    let two_pi = T::PI() + T::PI();
    let mut acc = Complex::new(T::zero(), T::zero());
    for (j, &v) in x.iter().enumerate() {
        let phase = -two_pi * T::from(k * j).unwrap() / n;
        acc = acc + Complex::from_polar(v, phase);
    }
    acc.norm_sqr() / n
}

#[test]
fn complex_dft_bin() {
    let x = [0.3, 1.1, -0.4, 0.8, 0.2, -0.9];
    check_widths!(bind(dft_power {}, (Wrt, 1)), |v: &[f64]| dft_power(v, 1), x);
}

// ---------------------------------------------------------------------------------------
// nalgebra over `T: RealField`
// ---------------------------------------------------------------------------------------

/// The signed volume and the normal's norm of a tetrahedron: `cross`, `dot`, `norm`.
#[derive_frule]
pub fn tetra<T: RealField + Copy>(a: &Vector3<T>, b: &Vector3<T>, c: &Vector3<T>) -> T {
    let n = (b - a).cross(&(c - a));
    let six = T::from_f64(6.0).unwrap();
    n.dot(a) / six + n.norm()
}

#[derive_frule]
pub fn tetra_of(p: &[f64]) -> f64 {
    let a = Vector3::new(p[0], p[1], p[2]);
    let b = Vector3::new(1.0, p[3], 0.2);
    let c = Vector3::new(-0.3, 0.5, p[4]);
    tetra(&a, &b, &c)
}

#[test]
fn nalgebra_cross_dot_norm() {
    check_widths!(tetra_of {}, tetra_of, [0.2, -0.1, 0.7, 0.4, 1.3]);
}

/// The Mahalanobis distance `√(rᵀ Σ⁻¹ r)` by `try_inverse` and by a Cholesky solve.
#[derive_frule]
pub fn mahalanobis<T: RealField + Copy>(r: &Vector3<T>, sigma: &Matrix3<T>) -> T {
    let inv = sigma.try_inverse().unwrap();
    let d1 = (r.transpose() * inv * r)[(0, 0)];
    let chol = sigma.cholesky().unwrap();
    let d2 = r.dot(&chol.solve(r));
    ((d1 + d2) / T::from_f64(2.0).unwrap()).sqrt()
}

#[derive_frule]
pub fn mahalanobis_of(p: &[f64]) -> f64 {
    let r = Vector3::new(p[0], p[1], p[2]);
    let s = Matrix3::new(p[3], 0.2, 0.1, 0.2, 1.5, -0.3, 0.1, -0.3, 0.9);
    mahalanobis(&r, &s)
}

#[test]
fn nalgebra_inverse_cholesky() {
    check_widths!(mahalanobis_of {}, mahalanobis_of, [0.4, -0.6, 1.1, 2.0]);
}

/// A 3×3 solve by LU: the tension in three cables holding a load.
#[derive_frule]
pub fn cable_tensions<T: RealField + Copy>(dirs: &Matrix3<T>, load: &Vector3<T>) -> Vector3<T> {
    dirs.lu().solve(load).unwrap()
}

#[derive_frule]
pub fn max_tension(p: &[f64]) -> f64 {
    let dirs = Matrix3::new(p[0], -0.5, 0.1, 0.3, p[1], -0.6, 0.8, 0.7, p[2]);
    let load = Vector3::new(0.0, 0.0, 9.81);
    let t = cable_tensions(&dirs, &load);
    t.norm()
}

#[test]
fn nalgebra_lu_solve() {
    check_widths!(max_tension {}, max_tension, [0.9, 0.8, 0.6]);
}

/// A rotation by a unit quaternion about a unit axis, then the angle to a target.
#[derive_frule]
pub fn pointing_error<T: RealField + Copy>(
    angle: T,
    tilt: T,
    v: &Vector3<T>,
    target: &Vector3<T>,
) -> T {
    let z = Vector3::z_axis();
    let x = Unit::new_normalize(Vector3::new(T::one(), tilt, T::zero()));
    let q = UnitQuaternion::from_axis_angle(&z, angle) * UnitQuaternion::from_axis_angle(&x, tilt);
    let r = q * v;
    r.angle(target)
}

#[derive_frule]
pub fn pointing_of(p: &[f64]) -> f64 {
    let v = Vector3::new(1.0, 0.0, 0.0);
    let t = Vector3::new(0.2, 0.9, 0.4);
    pointing_error(p[0], p[1], &v, &t)
}

#[test]
fn nalgebra_unit_quaternion() {
    check_widths!(pointing_of {}, pointing_of, [0.8, 0.3]);
}

/// A chain of `N` springs in `SVector<T, N>`, const generic, with a `fold` over the
/// differences.
#[derive_frule]
pub fn chain_energy<T: RealField + Copy, const N: usize>(x: &SVector<T, N>, k: T) -> T {
    let mut e = T::zero();
    for i in 1..N {
        let d = x[i] - x[i - 1] - T::one();
        e += k * d * d;
    }
    e / T::from_f64(2.0).unwrap() + x.map(|v| v.sin()).sum()
}

#[derive_frule]
pub fn chain_of(p: &[f64]) -> f64 {
    let x = SVector::<f64, 4>::from_column_slice(&p[..4]);
    chain_energy(&x, p[4])
}

#[test]
fn nalgebra_const_generic_svector() {
    check_widths!(chain_of {}, chain_of, [0.1, 1.3, 1.9, 3.2, 2.5]);
}

/// A Kalman update's innovation likelihood on `SMatrix<T, 2, 2>`, generic.
#[derive_frule]
pub fn innovation_nll<T: RealField + Copy>(
    p: &SMatrix<T, 2, 2>,
    h: &SMatrix<T, 2, 2>,
    r: &SMatrix<T, 2, 2>,
    y: &SVector<T, 2>,
) -> T {
    let s = h * p * h.transpose() + r;
    let s_inv = s.try_inverse().unwrap();
    let half = T::from_f64(0.5).unwrap();
    half * (y.transpose() * s_inv * y)[(0, 0)] + half * s.determinant().ln()
}

#[derive_frule]
pub fn innovation_of(q: &[f64]) -> f64 {
    let p = SMatrix::<f64, 2, 2>::new(q[0], 0.1, 0.1, q[1]);
    let h = SMatrix::<f64, 2, 2>::new(1.0, 0.0, 0.5, 1.0);
    let r = SMatrix::<f64, 2, 2>::new(q[2], 0.0, 0.0, q[2]);
    let y = SVector::<f64, 2>::new(0.3, -0.2);
    innovation_nll(&p, &h, &r, &y)
}

#[test]
fn nalgebra_kalman_smatrix() {
    check_widths!(innovation_of {}, innovation_of, [1.2, 0.8, 0.3]);
}

// ---------------------------------------------------------------------------------------
// nalgebra's `T: ComplexField` over real scalars
// ---------------------------------------------------------------------------------------

/// A damped sinusoid written against `ComplexField`, as scalar-generic nalgebra code is.
#[derive_frule]
pub fn damped<T: ComplexField + Copy>(x: T, a: T) -> T {
    (-(a * x)).exp() * x.sin() + (x * x + a).sqrt()
}

#[test]
fn complex_field_bound() {
    check_widths!(
        bind(damped {}, (Var(0), Var(1))),
        |v: &[f64]| damped(v[0], v[1]),
        [0.7, 0.4]
    );
}

// ---------------------------------------------------------------------------------------
// glam in plain `f64` code
// ---------------------------------------------------------------------------------------

/// Rodrigues' rotation of `v` about a unit axis by `mul_vec3` of a rotation matrix, and
/// again by a quaternion; the distance between the two and the length of the first.
#[derive_frule]
pub fn rodrigues(axis: DVec3, angle: f64, v: DVec3) -> f64 {
    let k = axis.normalize();
    let r1 = v * angle.cos() + k.cross(v) * angle.sin() + k * k.dot(v) * (1.0 - angle.cos());
    let m = DMat3::from_axis_angle(k, angle);
    let r2 = m.mul_vec3(v);
    let q = DQuat::from_axis_angle(k, angle);
    let r3 = q.mul_vec3(v);
    r1.length() + (r2 - r3).length_squared() + r2.dot(DVec3::X)
}

#[derive_frule]
pub fn rodrigues_of(p: &[f64]) -> f64 {
    let axis = DVec3::new(p[0], p[1], 1.0);
    let v = DVec3::new(0.5, p[2], -0.2);
    rodrigues(axis, p[3], v)
}

#[test]
fn glam_rotation() {
    let p = [0.3, -0.4, 0.9, 0.7];
    check_widths!(rodrigues_of {}, rodrigues_of, p);
}

/// A triangle's area and its normal's tilt with glam in `f64`.
#[derive_frule]
pub fn triangle_tilt(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let n = (b - a).cross(c - a);
    let area = 0.5 * n.length();
    let tilt = n.normalize().dot(DVec3::Z).acos();
    area * tilt
}

#[derive_frule]
pub fn triangle_of(p: &[f64]) -> f64 {
    triangle_tilt(
        DVec3::new(p[0], 0.0, 0.1),
        DVec3::new(1.0, p[1], 0.3),
        DVec3::new(0.2, 1.0, p[2]),
    )
}

#[test]
fn glam_triangle() {
    check_widths!(triangle_of {}, triangle_of, [0.1, 0.2, 0.6]);
}
