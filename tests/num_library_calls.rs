//! Generic `T: Float` library code called from derived bodies: the library function is
//! wrapped once in a `#[primitive(rule = ..)]` whose rule instantiates it at `Dual` (the
//! pattern `fwdad_runtime::num` documents), so every mode runs the library's own code.
//!
//! Checked against gradients and Hessians worked out by hand and against central finite
//! differences; primals bit-identical to the plain call.
// Gradients and Hessians are indexed as the math writes them.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::testing::test_frule;
use fwdad::ScalarTangent;
use num_traits::{Float, FromPrimitive};
use std::iter::Sum;

/// "Library" code: generic, as numerical crates write it, and never annotated.
mod library {
    use super::*;

    /// Extended Rosenbrock function.
    pub fn rosenbrock<T: Float + FromPrimitive + Sum>(x: &[T]) -> T {
        let hundred = T::from_f64(100.0).unwrap();
        x.windows(2)
            .map(|w| hundred * (w[1] - w[0] * w[0]).powi(2) + (T::one() - w[0]).powi(2))
            .sum()
    }

    /// Softplus `ln(1 + eˣ)`, stably.
    pub fn softplus<T: Float>(x: T) -> T {
        x.max(T::zero()) + (-x.abs()).exp().ln_1p()
    }
}

/// The wrapper: the plain function calls the library at `f64`; the rule calls it at
/// `Dual<f64, T>`, for every tangent type `T` (one direction, batches, second order).
#[primitive(rule = rosenbrock_rule)]
fn rosenbrock(x: &[f64]) -> f64 {
    library::rosenbrock(x)
}

fn rosenbrock_rule<T: ScalarTangent<f64>>(x: Dual<&[f64], &[T]>) -> Dual<f64, T> {
    let xd: Vec<Dual<f64, T>> = (0..x.len()).map(|i| x.at(i).copied()).collect();
    library::rosenbrock(&xd)
}

#[primitive(rule = softplus_rule)]
fn softplus(x: f64) -> f64 {
    library::softplus(x)
}

fn softplus_rule<T: ScalarTangent<f64>>(x: Dual<f64, T>) -> Dual<f64, T> {
    library::softplus(x)
}

/// The user's derived code, calling the wrapped library functions.
#[derive_frule]
fn regularised_loss(x: &[f64]) -> f64 {
    let mut penalty = 0.0;
    for v in x {
        penalty += softplus(*v - 2.5);
    }
    rosenbrock(x) + 0.5 * penalty
}

/// `∇` of `regularised_loss`, by hand.
fn regularised_loss_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let sigmoid = |v: f64| 1.0 / (1.0 + (-v).exp());
    let mut g: Vec<f64> = x.iter().map(|&v| 0.5 * sigmoid(v - 2.5)).collect();
    for i in 0..n - 1 {
        let t = x[i + 1] - x[i] * x[i];
        g[i] += -400.0 * x[i] * t - 2.0 * (1.0 - x[i]);
        g[i + 1] += 200.0 * t;
    }
    g
}

/// `∇²` of `regularised_loss`, by hand.
fn regularised_loss_hessian(x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let sigmoid = |v: f64| 1.0 / (1.0 + (-v).exp());
    let mut h = vec![vec![0.0; n]; n];
    for i in 0..n {
        let s = sigmoid(x[i] - 2.5);
        h[i][i] += 0.5 * s * (1.0 - s);
    }
    for i in 0..n - 1 {
        h[i][i] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
        h[i][i + 1] -= 400.0 * x[i];
        h[i + 1][i] -= 400.0 * x[i];
        h[i + 1][i + 1] += 200.0;
    }
    h
}

/// Away from `x = 2.5`, where the stable softplus formula has its kinks (`max`, `abs`):
/// there the rules' conventions give the right first derivative but not the second.
const POINTS: [[f64; 4]; 3] = [
    [-1.2, 1.0, 0.3, 2.0],
    [0.5, 0.25, 1.5, -0.7],
    [1.0, 1.0, 1.0, 1.0],
];

#[track_caller]
fn assert_close(got: f64, want: f64, rtol: f64) {
    assert!(
        (got - want).abs() <= rtol * want.abs().max(1.0),
        "got {got:e}, want {want:e}"
    );
}

#[test]
fn library_code_in_a_derived_body_one_direction_and_batches() {
    for x in POINTS {
        let (v, g) = fwdad::gradient(regularised_loss {}, &x);
        assert_eq!(v.to_bits(), regularised_loss(&x).to_bits());
        let want = regularised_loss_gradient(&x);
        for i in 0..4 {
            assert_close(g[i], want[i], 1e-13);
            let e: Vec<f64> = (0..4).map(|k| if k == i { 1.0 } else { 0.0 }).collect();
            let y = regularised_loss_frule(Dual::new(&x[..], &e[..]));
            assert_close(y.tangent, want[i], 1e-13);
        }
        test_frule(
            x.to_vec(),
            |p| regularised_loss(&p[..]),
            |p, dp| regularised_loss_frule(Dual::new(&p[..], &dp[..])),
        );
    }
}

#[test]
fn library_code_in_a_derived_body_second_order() {
    for x in POINTS {
        let (v, _, h) = fwdad::hessian(regularised_loss {}, &x);
        assert_eq!(v.to_bits(), regularised_loss(&x).to_bits());
        let want = regularised_loss_hessian(&x);
        for i in 0..4 {
            for j in 0..4 {
                assert_close(h[(i, j)], want[i][j], 1e-12);
            }
        }
    }
}
