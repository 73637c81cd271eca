//! Functions passed as values (issue #28): closures and named functions given to the
//! user's own quadrature, root finders, ODE solvers and objectives, differentiated through
//! both the caller and the callee, in every mode. Derivatives are checked against central
//! finite differences of the plain functions and, where one exists, a closed form;
//! primals bit for bit against the plain functions.
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;

/// Composite Simpson's rule on `[a, b]` with `n` (even) intervals.
#[derive_frule]
fn simpson<F: Fn(f64) -> f64>(f: F, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = f(a) + f(b);
    for i in 1..n {
        let x = a + i as f64 * h;
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        s += w * f(x);
    }
    s * h / 3.0
}

#[derive_frule]
fn loss(x: f64) -> f64 {
    (x - 1.0).powi(2)
}

#[derive_frule]
fn normal_pdf(x: f64, mu: f64, sigma: f64) -> f64 {
    let z = (x - mu) / sigma;
    (-0.5 * z * z).exp() / (sigma * (2.0 * std::f64::consts::PI).sqrt())
}

/// E[(X − 1)²] for X ~ N(μ, σ²), by quadrature over ±6: the integrand captures μ and σ.
#[derive_frule]
fn expected_loss(mu: f64, sigma: f64) -> f64 {
    simpson(|x| loss(x) * normal_pdf(x, mu, sigma), -6.0, 6.0, 200)
}

/// Central differences of a function of two scalars.
fn fd2(f: impl Fn(f64, f64) -> f64, a: f64, b: f64) -> [f64; 2] {
    let h = 1e-6;
    [
        (f(a + h, b) - f(a - h, b)) / (2.0 * h),
        (f(a, b + h) - f(a, b - h)) / (2.0 * h),
    ]
}

#[test]
fn quadrature_of_a_capturing_closure_one_direction() {
    let (mu, sigma) = (0.3, 0.8);
    test_frule(
        (mu, sigma),
        |a| expected_loss(a.0, a.1),
        |a, da| expected_loss_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
    );
    // Closed form: E[(X − 1)²] = (μ − 1)² + σ², so ∇ = (2(μ − 1), 2σ) up to the
    // quadrature's error (the integrand is truncated at ±6, 200 intervals).
    let dmu = expected_loss_frule(Dual::new(mu, 1.0), Dual::new(sigma, 0.0));
    let dsigma = expected_loss_frule(Dual::new(mu, 0.0), Dual::new(sigma, 1.0));
    assert_eq!(dmu.primal.to_bits(), expected_loss(mu, sigma).to_bits());
    approx::assert_relative_eq!(dmu.tangent, 2.0 * (mu - 1.0), max_relative = 1e-6);
    approx::assert_relative_eq!(dsigma.tangent, 2.0 * sigma, max_relative = 1e-6);
}

#[test]
fn quadrature_of_a_capturing_closure_batched_and_second_order() {
    let (mu, sigma) = (0.3, 0.8);
    test_frule_batched::<2, _, _>(
        (mu, sigma),
        |a| expected_loss(a.0, a.1),
        |a, da| {
            <expected_loss as Frule<_, Batch<f64, 2>>>::frule(
                &expected_loss {},
                (Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
            )
        },
    );
    // Hessian by Hyper tangents against central differences of the derived gradient.
    let grad = |m: f64, s: f64| {
        [
            expected_loss_frule(Dual::new(m, 1.0), Dual::new(s, 0.0)).tangent,
            expected_loss_frule(Dual::new(m, 0.0), Dual::new(s, 1.0)).tangent,
        ]
    };
    let dirs = [[1.0, 0.0], [0.0, 1.0]];
    for (i, u) in dirs.iter().enumerate() {
        let fd = fd2(|m, s| grad(m, s)[i], mu, sigma);
        for (j, v) in dirs.iter().enumerate() {
            let seed = |k: usize| Hyper {
                d1: u[k],
                d2: v[k],
                d12: 0.0,
            };
            let out = <expected_loss as Frule<_, Hyper<f64, f64>>>::frule(
                &expected_loss {},
                (Dual::new(mu, seed(0)), Dual::new(sigma, seed(1))),
            );
            assert_eq!(out.primal.to_bits(), expected_loss(mu, sigma).to_bits());
            approx::assert_relative_eq!(
                out.tangent.d12,
                fd[j],
                epsilon = 1e-6,
                max_relative = 1e-6
            );
        }
    }
    // The closed form's Hessian is diag(2, 2).
    let out = <expected_loss as Frule<_, Hyper<f64, f64>>>::frule(
        &expected_loss {},
        (
            Dual::new(
                mu,
                Hyper {
                    d1: 0.0,
                    d2: 0.0,
                    d12: 0.0,
                },
            ),
            Dual::new(
                sigma,
                Hyper {
                    d1: 1.0,
                    d2: 1.0,
                    d12: 0.0,
                },
            ),
        ),
    );
    approx::assert_relative_eq!(out.tangent.d12, 2.0, max_relative = 1e-5);
}
