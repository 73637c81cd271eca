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
