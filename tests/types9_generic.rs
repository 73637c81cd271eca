//! Code generic over `T: Float` (num-traits) as library authors write it (twelfth
//! session): a damped oscillator struct generic over `T` with a constructor and methods,
//! constants by `T::from(0.5).unwrap()`, `T::epsilon()`, `T::zero()`, `T::one()`, and
//! const generic arrays `[T; N]`; run at `f64` through the drivers and at `f32`.
//!
//! Each against central differences or closed forms in one direction, in batches and at
//! second order, primals bit for bit.
#![allow(clippy::needless_range_loop)]
use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;
use num_traits::Float;

#[macro_use]
mod common;

use common::modes::assert_close;

/// A damped harmonic oscillator `x'' + 2 ζ ω x' + ω² x = 0`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Oscillator<T> {
    pub omega: T,
    pub zeta: T,
}

#[derive_frule]
impl<T: Float> Oscillator<T> {
    pub fn new(omega: T, zeta: T) -> Self {
        Oscillator { omega, zeta }
    }

    pub fn accel(&self, x: T, v: T) -> T {
        let two = T::from(2.0).unwrap();
        -two * self.zeta * self.omega * v - self.omega * self.omega * x
    }

    /// One velocity-Verlet-like step (the acceleration at the half step's velocity).
    pub fn step(&self, x: T, v: T, dt: T) -> (T, T) {
        let half = T::from(0.5).unwrap();
        let a = self.accel(x, v);
        let v_half = v + half * dt * a;
        let x_new = x + dt * v_half;
        let v_new = v_half + half * dt * self.accel(x_new, v_half);
        (x_new, v_new)
    }

    pub fn energy(&self, x: T, v: T) -> T {
        T::from(0.5).unwrap() * (v * v + self.omega * self.omega * x * x)
    }
}

/// The energy left after `steps` steps from `x = 1, v = 0`, of `p = [ω, ζ]`.
#[derive_frule]
pub fn energy_after<T: Float>(p: &[T], steps: usize) -> T {
    let osc = Oscillator::new(p[0], p[1]);
    let (mut x, mut v) = (T::one(), T::zero());
    let dt = T::from(0.01).unwrap();
    for _ in 0..steps {
        let (nx, nv) = osc.step(x, v, dt);
        x = nx;
        v = nv;
    }
    osc.energy(x, v)
}

#[test]
fn generic_struct_with_methods() {
    let plain = |p: &[f64]| energy_after(p, 150);
    check_modes!(bind(energy_after {}, (Wrt, 150)), plain, [2.0, 0.1]);
    // At f32, through the rule with duals.
    let p32 = [2.0f32, 0.1];
    let d = energy_after_frule(Dual::new(&p32[..], &[1.0f32, 0.0][..]), Dual::constant(150));
    assert_eq!(d.primal.to_bits(), energy_after(&p32, 150).to_bits());
    let g = common::modes::fd_gradient(&plain, &[2.0, 0.1]);
    assert_close(d.tangent as f64, g[0], 1e-3, "f32 d/dω");
}

/// A smooth norm and a softmax-weighted mean over arrays of any length (`[T; N]`), with
/// `T::epsilon()` keeping the root away from zero.
#[derive_frule]
pub fn smooth_norm<T: Float, const N: usize>(v: &[T; N]) -> T {
    let mut s = T::epsilon();
    for i in 0..N {
        s = s + v[i] * v[i];
    }
    s.sqrt()
}

#[derive_frule]
pub fn softmax_mean<T: Float, const N: usize>(z: &[T; N], values: &[T; N]) -> T {
    let mut m = T::neg_infinity();
    for i in 0..N {
        m = m.max(z[i]);
    }
    let mut e = [T::zero(); N];
    let mut total = T::zero();
    for i in 0..N {
        e[i] = (z[i] - m).exp();
        total = total + e[i];
    }
    let mut out = T::zero();
    for i in 0..N {
        out = out + values[i] * e[i] / total;
    }
    out + smooth_norm(z) * T::from(0.1).unwrap()
}

#[derive_frule]
pub fn attention_score(x: &[f64; 4]) -> f64 {
    let values = [1.0, -2.0, 0.5, 3.0];
    softmax_mean(x, &values)
}

