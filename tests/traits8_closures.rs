//! A trait method taking a closure, called through a type parameter, as a numerics
//! library writes its quadrature rules: `trait Quadrature { fn integrate<F: Fn(f64) ->
//! f64>(&self, f: F, a: f64, b: f64) -> f64; }`, implemented by Simpson's rule and by
//! Gauss–Legendre, and a caller generic over the rule, `fn area<Q: Quadrature>(q: &Q, k:
//! f64)`. Checked against closed forms and central differences in one direction, batched
//! and at second order, primals bit for bit.

#![allow(clippy::manual_is_multiple_of)]

#[macro_use]
mod common;

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

/// A rule integrating `f` over `[a, b]`.
#[derive_frule]
pub trait Quadrature {
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64;
}

/// Composite Simpson's rule on `n` panels (rounded up to even).
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Simpson {
    pub n: usize,
}

#[derive_frule]
impl Quadrature for Simpson {
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64 {
        let n = if self.n % 2 == 0 { self.n } else { self.n + 1 };
        let h = (b - a) / n as f64;
        let mut s = f(a) + f(b);
        for i in 1..n {
            let x = a + i as f64 * h;
            s += if i % 2 == 1 { 4.0 * f(x) } else { 2.0 * f(x) };
        }
        s * h / 3.0
    }
}

/// Composite three-point Gauss–Legendre on `panels` panels.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct GaussLegendre {
    pub panels: usize,
}

#[derive_frule]
impl Quadrature for GaussLegendre {
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64 {
        let nodes = [-(0.6f64).sqrt(), 0.0, (0.6f64).sqrt()];
        let weights = [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0];
        let h = (b - a) / self.panels as f64;
        let mut total = 0.0;
        for p in 0..self.panels {
            let mid = a + (p as f64 + 0.5) * h;
            for (t, w) in nodes.iter().zip(weights.iter()) {
                total += w * f(mid + 0.5 * h * t);
            }
        }
        0.5 * h * total
    }
}

/// `∫₀¹ sin(kx) dx` by any rule.
#[derive_frule]
fn area<Q: Quadrature>(q: &Q, k: f64) -> f64 {
    q.integrate(|x| (k * x).sin(), 0.0, 1.0)
}

/// An expected loss under a Gaussian, its limits and integrand depending on the inputs.
#[derive_frule]
fn expected_loss<Q: Quadrature>(q: &Q, mu: f64, sigma: f64) -> f64 {
    let pdf = |x: f64| {
        (-(x - mu).powi(2) / (2.0 * sigma * sigma)).exp()
            / (sigma * (2.0 * std::f64::consts::PI).sqrt())
    };
    q.integrate(
        |x| (x - 1.0).powi(2) * pdf(x),
        mu - 8.0 * sigma,
        mu + 8.0 * sigma,
    )
}

/// A finite-difference operator taking the function as `impl Fn`.
#[derive_frule]
pub trait Differencer {
    fn slope(&self, f: impl Fn(f64) -> f64, x: f64) -> f64;
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Central {
    pub h: f64,
}

#[derive_frule]
impl Differencer for Central {
    fn slope(&self, f: impl Fn(f64) -> f64, x: f64) -> f64 {
        (f(x + self.h) - f(x - self.h)) / (2.0 * self.h)
    }
}

/// The central difference of `a t³` at `x`: `3 a x² + a h²`.
#[derive_frule]
fn tilt<D: Differencer>(d: &D, a: f64, x: f64) -> f64 {
    d.slope(|t| a * t * t * t, x)
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

#[test]
fn area_through_a_type_parameter_against_the_closed_form() {
    let simpson = Simpson { n: 400 };
    let gauss = GaussLegendre { panels: 40 };
    for k in [0.5f64, 1.3, 2.7] {
        // d/dk (1 − cos k)/k = (k sin k − 1 + cos k)/k².
        let want = (k * k.sin() - 1.0 + k.cos()) / (k * k);
        let (v, d) = derivative(bind(area {}, (&simpson, Var(0))), k);
        assert_eq!(v.to_bits(), area(&simpson, k).to_bits());
        assert!(close(d, want, 1e-9), "{d} {want}");
        let (v, d) = derivative(bind(area {}, (&gauss, Var(0))), k);
        assert_eq!(v.to_bits(), area(&gauss, k).to_bits());
        assert!(close(d, want, 1e-9), "{d} {want}");
        check_modes!(
            bind(area {}, (&simpson, Var(0))),
            |x: &[f64]| area(&simpson, x[0]),
            [k]
        );
        check_modes!(
            bind(area {}, (&gauss, Var(0))),
            |x: &[f64]| area(&gauss, x[0]),
            [k]
        );
    }
}

#[test]
fn expected_loss_in_every_mode() {
    let gauss = GaussLegendre { panels: 60 };
    let simpson = Simpson { n: 300 };
    // E[(X − 1)²] = σ² + (μ − 1)²: ∂/∂μ = 2(μ − 1), ∂/∂σ = 2σ.
    let (mu, sigma) = (0.4, 0.7);
    let (v, g) = gradient(
        bind(expected_loss {}, (&gauss, Var(0), Var(1))),
        &[mu, sigma],
    );
    assert_eq!(v.to_bits(), expected_loss(&gauss, mu, sigma).to_bits());
    assert!(close(g[0], 2.0 * (mu - 1.0), 1e-6), "{}", g[0]);
    assert!(close(g[1], 2.0 * sigma, 1e-6), "{}", g[1]);
    check_modes!(
        bind(expected_loss {}, (&gauss, Var(0), Var(1))),
        |x: &[f64]| expected_loss(&gauss, x[0], x[1]),
        [mu, sigma]
    );
    check_modes!(
        bind(expected_loss {}, (&simpson, Var(0), Var(1))),
        |x: &[f64]| expected_loss(&simpson, x[0], x[1]),
        [mu, sigma]
    );
}

#[test]
fn an_impl_fn_parameter_through_a_type_parameter() {
    let c = Central { h: 0.01 };
    let (a, x) = (1.5, 0.8);
    // ∂/∂a = 3x² + h², ∂/∂x = 6ax.
    let (v, g) = gradient(bind(tilt {}, (&c, Var(0), Var(1))), &[a, x]);
    assert_eq!(v.to_bits(), tilt(&c, a, x).to_bits());
    assert!(close(g[0], 3.0 * x * x + c.h * c.h, 1e-10), "{}", g[0]);
    assert!(close(g[1], 6.0 * a * x, 1e-10), "{}", g[1]);
    check_modes!(
        bind(tilt {}, (&c, Var(0), Var(1))),
        |p: &[f64]| tilt(&c, p[0], p[1]),
        [a, x]
    );
}
