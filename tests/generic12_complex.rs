//! num-complex's `Complex<T>` with its transcendental methods in scalar-generic code as
//! library authors write it (fifteenth session): an electrochemical impedance with a
//! constant-phase element (`powf`, `norm`, `arg`) and analytic functions of a complex
//! variable (`ln`, `sin`, `cos`, `sqrt`, `exp`, `powc`) over `T: Float`; a transfer function
//! `H(jω)` with a delay over nalgebra's `T: RealField` (`exp`, `sqrt`, `modulus`, `real`,
//! `ln` through `ComplexField`, as `Complex<T>` has them there); a Fourier-domain filter
//! (`from_polar`, `exp`, `ln`, `norm_sqr`); and `T::RealField` from a vector's `norm()`
//! over `T: ComplexField`. Each annotated unmodified.
//!
//! Each is checked by `check_widths!` (one direction, batches of 1 to 16 lanes, second
//! order, against central differences; primals bit for bit) and, where there is one,
//! against a closed form.
//!
//! Run with `cargo test --features nalgebra,num-complex --test generic12_complex`.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, jvp, Var};
use fwdad::prelude::*;
use nalgebra::{ComplexField, RealField, Vector3};
use num_complex::Complex;
use num_traits::{Float, FloatConst};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// `Complex<T>` over `T: Float`
// ---------------------------------------------------------------------------------------

/// A Randles cell with a constant-phase element, `Z = R_s + R_ct / (1 + R_ct Q (jω)^α)`:
/// the impedance's magnitude and phase at `ω`.
#[derive_frule]
pub fn randles<T: Float>(rs: T, rct: T, q: T, alpha: T, w: T) -> (T, T) {
    let jw = Complex::new(T::zero(), w);
    let cpe = jw.powf(alpha) * q;
    let z = Complex::new(rs, T::zero()) + Complex::new(rct, T::zero()) / (cpe * rct + T::one());
    (z.norm(), z.arg())
}

#[derive_frule]
pub fn randles_magnitude(p: &[f64]) -> f64 {
    randles(p[0], p[1], p[2], p[3], 2.3).0
}

#[derive_frule]
pub fn randles_phase(p: &[f64]) -> f64 {
    randles(p[0], p[1], p[2], p[3], 2.3).1
}

#[test]
fn impedance_with_a_constant_phase_element() {
    let p = [0.5, 2.0, 0.1, 0.8];
    check_widths!(randles_magnitude {}, randles_magnitude, p);
    check_widths!(randles_phase {}, randles_phase, p);
    // Closed forms: Z = Rs + Rct / (1 + Rct Q ω^α e^{jαπ/2}); d|Z|/dRs = Re Z / |Z|,
    // d arg Z / dRs = -Im Z / |Z|².
    let (rs, rct, q, alpha, w) = (p[0], p[1], p[2], p[3], 2.3f64);
    let (c, s) = (
        (alpha * std::f64::consts::FRAC_PI_2).cos(),
        (alpha * std::f64::consts::FRAC_PI_2).sin(),
    );
    let k = rct * q * w.powf(alpha);
    let (dr, di) = (1.0 + k * c, k * s);
    let den = dr * dr + di * di;
    let (re, im) = (rs + rct * dr / den, -rct * di / den);
    let m = (re * re + im * im).sqrt();
    let (_, g) = gradient(randles_magnitude {}, &p);
    assert_close(g[0], re / m, 1e-14, "d|Z|/dRs");
    let (_, g) = gradient(randles_phase {}, &p);
    assert_close(g[0], -im / (m * m), 1e-14, "d arg Z/dRs");
}

/// Analytic functions of `z = a + jb`: `Re(ln z + sin z √z - cos z / eᶻ + z^{b + ja}) +
/// Im(..)²`.
#[derive_frule]
pub fn analytic<T: Float>(a: T, b: T) -> T {
    let z = Complex::new(a, b);
    let w = z.ln() + z.sin() * z.sqrt() - z.cos() / z.exp() + z.powc(Complex::new(b, a));
    w.re + w.im * w.im
}

/// `Re ln z = ln |z|` alone, whose gradient is `(a, b) / |z|²`.
#[derive_frule]
pub fn log_modulus<T: Float>(a: T, b: T) -> T {
    Complex::new(a, b).ln().re
}

#[test]
fn analytic_functions_of_a_complex_variable() {
    let p = [0.9, 0.4];
    check_widths!(
        bind(analytic {}, (Var(0), Var(1))),
        |v: &[f64]| analytic(v[0], v[1]),
        p
    );
    check_widths!(
        bind(log_modulus {}, (Var(0), Var(1))),
        |v: &[f64]| log_modulus(v[0], v[1]),
        p
    );
    let (_, g) = gradient(bind(log_modulus {}, (Var(0), Var(1))), &p);
    let r2 = p[0] * p[0] + p[1] * p[1];
    assert_close(g[0], p[0] / r2, 1e-15, "d ln|z|/da");
    assert_close(g[1], p[1] / r2, 1e-15, "d ln|z|/db");
}

