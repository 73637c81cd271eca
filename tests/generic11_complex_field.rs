//! nalgebra's `ComplexField` as scalar-generic library code uses it (fourteenth session):
//! the methods it gives a scalar that may be complex (`modulus`, `modulus_squared`,
//! `argument`, `conjugate`, `real`, `imaginary`, `norm1`, `scale`, `unscale`, `to_polar`,
//! `to_exp`) and its real field written `T::RealField`, `<T as ComplexField>::RealField`
//! or `T::RealField::zero()`, in functions over `T: ComplexField`, annotated unmodified.
//! The rules run at the real float types, where these are real formulas.
//!
//! Each is checked by `check_widths!` (one direction, batches of 1 to 16 lanes, second
//! order, against central differences; primals bit for bit) and against a closed form.
//!
//! Run with `cargo test --features nalgebra --test generic11_complex_field`.
// nalgebra's body clones its scalars, which are `Copy` here.
#![allow(clippy::clone_on_copy)]

use fwdad::drivers::{bind, jvp, Var};
use fwdad::prelude::*;
use nalgebra::{ComplexField, Vector2};
use num_traits::Zero;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

/// The Euclidean norm of a slice of scalars, summed into the real field as nalgebra's
/// generic `norm_squared` does (`let mut res = T::SimdRealField::zero(); .. res += ..`).
#[derive_frule]
pub fn norm_of<T: ComplexField + Copy>(x: &[T]) -> T::RealField {
    let mut res = T::RealField::zero();
    for xi in x {
        res += xi.modulus_squared();
    }
    res.sqrt()
}

#[test]
fn norm_through_modulus_squared() {
    let x = [0.3, -1.2, 2.5];
    check_widths!(norm_of {}, |v: &[f64]| norm_of(v), x);
    // ∇|x| = x / |x|.
    let (n, g) = gradient(norm_of {}, &x);
    let want = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
    assert_close(n, want, 1e-15, "|x|");
    for k in 0..3 {
        assert_close(g[k], x[k] / want, 1e-15, "d|x|/dx");
    }
}

/// A cross-spectrum's magnitude and phase, `a b̄` (signal code generic over the field of
/// its samples).
#[derive_frule]
pub fn cross_spectrum<T: ComplexField + Copy>(a: T, b: T) -> (T::RealField, T::RealField) {
    let c = a * b.conjugate();
    (c.modulus(), c.argument())
}

#[derive_frule]
pub fn spectrum_of(p: &[f64]) -> f64 {
    let (m, phase) = cross_spectrum(p[0], p[1]);
    m + phase
}

#[test]
fn modulus_argument_conjugate() {
    // a b < 0: the phase is π, a constant; |a b| has gradient (|b| sgn(a b)·.., ..).
    let p = [0.7, -1.3];
    check_widths!(spectrum_of {}, spectrum_of, p);
    let (v, g) = gradient(spectrum_of {}, &p);
    assert_close(v, 0.7 * 1.3 + std::f64::consts::PI, 1e-15, "|ab| + π");
    assert_close(g[0], -p[1], 1e-15, "d|ab|/da");
    assert_close(g[1], -p[0], 1e-15, "d|ab|/db");
    let q = [0.7, 1.3];
    check_widths!(spectrum_of {}, spectrum_of, q);
    let (v, g) = gradient(spectrum_of {}, &q);
    assert_close(v, 0.7 * 1.3, 1e-15, "|ab|");
    assert_close(g[0], q[1], 1e-15, "d|ab|/da");
}

/// nalgebra 0.35's `GivensRotation::cancel_y` (its body, over `T: ComplexField`): the
/// rotation `(c, s)` zeroing the second component of `v`, and the norm `r` it leaves.
#[derive_frule]
pub fn cancel_y<T: ComplexField + Copy>(v: &Vector2<T>) -> Option<(T::RealField, T, T)> {
    if !v[1].is_zero() {
        let (mod0, sign0) = v[0].clone().to_exp();
        let denom = (mod0.clone() * mod0.clone() + v[1].clone().modulus_squared()).sqrt();
        let c = mod0 / denom.clone();
        let s = -v[1].clone() / sign0.clone().scale(denom.clone());
        let r = sign0.scale(denom);
        Some((c, s, r))
    } else {
        None
    }
}

