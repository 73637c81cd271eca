//! Solvers holding the function they work on in a field, as numerical code is written: a
//! quadrature object `Problem<F: Fn(f64) -> f64>`, an explicit integrator holding the
//! right-hand side of an ODE (`&'a dyn Fn(f64, &[f64], &mut [f64])`), a Newton solver with
//! `fn` pointer fields, an Euler integrator of a growth law bounded in a `where` clause.
//! A differentiated function builds the solver from a closure capturing its inputs and
//! calls the solver's methods. In one direction, in batches and at second order against
//! central differences or closed forms, primals bit for bit.

#![allow(clippy::needless_range_loop, clippy::type_complexity)]

#[macro_use]
mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// --- 1. A quadrature object ------------------------------------------------------------

/// ∫ₐᵇ f by composite Simpson's rule.
pub struct Problem<F: Fn(f64) -> f64> {
    pub f: F,
    pub a: f64,
    pub b: f64,
}

#[derive_frule]
impl<F: Fn(f64) -> f64> Problem<F> {
    pub fn width(&self) -> f64 {
        self.b - self.a
    }

    pub fn integrate(&self, n: usize) -> f64 {
        let h = self.width() / n as f64;
        let mut s = (self.f)(self.a) + (self.f)(self.b);
        for i in 1..n {
            let x = self.a + i as f64 * h;
            s += if i % 2 == 1 { 4.0 } else { 2.0 } * (self.f)(x);
        }
        s * h / 3.0
    }
}

/// ∫₀ᵇ sin(k t) dt.
#[derive_frule]
pub fn sine_area(p: &[f64]) -> f64 {
    let k = p[0];
    let prob = Problem {
        f: |t| (k * t).sin(),
        a: 0.0,
        b: p[1],
    };
    prob.integrate(64)
}

#[test]
fn quadrature_object_built_from_a_capturing_closure() {
    let p = [1.7, 1.3];
    check_modes!(sine_area {}, sine_area, p);
    // Against the closed form (1 − cos kb)/k and its derivatives.
    let (k, b) = (p[0], p[1]);
    let (v, g) = gradient(sine_area {}, &p);
    assert_close(v, (1.0 - (k * b).cos()) / k, 1e-8, "area");
    let dk = (b * (k * b).sin()) / k - (1.0 - (k * b).cos()) / (k * k);
    assert_close(g[0], dk, 1e-7, "d/dk");
    assert_close(g[1], (k * b).sin(), 1e-7, "d/db");
}

/// The same object used twice, its bounds read in the body.
#[derive_frule]
pub fn mean_value(p: &[f64]) -> f64 {
    let (c, s) = (p[0], p[1]);
    let gauss = Problem {
        f: |t: f64| (-(t - c) * (t - c) / (2.0 * s * s)).exp(),
        a: c - 3.0 * s,
        b: c + 3.0 * s,
    };
    let area = gauss.integrate(128);
    area / (gauss.b - gauss.a)
}

#[test]
fn quadrature_object_read_and_called_twice() {
    check_modes!(mean_value {}, mean_value, [0.4, 0.8]);
}

// --- 2. An ODE system with its right-hand side in a field ------------------------------

/// Heun's method for `y' = rhs(t, y)`, writing the derivative into `dy`.
pub struct Ode<'a> {
    pub rhs: &'a dyn Fn(f64, &[f64], &mut [f64]),
    pub h: f64,
}

#[derive_frule]
impl<'a> Ode<'a> {
    pub fn step(&self, t: f64, y: &[f64]) -> Vec<f64> {
        let n = y.len();
        let mut k1 = vec![0.0; n];
        (self.rhs)(t, y, &mut k1);
        let mut pred = vec![0.0; n];
        for i in 0..n {
            pred[i] = y[i] + self.h * k1[i];
        }
        let mut k2 = vec![0.0; n];
        (self.rhs)(t + self.h, &pred, &mut k2);
        let mut out = vec![0.0; n];
        for i in 0..n {
            out[i] = y[i] + 0.5 * self.h * (k1[i] + k2[i]);
        }
        out
    }

    pub fn solve(&self, y0: &[f64], steps: usize) -> Vec<f64> {
        let mut y = y0.to_vec();
        let mut t = 0.0;
        for _ in 0..steps {
            y = self.step(t, &y);
            t += self.h;
        }
        y
    }
}

/// Position of a damped oscillator after 2 s, for stiffness `p[0]` and damping `p[1]`.
#[derive_frule]
pub fn oscillator(p: &[f64]) -> f64 {
    let (k, c) = (p[0], p[1]);
    let ode = Ode {
        rhs: &|_t, y, dy| {
            dy[0] = y[1];
            dy[1] = -k * y[0] - c * y[1];
        },
        h: 0.01,
    };
    let y = ode.solve(&[1.0, 0.0], 200);
    y[0]
}

