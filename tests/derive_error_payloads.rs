//! Errors that carry values computed from the differentiated inputs (`Err(residual)`,
//! `Err(SolveError::Diverged { residual })` of an error type that is not
//! `Differentiable`): the error has no tangent, so its payload is built on primals, and
//! the `Ok` values keep their derivatives. Found writing a yield-curve bootstrap
//! (`tests/reach_domains_finance.rs`); before, each was a compile error. Also `Vec::remove`
//! and `swap_remove` on a differentiated `Vec` (an L-BFGS history).

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum SolveError {
    Diverged { residual: f64, iterations: usize },
    NotPositive(f64),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Diverged {
                residual,
                iterations,
            } => write!(
                f,
                "no convergence after {iterations} steps (residual {residual})"
            ),
            SolveError::NotPositive(x) => write!(f, "{x} is not positive"),
        }
    }
}

/// √a by Newton, failing with the residual after `max_iter` steps.
#[derive_frule]
fn newton_sqrt(a: f64, max_iter: usize) -> Result<f64, SolveError> {
    if a <= 0.0 {
        return Err(SolveError::NotPositive(a));
    }
    let mut x = a.max(1.0);
    for _ in 0..max_iter {
        x = 0.5 * (x + a / x);
    }
    let residual = x * x - a;
    if residual.abs() > 1e-9 * a {
        let err = SolveError::Diverged {
            residual,
            iterations: max_iter,
        };
        return Err(err);
    }
    Ok(x)
}

/// The error's payload is a plain float.
#[derive_frule]
fn checked_ln(x: f64) -> Result<f64, f64> {
    if x > 0.0 {
        Ok(x.ln())
    } else {
        Err(x)
    }
}

/// Through `?` and a `match` on the result.
#[derive_frule]
fn sqrt_sum(a: &[f64]) -> f64 {
    let mut total = 0.0;
    for &v in a {
        total += match newton_sqrt(v, 40) {
            Ok(r) => r,
            Err(SolveError::NotPositive(_)) => 0.0,
            Err(e) => panic!("{e}"),
        };
    }
    total
}

#[derive_frule]
fn log_sum(a: &[f64]) -> Result<f64, f64> {
    let mut s = 0.0;
    for &v in a {
        s += checked_ln(v)?;
    }
    Ok(s)
}

#[test]
fn ok_values_keep_their_derivatives() {
    let x = [2.0, 0.7, -1.0, 5.0];
    let (v, g) = gradient(sqrt_sum {}, &x);
    assert_eq!(v.to_bits(), sqrt_sum(&x).to_bits());
    for k in 0..4 {
        let want = if x[k] > 0.0 { 0.5 / x[k].sqrt() } else { 0.0 };
        assert_close(g[k], want, 1e-12, &format!("∂/∂x{k}"));
    }
    let (_, _, h) = hessian(sqrt_sum {}, &x);
    assert_close(h[(0, 0)], -0.25 * 2f64.powf(-1.5), 1e-12, "∂²/∂x0²");
    let r = log_sum_frule(Dual::new(&[2.0, 3.0][..], &[1.0, 1.0][..]));
    assert_eq!(r.primal, Ok(6f64.ln()));
    assert_close(r.tangent.unwrap(), 0.5 + 1.0 / 3.0, 1e-15, "d log_sum");
}

#[test]
fn errors_carry_the_primal_payload() {
    // Three steps from 1e6 are far from √1e6: the residual is the plain function's.
    let plain = newton_sqrt(1e6, 3).unwrap_err();
    let r = newton_sqrt_frule(Dual::new(1e6, 1.0), Dual::new(3, NoTangent));
    assert_eq!(r.primal, Err(plain.clone()));
    assert!(plain
        .to_string()
        .starts_with("no convergence after 3 steps"));
    let r = newton_sqrt_frule(Dual::new(-2.0, 1.0), Dual::new(3, NoTangent));
    assert_eq!(r.primal, Err(SolveError::NotPositive(-2.0)));
    let r = log_sum_frule(Dual::new(&[2.0, -3.0, 4.0][..], &[1.0, 1.0, 1.0][..]));
    assert_eq!(r.primal, Err(-3.0));
    let r = checked_ln_frule(Dual::new(-0.5, 1.0));
    assert_eq!(r.primal, Err(-0.5));
}

/// A bounded history as L-BFGS keeps it: the oldest pair dropped with `remove(0)`.
#[derive_frule]
fn windowed_mean(x: &[f64], window: usize) -> f64 {
    let mut hist: Vec<f64> = Vec::new();
    let mut acc = 0.0;
    for &v in x {
        if hist.len() == window {
            let oldest = hist.remove(0);
            acc -= 0.1 * oldest;
        }
        hist.push(v * v);
        acc += hist.iter().sum::<f64>();
    }
    let last = hist.swap_remove(0);
    acc + last
}

#[test]
fn vec_remove_and_swap_remove() {
    let x = [0.5, -1.2, 2.0, 0.3, 1.1];
    check_modes!(
        bind(windowed_mean {}, (Wrt, 2)),
        |x: &[f64]| windowed_mean(x, 2),
        x
    );
}
