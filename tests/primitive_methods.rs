//! `#[primitive(.., method)]`: the rule of another crate's extension-trait method on `f64`
//! (the `special` crate's `x.error()`, `x.compl_error()`, `x.gamma()`, `a.ln_beta(b)`),
//! whose `impl` cannot take `#[derive_frule]`. The rules are written once, in a module of
//! their own, and statistics code written as it is with `use special::{..};` calls the
//! methods in derived bodies of other modules, which bring the rules in with
//! `use crate::rules::*;`. Checked against the functions' derivatives in closed form and
//! central differences, in every mode (first order only for the rules declared `order = 1`),
//! primals bit for bit.

// `x.gamma()` is `special`'s (`f64::gamma` is unstable in `std`).
#![allow(unstable_name_collisions, clippy::needless_range_loop)]

mod common;

/// The rules of `special`'s methods, each `special`'s function on `f64`.
mod rules {
    use fwdad::prelude::*;
    use special::{Beta, Error, Gamma};
    use std::f64::consts::FRAC_2_SQRT_PI;

    /// erf, erf' = 2/√π e^(−x²); the partial is written on duals too (second order).
    #[primitive(d = FRAC_2_SQRT_PI * (-x * x).exp(), method)]
    pub fn error(x: f64) -> f64 {
        Error::error(x)
    }

    /// erfc under another name: `method = compl_error`.
    #[primitive(d = -FRAC_2_SQRT_PI * (-x * x).exp(), method = compl_error)]
    pub fn erfc_rule(x: f64) -> f64 {
        x.compl_error()
    }

    /// Γ' = Γ ψ: ψ is `special`'s, on plain floats only (`order = 1`).
    #[primitive(d = y * x.digamma(), order = 1, method)]
    pub fn gamma(x: f64) -> f64 {
        Gamma::gamma(x)
    }

    /// ln B(a, b), a method with an argument (`a.ln_beta(b)`): ∂/∂a = ψ(a) − ψ(a + b).
    #[primitive(d = (a.digamma() - (a + b).digamma(), b.digamma() - (a + b).digamma()), order = 1, method)]
    pub fn ln_beta(a: f64, b: f64) -> f64 {
        Beta::ln_beta(a, b)
    }
}

/// Statistics as a library writes it with `special`.
mod stats {
    use crate::rules::*;
    use fwdad::prelude::*;
    use special::{Beta, Error, Gamma};
    use std::f64::consts::{PI, SQRT_2};

    /// The normal distribution function of `x` with mean `mu` and deviation `sigma`.
    #[derive_frule]
    pub fn normal_cdf(x: f64, mu: f64, sigma: f64) -> f64 {
        0.5 * (1.0 + ((x - mu) / (sigma * SQRT_2)).error())
    }

    /// Its upper tail, through erfc (no cancellation far out).
    #[derive_frule]
    pub fn normal_sf(x: f64, mu: f64, sigma: f64) -> f64 {
        0.5 * ((x - mu) / (sigma * SQRT_2)).compl_error()
    }

    /// Student's t density with `nu` degrees of freedom.
    #[derive_frule]
    pub fn student_t_pdf(t: f64, nu: f64) -> f64 {
        let norm = ((nu + 1.0) / 2.0).gamma() / ((nu * PI).sqrt() * (nu / 2.0).gamma());
        norm * (1.0 + t * t / nu).powf(-(nu + 1.0) / 2.0)
    }

    /// The log-likelihood of proportions under a Beta(a, b) distribution.
    #[derive_frule]
    pub fn beta_log_likelihood(params: &[f64], data: &[f64]) -> f64 {
        let (a, b) = (params[0], params[1]);
        let mut ll = 0.0;
        for &x in data {
            ll += (a - 1.0) * x.ln() + (b - 1.0) * (1.0 - x).ln() - a.ln_beta(b);
        }
        ll
    }
}

use fwdad::prelude::*;
use special::{Beta, Error, Gamma};
use stats::*;
use std::f64::consts::{PI, SQRT_2};

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1e-3),
        "{what}: {got} against {want}"
    );
}

fn normal_pdf(x: f64, mu: f64, sigma: f64) -> f64 {
    (-(x - mu) * (x - mu) / (2.0 * sigma * sigma)).exp() / (sigma * (2.0 * PI).sqrt())
}

