//! glam and num-complex as graphics programmers and electrical engineers write them,
//! annotated unmodified: a point projected to the screen through `DMat4::look_at_rh`,
//! `perspective_rh` and `project_point3`, a direction turned by `DQuat::slerp`, the
//! current gain of a series R with a parallel LC, and the weighted power spectrum of a
//! DFT accumulated from `Complex::from_polar`.
//! Each in one direction, in batches (`gradient_with::<4>`) and at second order
//! (`hessian_with::<2>`) against central differences or closed forms; primals bit for bit.
//!
//! Run with `cargo test --features glam,num-complex --test reach_apps_glam_complex_users`.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use fwdad::prelude::*;
use glam::{DMat4, DQuat, DVec3};
use num_complex::Complex;

/// Screen position (x + y in normalised device coordinates) of the point `(0.5, 0.2,
/// z)` seen from an eye at `(ex, ey, 5)` looking at the origin; `p = [ex, ey, z]`.
#[derive_frule]
fn screen_xy(p: &[f64]) -> f64 {
    let eye = DVec3::new(p[0], p[1], 5.0);
    let view = DMat4::look_at_rh(eye, DVec3::ZERO, DVec3::Y);
    let proj = DMat4::perspective_rh(0.8, 1.5, 0.1, 100.0);
    let ndc = (proj * view).project_point3(DVec3::new(0.5, 0.2, p[2]));
    ndc.x + ndc.y
}

#[test]
fn camera_projection_in_every_mode() {
    check_modes!(screen_xy {}, screen_xy, [0.3, 0.4, -1.0]);
}

/// The head of a joint blended between a yaw and a roll: `slerp` at `t`, the rotated x
/// axis projected on a fixed direction; `p = [yaw, roll, t]`.
#[derive_frule]
fn blended_heading(p: &[f64]) -> f64 {
    let a = DQuat::from_rotation_z(p[0]);
    let b = DQuat::from_rotation_x(p[1]);
    let q = a.slerp(b, p[2]);
    (q * DVec3::X).dot(DVec3::new(0.3, 0.2, 1.0))
}

#[test]
fn quaternion_slerp_in_every_mode() {
    check_modes!(blended_heading {}, blended_heading, [0.3, 0.4, 0.35]);
}

/// The current amplitude through a resistor `R` (Ω) in series with an inductor `L` (mH)
/// parallel to a capacitor `C` (µF), driven by 1 V at 50 Hz; `p = [R, L, C]`.
#[derive_frule]
fn rlc_current(p: &[f64]) -> f64 {
    let (r, l, c) = (p[0], p[1] * 1e-3, p[2] * 1e-6);
    let w = 2.0 * std::f64::consts::PI * 50.0;
    let z_l = Complex::new(0.0, w * l);
    let z_c = Complex::new(0.0, -1.0 / (w * c));
    let z_r = Complex::new(r, 0.0);
    let z = z_r + z_l * z_c / (z_l + z_c);
    let v = Complex::new(1.0, 0.0);
    (v / z).norm()
}

#[test]
fn rlc_current_has_the_closed_form_derivative() {
    let p = [10.0, 50.0, 100.0];
    // The LC pair is a reactance X = ωL / (1 − ω²LC), so |I| = 1 / √(R² + X²) and
    // ∂|I|/∂R = −R / (R² + X²)^{3/2}.
    let w = 2.0 * std::f64::consts::PI * 50.0;
    let (l, c) = (p[1] * 1e-3, p[2] * 1e-6);
    let x = w * l / (1.0 - w * w * l * c);
    let (v, g) = fwdad::gradient_with::<4>(rlc_current {}, &p);
    assert_eq!(v.to_bits(), rlc_current(&p).to_bits());
    let m2 = p[0] * p[0] + x * x;
    assert!((v - 1.0 / m2.sqrt()).abs() < 1e-14);
    assert!((g[0] + p[0] / m2.powf(1.5)).abs() < 1e-14, "∂/∂R: {}", g[0]);
    check_modes!(rlc_current {}, rlc_current, p);
}

/// The power spectrum of a real signal by the DFT written as two loops, weighted by
/// frequency index.
#[derive_frule]
fn weighted_spectrum(x: &[f64]) -> f64 {
    let n = x.len();
    let mut p = 0.0;
    for k in 0..n {
        let mut acc = Complex::new(0.0, 0.0);
        for (j, &xj) in x.iter().enumerate() {
            let th = -2.0 * std::f64::consts::PI * (k * j) as f64 / n as f64;
            acc += Complex::from_polar(xj, th);
        }
        p += acc.norm_sqr() * (k as f64 + 1.0);
    }
    p
}

#[test]
fn dft_power_spectrum_has_the_quadratic_form_gradient() {
    let x = [1.0, 0.5, -0.3, 0.2];
    let n = x.len();
    // P = xᵀ M x with M_ij = Σₖ (k + 1) cos(2π k (i − j) / n): ∇P = 2 M x.
    let mut want = [0.0; 4];
    for i in 0..n {
        for j in 0..n {
            let mut m = 0.0;
            for k in 0..n {
                let th = 2.0 * std::f64::consts::PI * (k as f64) * (i as f64 - j as f64) / n as f64;
                m += (k as f64 + 1.0) * th.cos();
            }
            want[i] += 2.0 * m * x[j];
        }
    }
    let (v, g) = fwdad::gradient_with::<4>(weighted_spectrum {}, &x);
    assert_eq!(v.to_bits(), weighted_spectrum(&x).to_bits());
    for i in 0..n {
        assert!(
            (g[i] - want[i]).abs() < 1e-12,
            "∂{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    check_modes!(weighted_spectrum {}, weighted_spectrum, x);
}