#[test]
fn ode_system_with_a_right_hand_side_field() {
    check_modes!(oscillator {}, oscillator, [4.0, 0.3]);
}

// --- 3. Newton's method with `fn` pointer fields ---------------------------------------

#[derive_frule]
pub fn cubic(x: f64, c: f64) -> f64 {
    x * x * x - c
}

#[derive_frule]
pub fn cubic_slope(x: f64, _c: f64) -> f64 {
    3.0 * x * x
}

pub struct Newton {
    pub f: fn(f64, f64) -> f64,
    pub df: fn(f64, f64) -> f64,
    pub iters: usize,
}

#[derive_frule]
impl Newton {
    pub fn solve(&self, c: f64, x0: f64) -> f64 {
        let mut x = x0;
        for _ in 0..self.iters {
            x -= (self.f)(x, c) / (self.df)(x, c);
        }
        x
    }
}

/// The cube root of `p[0]` by twelve Newton steps from 1.
#[derive_frule]
pub fn cube_root(p: &[f64]) -> f64 {
    let newton = Newton {
        f: cubic,
        df: cubic_slope,
        iters: 12,
    };
    newton.solve(p[0], 1.0)
}

#[test]
fn newton_solver_with_fn_pointer_fields() {
    let p = [5.0];
    check_modes!(cube_root {}, cube_root, p);
    let (v, g) = gradient(cube_root {}, &p);
    assert_close(v, p[0].cbrt(), 1e-12, "root");
    // d/dc c^(1/3) = 1 / (3 c^(2/3)).
    assert_close(g[0], 1.0 / (3.0 * p[0].cbrt().powi(2)), 1e-10, "d/dc");
}

// --- 4. A growth law bounded in a `where` clause ---------------------------------------

pub struct Euler<F> {
    pub f: F,
    pub h: f64,
}

#[derive_frule]
impl<F> Euler<F>
where
    F: Fn(f64, f64) -> f64,
{
    pub fn run(&self, t0: f64, y0: f64, n: usize) -> f64 {
        let mut y = y0;
        for k in 0..n {
            y += self.h * (self.f)(t0 + k as f64 * self.h, y);
        }
        y
    }
}

/// Logistic growth at rate `p[0]` from `p[1]`, integrated over 1 s.
#[derive_frule]
pub fn logistic(p: &[f64]) -> f64 {
    let r = p[0];
    let integ = Euler {
        f: |_t: f64, y: f64| r * y * (1.0 - y),
        h: 0.01,
    };
    integ.run(0.0, p[1], 100)
}

#[test]
fn euler_integrator_bounded_in_a_where_clause() {
    check_modes!(logistic {}, logistic, [1.5, 0.2]);
}

// --- 5. The solver's function called in the body ---------------------------------------

/// A 1-D minimiser holding its objective: a golden-section search would call it the
/// same way; here the body reads the objective at a few trial points.
pub struct LineSearch<F: Fn(f64) -> f64> {
    pub phi: F,
    pub shrink: f64,
}

#[derive_frule]
impl<F: Fn(f64) -> f64> LineSearch<F> {
    /// Backtracks from `t` while the objective does not decrease.
    pub fn backtrack(&self, t: f64) -> f64 {
        let f0 = (self.phi)(0.0);
        let mut t = t;
        for _ in 0..20 {
            if (self.phi)(t) < f0 {
                break;
            }
            t *= self.shrink;
        }
        (self.phi)(t)
    }
}

/// The objective after a backtracking step along a quadratic valley, and the objective
/// at the start, read through the field in the body.
#[derive_frule]
pub fn descent(p: &[f64]) -> f64 {
    let (a, b) = (p[0], p[1]);
    let search = LineSearch {
        phi: move |t: f64| (a - t) * (a - t) + b * t,
        shrink: 0.5,
    };
    search.backtrack(4.0) + 0.1 * (search.phi)(0.5)
}

#[test]
fn line_search_holding_its_objective() {
    // At (1.2, 0.3), t = 4 does not decrease φ (φ(4) = 9.04 > φ(0) = 1.44), t = 2 does
    // (φ(2) = (a − 2)² + 2b = 1.24).
    let p = [1.2, 0.3];
    check_modes!(descent {}, descent, p);
    let (a, b) = (p[0], p[1]);
    let (v, g) = gradient(descent {}, &p);
    let phi = |t: f64| (a - t) * (a - t) + b * t;
    assert_eq!(v.to_bits(), descent(&p).to_bits());
    assert_close(v, phi(2.0) + 0.1 * phi(0.5), 1e-12, "value");
    assert_close(g[0], 2.0 * (a - 2.0) + 0.2 * (a - 0.5), 1e-10, "d/da");
    assert_close(g[1], 2.0 + 0.05, 1e-10, "d/db");
}