#[derive_frule]
pub fn givens_of(p: &[f64]) -> f64 {
    let v = Vector2::new(p[0], p[1]);
    match cancel_y(&v) {
        Some((c, s, r)) => 2.0 * c + 3.0 * s + r,
        None => 0.0,
    }
}

#[test]
fn givens_rotation_to_exp_scale() {
    for p in [[1.5, -0.8], [-2.0, 0.6]] {
        check_widths!(givens_of {}, givens_of, p);
        // Closed form: r = sgn(a) ρ, c = |a| / ρ, s = -b / (sgn(a) ρ), ρ = √(a² + b²).
        let (a, b) = (p[0], p[1]);
        let rho = (a * a + b * b).sqrt();
        let sg = a.signum();
        let (_, g) = gradient(givens_of {}, &p);
        let dc_da = sg * b * b / rho.powi(3);
        let dc_db = -a.abs() * b / rho.powi(3);
        let ds_da = b * a / (sg * rho.powi(3));
        let ds_db = -1.0 / (sg * rho) + b * b / (sg * rho.powi(3));
        let dr_da = sg * a / rho;
        let dr_db = sg * b / rho;
        assert_close(g[0], 2.0 * dc_da + 3.0 * ds_da + dr_da, 1e-13, "d/da");
        assert_close(g[1], 2.0 * dc_db + 3.0 * ds_db + dr_db, 1e-13, "d/db");
    }
}

/// A scalar's parts through the field's methods: `real`, `imaginary`, `norm1`, `scale`,
/// `unscale` and `to_polar`, with `<T as ComplexField>::RealField` written out.
#[derive_frule]
pub fn parts<T: ComplexField + Copy>(z: T, k: <T as ComplexField>::RealField) -> T::RealField {
    let w = z.scale(k.clone());
    let (m, phase) = w.to_polar();
    w.real() + w.imaginary() + w.norm1().unscale(k) * m + phase
}

#[test]
fn real_imaginary_norm1_polar() {
    for p in [[0.8, 1.7], [-0.8, 1.7]] {
        check_widths!(
            bind(parts {}, (Var(0), Var(1))),
            |v: &[f64]| parts(v[0], v[1]),
            p
        );
        // With k > 0: z k + |z k|² / k + (0 or π) = z k + z² k + a constant.
        let (z, k) = (p[0], p[1]);
        let (_, g) = gradient(bind(parts {}, (Var(0), Var(1))), &p);
        assert_close(g[0], k + 2.0 * z * k, 1e-14, "d/dz");
        assert_close(g[1], z + z.abs() * z.abs(), 1e-14, "d/dk");
    }
}

/// A first-order section generic over the field of its coefficients, as nalgebra-based
/// filter code writes it: its gain `|a x + b|` in the real field.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Section<T> {
    pub a: T,
    pub b: T,
}

#[derive_frule]
impl<T: ComplexField + Copy> Section<T> {
    pub fn gain(&self, x: T) -> T::RealField {
        (self.a * x + self.b).modulus()
    }
}

#[derive_frule]
pub fn section_gain(p: &[f64]) -> f64 {
    let s = Section { a: p[0], b: p[1] };
    s.gain(p[2])
}

#[test]
fn method_of_a_generic_impl() {
    let p = [0.5, -2.0, 1.5];
    check_widths!(section_gain {}, section_gain, p);
    // |a x + b| with a x + b = -1.25 < 0: the gradient is -(x, 1, a).
    let (_, g) = gradient(section_gain {}, &p);
    assert_close(g[0], -p[2], 1e-15, "d/da");
    assert_close(g[1], -1.0, 1e-15, "d/db");
    assert_close(g[2], -p[0], 1e-15, "d/dx");
}
