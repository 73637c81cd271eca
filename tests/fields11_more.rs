//! More shapes of a struct holding a closure: a quadrature object whose bound is moved
//! before it is used (`let mut`), one built inside a derived method of another type (its
//! closure reading `self`), a shooting solver holding two coefficient functions, and a
//! kernel smoother whose closure borrows a data vector. In one direction, in batches and
//! at second order against central differences or closed forms, primals bit for bit.

#![allow(clippy::needless_range_loop, clippy::useless_vec)]

#[macro_use]
mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

pub struct Quad<F: Fn(f64) -> f64> {
    pub f: F,
    pub a: f64,
    pub b: f64,
    pub n: usize,
}

#[derive_frule]
impl<F: Fn(f64) -> f64> Quad<F> {
    /// The midpoint rule.
    pub fn midpoint(&self) -> f64 {
        let h = (self.b - self.a) / self.n as f64;
        let mut s = 0.0;
        for i in 0..self.n {
            s += (self.f)(self.a + (i as f64 + 0.5) * h);
        }
        s * h
    }
}

// --- 1. A field assigned before the object is used -------------------------------------

/// ∫₀^{2b} e^{−λt} dt by the midpoint rule, the upper bound doubled after construction.
#[derive_frule]
pub fn decay_integral(p: &[f64]) -> f64 {
    let lambda = p[0];
    let mut quad = Quad {
        f: |t: f64| (-lambda * t).exp(),
        a: 0.0,
        b: p[1],
        n: 200,
    };
    quad.b *= 2.0;
    quad.midpoint()
}

#[test]
fn field_assigned_before_the_method_call() {
    let p = [0.8, 1.1];
    check_modes!(decay_integral {}, decay_integral, p);
    // (1 − e^{−2λb})/λ within the midpoint rule's O(h²).
    let (l, b) = (p[0], p[1]);
    let (v, g) = gradient(decay_integral {}, &p);
    assert_close(v, (1.0 - (-2.0 * l * b).exp()) / l, 1e-4, "integral");
    assert_close(g[1], 2.0 * (-2.0 * l * b).exp(), 1e-4, "d/db");
}

// --- 2. Built inside a derived method of another type ----------------------------------

#[derive(Differentiable, Clone, Copy)]
pub struct Wave {
    pub amp: f64,
    pub freq: f64,
}

#[derive_frule]
impl Wave {
    /// Mean power over one second: ∫₀¹ (A sin ωt)² dt.
    pub fn power(&self) -> f64 {
        let q = Quad {
            f: |t: f64| (self.amp * (self.freq * t).sin()).powi(2),
            a: 0.0,
            b: 1.0,
            n: 400,
        };
        q.midpoint()
    }
}

#[derive_frule]
pub fn wave_power(p: &[f64]) -> f64 {
    let w = Wave {
        amp: p[0],
        freq: p[1],
    };
    w.power()
}

#[test]
fn solver_built_in_a_derived_method_capturing_self() {
    let p = [1.3, 2.2];
    check_modes!(wave_power {}, wave_power, p);
    // A²(1/2 − sin 2ω / 4ω), within the midpoint rule's O(h²).
    let (a, w) = (p[0], p[1]);
    let (v, g) = gradient(wave_power {}, &p);
    let m = 0.5 - (2.0 * w).sin() / (4.0 * w);
    assert_close(v, a * a * m, 1e-5, "power");
    assert_close(g[0], 2.0 * a * m, 1e-5, "d/dA");
}

// --- 3. Two coefficient functions ------------------------------------------------------

/// `u'' = p(x) u' + q(x) u` on `[0, 1]`, `u(0) = 0`, `u'(0) = s`, by explicit Euler.
pub struct Shooting<P, Q>
where
    P: Fn(f64) -> f64,
    Q: Fn(f64) -> f64,
{
    pub p: P,
    pub q: Q,
    pub steps: usize,
}

#[derive_frule]
impl<P, Q> Shooting<P, Q>
where
    P: Fn(f64) -> f64,
    Q: Fn(f64) -> f64,
{
    pub fn end_value(&self, s: f64) -> f64 {
        let h = 1.0 / self.steps as f64;
        let (mut u, mut du) = (0.0, s);
        for i in 0..self.steps {
            let x = i as f64 * h;
            let ddu = (self.p)(x) * du + (self.q)(x) * u;
            u += h * du;
            du += h * ddu;
        }
        u
    }
}

/// The end value for a damping `c` and a stiffness profile `k·(1 + x)`, shot with slope 1.
#[derive_frule]
pub fn shoot(p: &[f64]) -> f64 {
    let (c, k) = (p[0], p[1]);
    let bvp = Shooting {
        p: |_x: f64| -c,
        q: |x: f64| -k * (1.0 + x),
        steps: 100,
    };
    bvp.end_value(1.0)
}

#[test]
fn shooting_solver_with_two_coefficient_functions() {
    check_modes!(shoot {}, shoot, [0.4, 2.5]);
}

// --- 4. A closure borrowing data -------------------------------------------------------

pub struct Smoother<K: Fn(f64, f64) -> f64> {
    pub kernel: K,
    pub xs: Vec<f64>,
}

#[derive_frule]
impl<K: Fn(f64, f64) -> f64> Smoother<K> {
    /// The Nadaraya–Watson estimate at `x` of the values `ys`.
    pub fn estimate(&self, ys: &[f64], x: f64) -> f64 {
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..self.xs.len() {
            let w = (self.kernel)(x, self.xs[i]);
            num += w * ys[i];
            den += w;
        }
        num / den
    }
}

/// A Gaussian-kernel smoother of bandwidth `p[0]` evaluated at `p[1]`.
#[derive_frule]
pub fn smooth_at(p: &[f64]) -> f64 {
    let bw = p[0];
    let scale = vec![1.0, 1.0, 1.0, 1.0, 1.0];
    let s = Smoother {
        kernel: |x: f64, xi: f64| (-(x - xi) * (x - xi) / (2.0 * bw * bw)).exp() * scale[0],
        xs: vec![0.0, 0.5, 1.0, 1.5, 2.0],
    };
    s.estimate(&[1.0, 0.6, 0.2, 0.5, 0.9], p[1])
}

#[test]
fn kernel_smoother_whose_closure_borrows_data() {
    check_modes!(smooth_at {}, smooth_at, [0.4, 0.8]);
}
