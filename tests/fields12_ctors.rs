//! A struct holding a function built by its constructor (`Glm::new(link, &xs, &ys)`,
//! `Problem::new(|t| (k * t).sin(), 0.0, 1.0)`, `fn new(f: F, ..) -> Self { Self { f,
//! .. } }` in the user's `impl`) inside a differentiated function, from a closure
//! capturing the differentiated inputs: a generalised linear model with its inverse link,
//! a quadrature object, a backtracking line search holding its objective. In one
//! direction, in batches and at second order against central differences or closed
//! forms, primals bit for bit.

#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// --- 1. A GLM with its inverse link -------------------------------------------------------

/// Least squares of a GLM's mean `link_inv(b0 + b1 x)` against observations.
pub struct Glm<L: Fn(f64) -> f64> {
    link_inv: L,
    xs: Vec<f64>,
    ys: Vec<f64>,
}

impl<L: Fn(f64) -> f64> Glm<L> {
    pub fn new(link_inv: L, xs: &[f64], ys: &[f64]) -> Self {
        assert_eq!(xs.len(), ys.len(), "one observation per covariate");
        Self {
            link_inv,
            xs: xs.to_vec(),
            ys: ys.to_vec(),
        }
    }
}

#[derive_frule]
impl<L: Fn(f64) -> f64> Glm<L> {
    pub fn loss(&self, b0: f64, b1: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..self.xs.len() {
            let mu = (self.link_inv)(b0 + b1 * self.xs[i]);
            s += (self.ys[i] - mu).powi(2);
        }
        0.5 * s
    }
}

/// The loss of a log-link model whose link is scaled by `p[2]`.
#[derive_frule]
pub fn glm_loss(p: &[f64]) -> f64 {
    let s = p[2];
    let xs = [0.0, 0.5, 1.0, 1.5, 2.0];
    let ys = [1.0, 1.4, 2.1, 2.9, 4.2];
    let glm = Glm::new(|eta: f64| (s * eta).exp(), &xs, &ys);
    glm.loss(p[0], p[1])
}

#[test]
fn glm_built_by_its_constructor() {
    let p = [0.1, 0.6, 0.9];
    check_modes!(glm_loss {}, glm_loss, p);
    // Against the closed form of the gradient.
    let xs = [0.0, 0.5, 1.0, 1.5, 2.0];
    let ys = [1.0, 1.4, 2.1, 2.9, 4.2];
    let (b0, b1, s) = (p[0], p[1], p[2]);
    let mut g = [0.0; 3];
    for i in 0..5 {
        let eta = b0 + b1 * xs[i];
        let mu = (s * eta).exp();
        let r = mu - ys[i];
        g[0] += r * mu * s;
        g[1] += r * mu * s * xs[i];
        g[2] += r * mu * eta;
    }
    let (_, gg) = gradient(glm_loss {}, &p);
    for k in 0..3 {
        assert_close(gg[k], g[k], 1e-10, "closed-form gradient");
    }
}

// --- 2. A quadrature object, its constructor in the derived `impl` -----------------------

pub struct Problem<F: Fn(f64) -> f64> {
    f: F,
    a: f64,
    b: f64,
}

#[derive_frule]
impl<F: Fn(f64) -> f64> Problem<F> {
    pub fn new(f: F, a: f64, b: f64) -> Self {
        assert!(a <= b, "an empty interval");
        Problem { f, a, b }
    }

    /// Gauss-Legendre with three nodes on each of `n` panels.
    pub fn integrate(&self, n: usize) -> f64 {
        let nodes = [-(0.6f64).sqrt(), 0.0, (0.6f64).sqrt()];
        let weights = [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0];
        let h = (self.b - self.a) / n as f64;
        let mut s = 0.0;
        for i in 0..n {
            let mid = self.a + (i as f64 + 0.5) * h;
            for j in 0..3 {
                s += weights[j] * (self.f)(mid + 0.5 * h * nodes[j]);
            }
        }
        0.5 * h * s
    }
}

/// ∫₀¹ sin(k t) dt + ∫₀ᵇ t e^{-k t} dt.
#[derive_frule]
pub fn two_integrals(p: &[f64]) -> f64 {
    let (k, b) = (p[0], p[1]);
    let first = Problem::new(|t| (k * t).sin(), 0.0, 1.0);
    let second = Problem::new(|t: f64| t * (-k * t).exp(), 0.0, b);
    first.integrate(16) + second.integrate(16)
}