#[test]
fn normal_distribution_in_every_mode() {
    for p in [[0.3, 0.0, 1.0], [-1.7, 0.5, 2.0], [4.0, 1.0, 0.8]] {
        let [x, mu, sigma] = p;
        let plain = |v: &[f64]| normal_cdf(v[0], v[1], v[2]);
        let (y, g) = gradient(bind(normal_cdf {}, (Var(0), Var(1), Var(2))), &p);
        assert_eq!(y.to_bits(), normal_cdf(x, mu, sigma).to_bits());
        // ∂F/∂x = φ, ∂F/∂μ = −φ, ∂F/∂σ = −(x − μ)/σ φ.
        let phi = normal_pdf(x, mu, sigma);
        close(g[0], phi, 1e-13, "∂F/∂x");
        close(g[1], -phi, 1e-13, "∂F/∂μ");
        close(g[2], -(x - mu) / sigma * phi, 1e-13, "∂F/∂σ");
        check_modes!(bind(normal_cdf {}, (Var(0), Var(1), Var(2))), plain, p);
        let plain = |v: &[f64]| normal_sf(v[0], v[1], v[2]);
        let (y, g) = gradient(bind(normal_sf {}, (Var(0), Var(1), Var(2))), &p);
        assert_eq!(y.to_bits(), normal_sf(x, mu, sigma).to_bits());
        close(g[0], -phi, 1e-13, "∂(1 − F)/∂x");
        check_modes!(bind(normal_sf {}, (Var(0), Var(1), Var(2))), plain, p);
    }
    // The method's primal is `special`'s.
    let (y, d) = derivative(rules::error {}, 0.4);
    assert_eq!(y.to_bits(), 0.4f64.error().to_bits());
    close(d, 2.0 / PI.sqrt() * (-0.16f64).exp(), 1e-15, "erf'");
    let (_, _, h) = hessian(bind(normal_cdf {}, (Var(0), 0.0, 1.0)), &[0.7]);
    // φ'(x) = −x φ(x).
    close(h[(0, 0)], -0.7 * normal_pdf(0.7, 0.0, 1.0), 1e-12, "F''");
    assert_eq!(normal_sf(2.0, 0.0, 1.0), 0.5 * (2.0 / SQRT_2).compl_error());
}

/// ∂/∂xₖ by central differences.
fn fd(f: &dyn Fn(&[f64]) -> f64, x: &[f64], k: usize) -> f64 {
    common::modes::fd_gradient(f, x)[k]
}

#[test]
fn student_t_through_gamma_first_order() {
    for p in [[0.5, 3.0], [-2.0, 7.5], [1.2, 1.5]] {
        let [t, nu] = p;
        let plain = |v: &[f64]| student_t_pdf(v[0], v[1]);
        let rule = bind(student_t_pdf {}, (Var(0), Var(1)));
        let (y, g) = gradient(rule, &p);
        assert_eq!(y.to_bits(), student_t_pdf(t, nu).to_bits());
        // ∂f/∂t = −(ν + 1) t / (ν + t²) f, closed form.
        close(g[0], -(nu + 1.0) * t / (nu + t * t) * y, 1e-13, "∂f/∂t");
        // ∂ ln f/∂ν = ½ψ((ν+1)/2) − ½ψ(ν/2) − 1/(2ν) − ½ ln(1 + t²/ν) + (ν+1)t²/(2ν(ν+t²)).
        let dlog = 0.5 * ((nu + 1.0) / 2.0).digamma()
            - 0.5 * (nu / 2.0).digamma()
            - 0.5 / nu
            - 0.5 * (1.0 + t * t / nu).ln()
            + (nu + 1.0) * t * t / (2.0 * nu * (nu + t * t));
        close(g[1], y * dlog, 1e-12, "∂f/∂ν");
        for k in 0..2 {
            close(g[k], fd(&plain, &p, k), 1e-6, "central differences");
        }
        let (v, gb) = fwdad::drivers::gradient_with::<1>(rule, &p);
        assert_eq!(v.to_bits(), y.to_bits());
        for k in 0..2 {
            close(gb[k], g[k], 1e-14, "a batch of one direction");
        }
        let (v, d) = jvp(rule, &p, &[0.0, 1.0]);
        assert_eq!(v.to_bits(), y.to_bits());
        close(d, g[1], 1e-14, "one direction");
    }
    assert_eq!(5.0f64.gamma(), 24.0);
    assert_eq!(derivative(rules::gamma {}, 5.0).0, 24.0);
}

#[test]
fn beta_likelihood_gradient() {
    let data = [0.12, 0.4, 0.33, 0.81, 0.56, 0.27, 0.09, 0.64];
    let params = [2.0, 3.5];
    let (ll, g) = gradient(
        bind(beta_log_likelihood {}, (Wrt, Dual::constant(&data[..]))),
        &params,
    );
    assert_eq!(ll.to_bits(), beta_log_likelihood(&params, &data).to_bits());
    // ∂ℓ/∂a = Σ ln x − n(ψ(a) − ψ(a + b)), ∂ℓ/∂b = Σ ln(1 − x) − n(ψ(b) − ψ(a + b)).
    let n = data.len() as f64;
    let (a, b) = (params[0], params[1]);
    let sum_ln: f64 = data.iter().map(|x| x.ln()).sum();
    let sum_ln1m: f64 = data.iter().map(|x| (1.0 - x).ln()).sum();
    close(
        g[0],
        sum_ln - n * (a.digamma() - (a + b).digamma()),
        1e-12,
        "∂ℓ/∂a",
    );
    close(
        g[1],
        sum_ln1m - n * (b.digamma() - (a + b).digamma()),
        1e-12,
        "∂ℓ/∂b",
    );
    let plain = |p: &[f64]| beta_log_likelihood(p, &data);
    for k in 0..2 {
        close(g[k], fd(&plain, &params, k), 1e-6, "central differences");
    }
    assert_eq!(2.0f64.ln_beta(3.5), Beta::ln_beta(2.0, 3.5));
}