/// A Fourier-domain filter: the DFT of a real frame, each bin delayed by `τ`
/// (`e^{-jωτ}`) and weighted by a Gaussian, and the log-spectrum's mean (`ln` of the
/// filtered bins' magnitudes, a cepstrum's first coefficient).
#[derive_frule]
pub fn filtered_log_spectrum<T: Float + FloatConst>(x: &[T], tau: T, sigma: T) -> T {
    let n = x.len();
    let nf = T::from(n).unwrap();
    let two_pi = T::PI() + T::PI();
    let mut acc = T::zero();
    for k in 1..n / 2 {
        let mut bin = Complex::new(T::zero(), T::zero());
        for (j, &v) in x.iter().enumerate() {
            let phase = -two_pi * T::from(k * j).unwrap() / nf;
            bin = bin + Complex::from_polar(v, phase);
        }
        let w = two_pi * T::from(k).unwrap() / nf;
        let delay = Complex::new(T::zero(), -w * tau).exp();
        let gain = (-(w / sigma) * (w / sigma)).exp();
        let y = bin * delay * gain;
        acc = acc + y.ln().re + y.norm_sqr().sqrt();
    }
    acc / nf
}

#[derive_frule]
pub fn filter_of(p: &[f64]) -> f64 {
    filtered_log_spectrum(&p[..6], p[6], p[7])
}

#[test]
fn fourier_domain_filter() {
    let p = [0.3, 1.1, -0.4, 0.8, 0.2, -0.9, 0.35, 1.7];
    check_widths!(filter_of {}, filter_of, p);
    // The delay turns each bin by a unit phase: nothing depends on τ.
    let (_, g) = gradient(filter_of {}, &p);
    assert!(g[6].abs() < 1e-15, "d/dτ = {}", g[6]);
}

// ---------------------------------------------------------------------------------------
// `Complex<T>` over nalgebra's `T: RealField`
// ---------------------------------------------------------------------------------------

/// `H(jω) = ωn² e^{-jω τ} / ((jω)² + 2ζωn jω + ωn²)`: the gain in dB, and a second output
/// mixing in `Re √H`.
#[derive_frule]
pub fn lowpass<T: RealField + Copy>(wn: T, zeta: T, w: T) -> (T, T) {
    let s = Complex::new(T::zero(), w);
    let wn2 = Complex::new(wn * wn, T::zero());
    let two = T::from_f64(2.0).unwrap();
    let h = wn2 / (s * s + s * Complex::new(two * zeta * wn, T::zero()) + wn2);
    let delay = (s * Complex::new(-T::from_f64(0.1).unwrap(), T::zero())).exp();
    let hd = h * delay;
    let db = hd.modulus().ln() * T::from_f64(20.0).unwrap() / T::ln_10();
    (db, db + h.sqrt().real())
}

#[derive_frule]
pub fn lowpass_db(p: &[f64]) -> f64 {
    lowpass(p[0], p[1], 1.3).0
}

#[derive_frule]
pub fn lowpass_mixed(p: &[f64]) -> f64 {
    lowpass(p[0], p[1], 1.3).1
}

#[test]
fn transfer_function_over_real_field() {
    let p = [2.0, 0.4];
    check_widths!(lowpass_db {}, lowpass_db, p);
    check_widths!(lowpass_mixed {}, lowpass_mixed, p);
    // |H| = ωn² / √D, D = (ωn² - ω²)² + (2ζωnω)²: d dB/dζ = -(20 / ln 10) (2ωnω)² ζ / D.
    let (wn, zeta, w) = (p[0], p[1], 1.3f64);
    let d = (wn * wn - w * w).powi(2) + (2.0 * zeta * wn * w).powi(2);
    let (_, g) = gradient(lowpass_db {}, &p);
    let want = -(20.0 / std::f64::consts::LN_10) * (2.0 * wn * w).powi(2) * zeta / d;
    assert_close(g[1], want, 1e-13, "d dB/dζ");
}

// ---------------------------------------------------------------------------------------
// `T::RealField` from `norm()` over `T: ComplexField`
// ---------------------------------------------------------------------------------------

/// A relative residual `|a - b| / |a|`, in the real field of the vectors' scalar.
#[derive_frule]
pub fn relative_residual<T: ComplexField + Copy>(a: &Vector3<T>, b: &Vector3<T>) -> T::RealField {
    (a - b).norm() / a.norm()
}

#[derive_frule]
pub fn residual_of(p: &[f64]) -> f64 {
    let a = Vector3::new(p[0], p[1], 1.0);
    let b = Vector3::new(0.5, p[2], -0.2);
    relative_residual(&a, &b)
}

#[test]
fn real_field_from_a_norm() {
    let p = [0.7, 0.2, 0.4];
    check_widths!(residual_of {}, residual_of, p);
    // d/db₁ (|a - b| / |a|) = (b₁ - a₁) / (|a - b| |a|).
    let (_, g) = gradient(residual_of {}, &p);
    let (a, b) = ([p[0], p[1], 1.0], [0.5, p[2], -0.2]);
    let na = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    let nd = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
    assert_close(g[2], (b[1] - a[1]) / (nd * na), 1e-15, "d/db1");
}
