//! What the domain programs (`tests/reach_domains_*.rs`) found, each a compile error
//! before: errors that carry values computed from the differentiated inputs
//! (`Err(residual)`, `Err(SolveError::Diverged { residual })` of an error type that is not
//! `Differentiable`; the error has no tangent, so its payload is built on primals, and the
//! `Ok` values keep their derivatives: a yield-curve bootstrap); `Vec::remove` and
//! `swap_remove` on a differentiated `Vec` (an L-BFGS history); methods called on the
//! `Box`ed children of a recursive enum (an expression tree); `rposition` with a predicate
//! reading the inputs (the layer of a standard atmosphere); `std::array::from_fn` (RK4
//! stages, pair distances); `Option::is_none_or` (Dijkstra's selection).

mod common;

use common::modes::assert_close;
use fwdad::drivers::Var;
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
        eprintln!("newton_sqrt: {err}");
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

/// A recursive expression, children boxed.
#[derive(Differentiable, Clone, Debug)]
pub enum Term {
    X,
    Num(f64),
    Sum(Box<Term>, Box<Term>),
    Prod(Box<Term>, Box<Term>),
    Ln(Box<Term>),
}

#[derive_frule]
impl Term {
    pub fn at(&self, x: f64) -> f64 {
        match self {
            Term::X => x,
            Term::Num(c) => *c,
            Term::Sum(a, b) => a.at(x) + b.at(x),
            Term::Prod(a, b) => a.at(x) * b.at(x),
            Term::Ln(a) => a.at(x).ln(),
        }
    }
}

#[derive_frule]
fn term_at(t: &Term, x: f64) -> f64 {
    t.at(x)
}

#[test]
fn methods_on_boxed_children() {
    use Term::*;
    // x · ln(x + 2) + 3
    let t = Sum(
        Box::new(Prod(
            Box::new(X),
            Box::new(Ln(Box::new(Sum(Box::new(X), Box::new(Num(2.0)))))),
        )),
        Box::new(Num(3.0)),
    );
    let x = 1.3;
    let (v, d) = derivative(bind(term_at {}, (&t, Wrt)), x);
    assert_eq!(v.to_bits(), term_at(&t, x).to_bits());
    assert_close(d, (x + 2.0).ln() + x / (x + 2.0), 1e-15, "d/dx");
    let (_, _, h) = hessian(bind(term_at {}, (&t, Var(0))), &[x]);
    assert_close(
        h[(0, 0)],
        1.0 / (x + 2.0) + 2.0 / (x + 2.0).powi(2),
        1e-14,
        "d²/dx²",
    );
}

const KNOTS: [(f64, f64); 4] = [(0.0, 1.0), (1.0, 3.0), (2.5, 2.0), (4.0, 5.0)];

/// Piecewise-linear interpolation, the segment found from the right.
#[derive_frule]
fn interp(t: f64) -> f64 {
    let i = KNOTS
        .iter()
        .rposition(|&(x, _)| t >= x)
        .unwrap_or(0)
        .min(KNOTS.len() - 2);
    let ((x0, y0), (x1, y1)) = (KNOTS[i], KNOTS[i + 1]);
    y0 + (t - x0) * (y1 - y0) / (x1 - x0)
}

#[test]
fn rposition_with_a_predicate_on_the_inputs() {
    for (t, slope) in [(0.5, 2.0), (1.7, -1.0 / 1.5), (3.0, 2.0), (4.5, 2.0)] {
        let (v, d) = derivative(interp {}, t);
        assert_eq!(v.to_bits(), interp(t).to_bits());
        assert_close(d, slope, 1e-15, &format!("slope at {t}"));
    }
    // The last match, as std's: every knot at or left of t matches.
    assert_eq!(KNOTS.iter().rposition(|&(x, _)| 3.0 >= x), Some(2));
    assert_eq!(interp(3.0), 2.0 + 0.5 * 3.0 / 1.5);
}

#[derive_frule]
fn norm3(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// `std::array::from_fn` with the length known only from where the array goes (a typed
/// parameter, a typed `let`), its closure reading the inputs or only its index.
#[derive_frule]
fn from_fn_uses(x: &[f64]) -> f64 {
    let weights: [f64; 3] = core::array::from_fn(|i| 1.0 + i as f64);
    let scaled = norm3(std::array::from_fn(|i| weights[i] * x[i]));
    let shifted: [f64; 3] = std::array::from_fn(|k| x[(k + 1) % 3] - x[k]);
    scaled + shifted.iter().map(|d| d * d).sum::<f64>()
}

#[test]
fn array_from_fn() {
    let x = [0.4, -1.1, 2.3];
    check_modes!(from_fn_uses {}, from_fn_uses, x);
    // Closed form of the first part: ∂/∂xᵢ |w ∘ x| = wᵢ² xᵢ / |w ∘ x|.
    let (_, g) = gradient(bind(scaled_norm {}, (Wrt,)), &x);
    let n = (x[0].powi(2) + 4.0 * x[1].powi(2) + 9.0 * x[2].powi(2)).sqrt();
    for i in 0..3 {
        let w = 1.0 + i as f64;
        assert_close(g[i], w * w * x[i] / n, 1e-15, &format!("∂/∂x{i}"));
    }
}

#[derive_frule]
fn scaled_norm(x: &[f64]) -> f64 {
    norm3(std::array::from_fn(|i| (1.0 + i as f64) * x[i]))
}

/// The index of the smallest value not yet taken, with `Option::is_none_or` (Dijkstra's
/// selection step).
#[derive_frule]
fn smallest_open(d: &[f64], taken: &[bool]) -> f64 {
    let mut best: Option<usize> = None;
    for v in 0..d.len() {
        if !taken[v] && best.is_none_or(|b| d[v] < d[b]) {
            best = Some(v);
        }
    }
    best.map_or(0.0, |b| d[b] * d[b])
}

#[test]
fn option_is_none_or() {
    let d = [3.0, 1.5, 0.5, 2.0];
    let taken = [false, false, true, false];
    let (v, g) = gradient(bind(smallest_open {}, (Wrt, &taken[..])), &d);
    assert_eq!(v, 2.25);
    assert_eq!(g, [0.0, 3.0, 0.0, 0.0]);
}