#[test]
fn const_generic_arrays() {
    let x = [0.3, -1.2, 0.8, 0.1];
    let plain = |x: &[f64]| attention_score(&[x[0], x[1], x[2], x[3]]);
    check_modes!(bind(attention_score {}, (Wrt,)), plain, x);
    // The closed form of the norm's gradient, v / |v|.
    let v = [3.0f64, 4.0];
    let d = smooth_norm_frule(Dual::new(&v, &[1.0, 0.0]));
    assert_eq!(d.primal.to_bits(), smooth_norm(&v).to_bits());
    assert_close(
        d.tangent,
        3.0 / (25.0 + f64::EPSILON).sqrt(),
        1e-15,
        "d|v|/dv0",
    );
    // At f32.
    let v32 = [3.0f32, 4.0];
    let d = smooth_norm_frule(Dual::new(&v32, &[0.0f32, 1.0]));
    assert_eq!(d.primal.to_bits(), smooth_norm(&v32).to_bits());
    assert!((d.tangent - 0.8).abs() < 1e-6);
}

/// A polynomial of fixed degree over any float, as a numerics crate writes it: a struct
/// generic over `T` and a const `N`, evaluated by Horner's scheme, its derivative's value
/// (coefficients scaled by `T::from(k)` of a `usize`), and a root refinement guarded by
/// `T::min_positive_value()` with the step clamped through `T::from(π)`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Polynomial<T, const N: usize> {
    pub coeffs: [T; N],
}

#[derive_frule]
impl<T: Float, const N: usize> Polynomial<T, N> {
    pub fn eval(&self, x: T) -> T {
        let mut acc = T::zero();
        for k in (0..N).rev() {
            acc = acc * x + self.coeffs[k];
        }
        acc
    }

    pub fn slope(&self, x: T) -> T {
        let mut acc = T::zero();
        for k in (1..N).rev() {
            acc = acc * x + T::from(k).unwrap() * self.coeffs[k];
        }
        acc
    }

    pub fn newton(&self, mut x: T, steps: usize) -> T {
        let limit = T::from(std::f64::consts::PI).unwrap();
        for _ in 0..steps {
            let d = self.slope(x);
            if d.abs() < T::min_positive_value() {
                break;
            }
            let step = (self.eval(x) / d).max(-limit).min(limit);
            x = x - step;
        }
        x
    }
}

/// The root near 1 of `c₀ + c₁ x + c₂ x² + x³` (`p = [c₀, c₁, c₂]`), by Newton's method.
#[derive_frule]
pub fn cubic_root(p: &[f64]) -> f64 {
    let poly = Polynomial {
        coeffs: [p[0], p[1], p[2], 1.0],
    };
    poly.newton(1.0, 30)
}

#[test]
fn const_generic_struct_and_newton() {
    // x³ − 2: the root 2^(1/3), whose derivative along c₀ is −1 / (3 r²) (implicit
    // function theorem, an independent closed form).
    let p = [-2.0, 0.0, 0.0];
    let (v, g) = gradient(cubic_root {}, &p);
    assert_eq!(v.to_bits(), cubic_root(&p).to_bits());
    let r = 2f64.cbrt();
    assert!((v - r).abs() < 1e-14);
    assert_close(g[0], -1.0 / (3.0 * r * r), 1e-12, "d root / d c0");
    assert_close(g[1], -r / (3.0 * r * r), 1e-12, "d root / d c1");
    assert_close(g[2], -r * r / (3.0 * r * r), 1e-12, "d root / d c2");
    check_modes!(cubic_root {}, cubic_root, [-1.5, 0.3, -0.2]);
    // At f32, the struct's methods through the rule with duals.
    let poly = Polynomial {
        coeffs: [-2.0f32, 0.0, 0.0, 1.0],
    };
    let still = PolynomialTangent {
        coeffs: [0.0f32; 4],
    };
    let d = Polynomial::<f32, 4>::eval_frule(Dual::new(&poly, &still), Dual::new(1.5f32, 1.0));
    assert_eq!(d.primal.to_bits(), poly.eval(1.5).to_bits());
    assert!((d.tangent - 3.0 * 1.5 * 1.5).abs() < 1e-5);
}
