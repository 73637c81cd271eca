//! What the fifteenth session's newcomer programs found, in small programs written as
//! they wrote them. Each failed to compile before its fix.
//! Derivatives against closed forms and central differences, primals bit for bit.

use fwdad::drivers::{derivative, gradient, jvp, Inactive, Var, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

/// A method selector, as users pass one: an enum of units with no `Differentiable`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scheme {
    Euler,
    SymplecticEuler,
    Midpoint,
}

/// A damped oscillator's displacement after `steps` steps of the chosen scheme.
#[derive_frule]
fn displacement(k: f64, c: f64, scheme: Scheme, steps: usize) -> f64 {
    let dt = 0.01;
    let (mut x, mut v) = (1.0, 0.0);
    for _ in 0..steps {
        match scheme {
            Scheme::Euler => {
                let a = -k * x - c * v;
                x += dt * v;
                v += dt * a;
            }
            Scheme::SymplecticEuler => {
                v += dt * (-k * x - c * v);
                x += dt * v;
            }
            Scheme::Midpoint => {
                let a = -k * x - c * v;
                let (xm, vm) = (x + 0.5 * dt * v, v + 0.5 * dt * a);
                x += dt * vm;
                v += dt * (-k * xm - c * vm);
            }
        }
    }
    x
}

/// The selector borrowed, and compared with `==` and `matches!`.
#[derive_frule]
fn activation(x: f64, kind: &Scheme) -> f64 {
    if *kind == Scheme::Euler {
        x.tanh()
    } else if matches!(kind, Scheme::Midpoint) {
        x / (1.0 + (-x).exp())
    } else {
        x.max(0.0)
    }
}

/// A caller passing the selectors on: a literal variant and its own parameter.
#[derive_frule]
fn energy(p: &[f64], scheme: Scheme) -> f64 {
    let x1 = displacement(p[0], p[1], scheme, 200);
    let x2 = displacement(p[0], p[1], Scheme::Midpoint, 100);
    0.5 * p[0] * x1 * x1 + activation(x2, &scheme)
}

#[test]
fn enum_of_units_by_value_is_constant_data() {
    // Closed form of one explicit Euler step from (1, 0): x₁ = 1, v₁ = -k·dt; two steps:
    // x₂ = 1 - k·dt², so ∂x₂/∂k = -dt².
    let (v, d) = derivative(
        bind(displacement {}, (Wrt, 0.3, Inactive(Scheme::Euler), 2)),
        4.0,
    );
    same(v, displacement(4.0, 0.3, Scheme::Euler, 2), 0.0, "primal");
    assert_close(d, -1e-4, 1e-12, "d x2 / dk");
    for scheme in [Scheme::Euler, Scheme::SymplecticEuler, Scheme::Midpoint] {
        let plain = |p: &[f64]| displacement(p[0], p[1], scheme, 300);
        let (v, g) = gradient(
            bind(displacement {}, (Var(0), Var(1), Inactive(scheme), 300)),
            &[4.0, 0.3],
        );
        same(v, plain(&[4.0, 0.3]), 0.0, "primal");
        let want = fd_gradient(&plain, &[4.0, 0.3]);
        for i in 0..2 {
            assert_close(g[i], want[i], 1e-6, &format!("{scheme:?} d/dp{i}"));
        }
        let d = displacement_frule(Dual::new(4.0, 1.0), Dual::new(0.3, 0.0), scheme, 300);
        same(d.tangent, g[0], 1e-12, "rule against the driver");
    }
}

#[test]
fn enum_of_units_borrowed_and_passed_on() {
    for x in [-1.3, 0.4, 2.0] {
        let (_, d) = derivative(bind(activation {}, (Wrt, &Scheme::Euler)), x);
        assert_close(d, 1.0 - x.tanh().powi(2), 1e-14, "tanh'");
        let (_, d) = derivative(bind(activation {}, (Wrt, &Scheme::SymplecticEuler)), x);
        assert_close(d, if x > 0.0 { 1.0 } else { 0.0 }, 0.0, "relu'");
    }
    for scheme in [Scheme::Euler, Scheme::SymplecticEuler, Scheme::Midpoint] {
        check_widths!(
            bind(energy {}, (Wrt, Inactive(scheme))),
            |p: &[f64]| energy(p, scheme),
            [4.0, 0.3]
        );
    }
}

/// Outlier rejection as a data scientist writes it: residuals beyond three robust
/// deviations dropped with `retain`, then the mean square of the rest.
#[derive_frule]
fn trimmed_mse(theta: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let mut resid: Vec<f64> = xs
        .iter()
        .zip(ys)
        .map(|(x, y)| y - theta[0] - theta[1] * x)
        .collect();
    let scale = resid.iter().map(|r| r.abs()).sum::<f64>() / resid.len() as f64;
    resid.retain(|r| r.abs() < 3.0 * scale);
    resid.iter().map(|r| r * r).sum::<f64>() / resid.len() as f64
}

/// Knots closer than a tolerance merged with `dedup_by` (the later one dropped), points
/// of the upper half-plane kept with `retain` on arrays.
#[derive_frule]
fn knot_spread(p: &[f64]) -> f64 {
    let mut knots: Vec<f64> = p.iter().map(|v| v * v).collect();
    knots.sort_by(|a, b| a.partial_cmp(b).unwrap());
    knots.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    let mut pts: Vec<[f64; 2]> = p.windows(2).map(|w| [w[0], w[1] * w[0]]).collect();
    pts.retain(|q| q[1] > 0.0);
    let spread: f64 = knots.windows(2).map(|w| (w[1] - w[0]).ln()).sum();
    spread + pts.iter().map(|q| q[0] * q[1]).sum::<f64>()
}

#[test]
fn retain_and_dedup_by_of_a_vec() {
    let xs = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
    let ys = [0.1, 1.2, 1.9, 3.2, 14.0, 5.1, 5.8, 7.1];
    let theta = [0.05, 1.01];
    // The outlier (x = 4) is dropped: the rest's mean square has the least-squares
    // gradient over the seven points kept, written out by hand.
    let (v, g) = gradient(bind(trimmed_mse {}, (Wrt, &xs[..], &ys[..])), &theta);
    same(v, trimmed_mse(&theta, &xs, &ys), 0.0, "primal");
    let kept: Vec<usize> = (0..8).filter(|&i| i != 4).collect();
    let r = |i: usize| ys[i] - theta[0] - theta[1] * xs[i];
    let want = [
        kept.iter().map(|&i| -2.0 * r(i)).sum::<f64>() / 7.0,
        kept.iter().map(|&i| -2.0 * r(i) * xs[i]).sum::<f64>() / 7.0,
    ];
    assert_close(g[0], want[0], 1e-12, "d/dθ0");
    assert_close(g[1], want[1], 1e-12, "d/dθ1");
    check_widths!(
        bind(trimmed_mse {}, (Wrt, &xs[..], &ys[..])),
        |t: &[f64]| trimmed_mse(t, &xs, &ys),
        theta
    );
    // 1.0 and 1.02 squared are 1.0 and 1.0404: within 0.05, the second is dropped.
    let p = [1.0, 0.6, -1.02, 1.5, 0.3, -0.8];
    let mut knots: Vec<f64> = p.iter().map(|v| v * v).collect();
    knots.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(knots.len(), 6);
    knots.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    assert_eq!(knots.len(), 5, "the test's point keeps a duplicate to drop");
    check_widths!(knot_spread {}, knot_spread, p);
}
