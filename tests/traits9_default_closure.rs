//! A trait's *default* method taking a closure, called through a type parameter, as a
//! numerics library writes quadrature: `trait Quadrature { fn n(&self) -> usize; fn
//! integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64 { .. } }`, the
//! midpoint rule given by the default body and a Simpson rule overriding it, and a caller
//! generic over the rule. Checked against closed forms and central differences in one
//! direction, batched and at second order, primals bit for bit.

#[macro_use]
mod common;

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

/// A rule integrating over `[a, b]` on `n()` panels; the midpoint rule unless overridden.
#[derive_frule]
pub trait Quadrature {
    fn n(&self) -> usize;
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64 {
        let h = (b - a) / self.n() as f64;
        (0..self.n())
            .map(|i| f(a + (i as f64 + 0.5) * h))
            .sum::<f64>()
            * h
    }
}

/// The composite midpoint rule: the trait's default.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Midpoint {
    pub n: usize,
}

#[derive_frule]
impl Quadrature for Midpoint {
    fn n(&self) -> usize {
        self.n
    }
}

/// Composite Simpson's rule on `n` (even) panels.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Simpson {
    pub n: usize,
}

#[derive_frule]
impl Quadrature for Simpson {
    fn n(&self) -> usize {
        self.n
    }
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64 {
        let h = (b - a) / self.n as f64;
        let mut s = f(a) + f(b);
        for i in 1..self.n {
            let w = if i % 2 == 1 { 4.0 } else { 2.0 };
            s += w * f(a + i as f64 * h);
        }
        s * h / 3.0
    }
}

/// The expected squared loss `E[(x - 1)²]` under an unnormalised Gaussian of mean `mu`
/// and width `sigma`, integrated over six widths either side.
#[derive_frule]
pub fn expected_loss<Q: Quadrature>(q: &Q, mu: f64, sigma: f64) -> f64 {
    let pdf = |x: f64| (-(x - mu).powi(2) / (2.0 * sigma * sigma)).exp();
    q.integrate(
        |x| (x - 1.0).powi(2) * pdf(x),
        mu - 6.0 * sigma,
        mu + 6.0 * sigma,
    )
}

/// `∫₀¹ sin(k x) dx` by the rule.
#[derive_frule]
pub fn sine_area<Q: Quadrature>(q: &Q, k: f64) -> f64 {
    q.integrate(|x| (k * x).sin(), 0.0, 1.0)
}

#[test]
fn the_default_midpoint_rule_through_a_type_parameter_in_every_mode() {
    let q = Midpoint { n: 400 };
    check_modes!(
        bind(expected_loss {}, (&q, Var(0), Var(1))),
        |x: &[f64]| expected_loss(&q, x[0], x[1]),
        [0.3, 0.8]
    );
    check_modes!(
        bind(sine_area {}, (&q, Var(0))),
        |x: &[f64]| sine_area(&q, x[0]),
        [2.5]
    );
}

#[test]
fn the_overriding_simpson_rule_through_a_type_parameter_in_every_mode() {
    let q = Simpson { n: 200 };
    check_modes!(
        bind(expected_loss {}, (&q, Var(0), Var(1))),
        |x: &[f64]| expected_loss(&q, x[0], x[1]),
        [0.3, 0.8]
    );
}

#[test]
fn the_default_rule_against_the_closed_form() {
    // ∫₀¹ sin(kx) dx = (1 - cos k)/k; the midpoint rule's derivative in k is that of its
    // own sum, Σ h xᵢ cos(k xᵢ), which tends to d/dk (1 - cos k)/k = sin k / k - (1 - cos k)/k².
    let q = Midpoint { n: 2000 };
    let k = 2.5;
    let (v, d) = derivative(bind(sine_area {}, (&q, Var(0))), k);
    assert_eq!(v.to_bits(), sine_area(&q, k).to_bits());
    let h = 1.0 / 2000.0;
    let sum: f64 = (0..2000)
        .map(|i| {
            let x = (i as f64 + 0.5) * h;
            h * x * (k * x).cos()
        })
        .sum();
    assert!(
        (d - sum).abs() < 1e-12,
        "{d} against the rule's own sum {sum}"
    );
    let exact = k.sin() / k - (1.0 - k.cos()) / (k * k);
    assert!((d - exact).abs() < 1e-6, "{d} against {exact}");
}

/// A solver's line search behind a trait whose default methods take the objective as
/// `impl Fn` and as `&dyn Fn`.
#[derive_frule]
pub trait Search {
    fn steps(&self) -> usize;
    /// The smallest value of `f` on a grid of `steps()` points over `[a, b]`, smoothed.
    fn soft_min(&self, f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
        let n = self.steps();
        let h = (b - a) / n as f64;
        let mut s = 0.0;
        for i in 0..=n {
            s += (-f(a + i as f64 * h)).exp();
        }
        -s.ln()
    }
    /// The mean of `f` at the same points.
    fn mean_of(&self, f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> f64 {
        let n = self.steps();
        let h = (b - a) / n as f64;
        let mut s = 0.0;
        for i in 0..=n {
            s += f(a + i as f64 * h);
        }
        s / (n + 1) as f64
    }
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Grid {
    pub n: usize,
}

#[derive_frule]
impl Search for Grid {
    fn steps(&self) -> usize {
        self.n
    }
}

/// A smoothed minimum and a mean of a shifted parabola `c (x - m)²`.
#[derive_frule]
pub fn parabola_summary<S: Search>(s: &S, m: f64, c: f64) -> f64 {
    let lo = s.soft_min(|x| c * (x - m) * (x - m), -2.0, 2.0);
    let mean = s.mean_of(&|x| c * (x - m) * (x - m), -2.0, 2.0);
    lo + 0.1 * mean
}

#[test]
fn default_methods_taking_impl_fn_and_dyn_fn_through_a_type_parameter_in_every_mode() {
    let s = Grid { n: 64 };
    check_modes!(
        bind(parabola_summary {}, (&s, Var(0), Var(1))),
        |x: &[f64]| parabola_summary(&s, x[0], x[1]),
        [0.4, 1.7]
    );
}