#[test]
fn quadrature_built_by_its_constructor() {
    let p = [1.3, 2.2];
    check_modes!(two_integrals {}, two_integrals, p);
    let (k, b) = (p[0], p[1]);
    let (v, g) = gradient(two_integrals {}, &p);
    let second = (1.0 - (1.0 + k * b) * (-k * b).exp()) / (k * k);
    assert_close(v, (1.0 - k.cos()) / k + second, 1e-9, "value");
    assert_close(g[1], b * (-k * b).exp(), 1e-9, "d/db");
}

// --- 3. A backtracking line search holding its objective --------------------------------

pub struct LineSearch<'a> {
    objective: &'a dyn Fn(f64) -> f64,
    step: f64,
    shrink: f64,
}

impl<'a> LineSearch<'a> {
    pub fn new(objective: &'a dyn Fn(f64) -> f64, step: f64) -> Self {
        LineSearch {
            objective,
            step,
            shrink: 0.5,
        }
    }
}

#[derive_frule]
impl LineSearch<'_> {
    /// Armijo backtracking along the descent direction `d` from `x`, returning the value
    /// reached.
    pub fn descend(&self, x: f64, d: f64, slope: f64) -> f64 {
        let f0 = (self.objective)(x);
        let mut t = self.step;
        for _ in 0..30 {
            let ft = (self.objective)(x + t * d);
            if ft <= f0 + 1e-4 * t * slope * d {
                return ft;
            }
            t *= self.shrink;
        }
        f0
    }
}

/// One steepest-descent step on a Rosenbrock-like valley along a fixed line.
#[derive_frule]
pub fn after_one_step(p: &[f64]) -> f64 {
    let (a, c) = (p[0], p[1]);
    let objective = |x: f64| (a - x).powi(2) + c * (x * x - 1.0).powi(2);
    let ls = LineSearch::new(&objective, 1.0);
    let x = 0.3;
    let slope = -2.0 * (a - x) + 4.0 * c * x * (x * x - 1.0);
    ls.descend(x, -slope, slope)
}

#[test]
fn line_search_built_by_its_constructor() {
    check_modes!(after_one_step {}, after_one_step, [1.2, 0.8]);
}

// --- 4. The model built by its constructor, handed to a penalised objective --------------

/// The loss plus a ridge penalty, reading the model's data.
#[derive_frule]
pub fn penalised<L: Fn(f64) -> f64>(model: &Glm<L>, b: &[f64], lambda: f64) -> f64 {
    let n = model.xs.len() as f64;
    model.loss(b[0], b[1]) / n + lambda * (b[0] * b[0] + b[1] * b[1])
}

#[derive_frule]
pub fn penalised_logistic(p: &[f64]) -> f64 {
    let xs = [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5];
    let ys = [0.1, 0.2, 0.45, 0.6, 0.8, 0.85];
    let temperature = p[2];
    let model = Glm::new(
        |eta: f64| 1.0 / (1.0 + (-eta / temperature).exp()),
        &xs,
        &ys,
    );
    penalised(&model, &p[..2], 0.01)
}

#[test]
fn model_from_its_constructor_passed_to_a_function() {
    check_modes!(penalised_logistic {}, penalised_logistic, [0.2, 1.1, 0.9]);
}

// --- 5. A constructor computing a field -------------------------------------------------

/// A uniform grid on `[a, b]` holding the integrand, its step computed by the constructor.
pub struct Trapezoid<F: Fn(f64) -> f64> {
    f: F,
    a: f64,
    h: f64,
    n: usize,
}

impl<F: Fn(f64) -> f64> Trapezoid<F> {
    pub fn new(f: F, a: f64, b: f64, n: usize) -> Self {
        assert!(n > 0, "at least one panel");
        let h = (b - a) / n as f64;
        Trapezoid { f, a, h, n }
    }
}

#[derive_frule]
impl<F: Fn(f64) -> f64> Trapezoid<F> {
    pub fn integrate(&self) -> f64 {
        let mut s = 0.5 * ((self.f)(self.a) + (self.f)(self.a + self.n as f64 * self.h));
        for i in 1..self.n {
            s += (self.f)(self.a + i as f64 * self.h);
        }
        s * self.h
    }
}

/// ∫ₐᵇ x e^{-x/s} dx on 400 panels.
#[derive_frule]
pub fn weighted_mass(p: &[f64]) -> f64 {
    let (s, h) = (p[0], p[1]);
    let t = Trapezoid::new(|x: f64| x * (-x / s).exp(), 0.0, h, 400);
    t.integrate()
}

#[test]
fn constructor_computing_a_field() {
    let p = [0.8, 2.5];
    check_modes!(weighted_mass {}, weighted_mass, p);
    // d/dh ∫₀ʰ = h e^{-h/s}.
    let (_, g) = gradient(weighted_mass {}, &p);
    assert_close(g[1], p[1] * (-p[1] / p[0]).exp(), 1e-4, "d/dh");
}
