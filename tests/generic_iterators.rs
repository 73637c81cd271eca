//! Parameters generic over iterators, as library code takes coefficient tables
//! (`fn polynomial<I: IntoIterator<Item = f64>>(x: f64, coefficients: I)`, puruspe's):
//! the elements are constant data, the rule takes the iterable (an array, a `Vec`, a
//! slice, a slice's `iter().copied()`, ...) or, from another derived body, its constant
//! dual. Checked against closed forms and central differences in one direction, batched
//! and at second order, primals bit for bit.

#[macro_use]
mod common;

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;
use num_traits::Float;

/// Horner's rule with a `for` loop over the coefficients (highest degree first).
#[derive_frule]
pub fn horner<I>(x: f64, coefficients: I) -> f64
where
    I: IntoIterator<Item = f64>,
{
    let mut acc = 0.0;
    for c in coefficients {
        acc = acc * x + c;
    }
    acc
}

/// Horner's rule as a `fold`, generic over the float type of the point and the items.
#[derive_frule]
pub fn horner_fold<T: Float, I: IntoIterator<Item = T>>(x: T, coefficients: I) -> T {
    coefficients
        .into_iter()
        .fold(T::zero(), |acc, c| acc * x + c)
}

/// A sum of decaying exponentials with the rates given by any iterator.
#[derive_frule]
pub fn decay_sum<It: Iterator<Item = f64>>(t: f64, rates: It) -> f64 {
    rates.map(|k| (-k * t).exp()).sum::<f64>()
}

/// A Gaussian mixture's density at `x` with one width, the centres from an iterator.
#[derive_frule]
pub fn mixture_density<I>(x: f64, sigma: f64, centres: I) -> f64
where
    I: IntoIterator<Item = f64>,
{
    let mut p = 0.0;
    let mut n = 0;
    for mu in centres {
        let z = (x - mu) / sigma;
        p += (-0.5 * z * z).exp();
        n += 1;
    }
    p / (n as f64 * sigma * (2.0 * std::f64::consts::PI).sqrt())
}

/// `Σ wₖ xᵏ` with the weights as an `impl IntoIterator` (lowest degree first).
#[derive_frule]
pub fn power_series(x: f64, weights: impl IntoIterator<Item = f64>) -> f64 {
    let mut s = 0.0;
    let mut p = 1.0;
    for w in weights {
        s += w * p;
        p *= x;
    }
    s
}

/// `decay_sum` with the rates as an `impl Iterator`.
#[derive_frule]
pub fn decay_sum_impl(t: f64, rates: impl Iterator<Item = f64>) -> f64 {
    rates.map(|k| (-k * t).exp()).sum::<f64>()
}

const P: [f64; 4] = [0.5, -1.0, 2.0, 3.0];

/// Callers pass arrays, `Vec`s and constants from derived bodies.
#[derive_frule]
fn uses_tables(v: &[f64]) -> f64 {
    let (x, s) = (v[0], v[1]);
    horner(x, P)
        + horner(s, vec![1.0, 0.0, -2.0]) * mixture_density(x, s, [0.0, 1.5, -0.5])
        + horner_fold(x * s, [1.0, 1.0, 1.0])
        + power_series(s, vec![1.0, -0.5, 0.25])
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

#[test]
fn horner_against_the_derivative_polynomial() {
    for x in [-1.3, 0.2, 2.5] {
        // p = x³/2 − x² + 2x + 3, p' = 3x²/2 − 2x + 2, p'' = 3x − 2.
        let d = horner_frule(Dual::new(x, 1.0), P);
        assert_eq!(d.primal.to_bits(), horner(x, P).to_bits());
        assert!(close(d.tangent, 1.5 * x * x - 2.0 * x + 2.0, 1e-15));
        let d = horner_fold_frule(Dual::new(x, 1.0), P.iter().copied());
        assert_eq!(d.primal.to_bits(), horner_fold(x, P).to_bits());
        assert!(close(d.tangent, 1.5 * x * x - 2.0 * x + 2.0, 1e-15));
        let (_, _, d2) = fwdad::drivers::second_derivative(bind(horner {}, (Var(0), P)), x);
        assert!(close(d2, 3.0 * x - 2.0, 1e-15));
        check_modes!(
            bind(horner {}, (Var(0), P)),
            |v: &[f64]| horner(v[0], P),
            [x]
        );
        check_modes!(
            bind(horner_fold {}, (Var(0), P)),
            |v: &[f64]| horner_fold(v[0], P),
            [x]
        );
    }
    // f32 points and items.
    let c32 = [0.5f32, -1.0, 2.0, 3.0];
    let d = horner_fold_frule(Dual::new(0.75f32, 1.0), c32);
    assert_eq!(d.primal.to_bits(), horner_fold(0.75f32, c32).to_bits());
    assert!(close(d.tangent as f64, 1.5 * 0.5625 - 1.5 + 2.0, 1e-6));
}

#[test]
fn iterator_parameters_in_every_mode() {
    for (t, rates) in [(0.3, vec![0.5, 2.0, 4.0]), (1.7, vec![0.1])] {
        let d = decay_sum_frule(Dual::new(t, 1.0), rates.iter().copied());
        assert_eq!(
            d.primal.to_bits(),
            decay_sum(t, rates.iter().copied()).to_bits()
        );
        let want: f64 = rates.iter().map(|k| -k * (-k * t).exp()).sum();
        assert!(close(d.tangent, want, 1e-15));
    }
    // `impl Iterator` / `impl IntoIterator` parameters, called directly.
    let rates = [0.5, 2.0, 4.0];
    let d = decay_sum_impl_frule(Dual::new(0.3, 1.0), rates.iter().copied());
    assert_eq!(
        d.primal.to_bits(),
        decay_sum_impl(0.3, rates.iter().copied()).to_bits()
    );
    let want: f64 = rates.iter().map(|k| -k * (-k * 0.3f64).exp()).sum();
    assert!(close(d.tangent, want, 1e-15));
    // 1 − x/2 + x²/4: its derivative −1/2 + x/2.
    let d = power_series_frule(Dual::new(0.6, 1.0), vec![1.0, -0.5, 0.25]);
    assert_eq!(
        d.primal.to_bits(),
        power_series(0.6, [1.0, -0.5, 0.25]).to_bits()
    );
    assert!(close(d.tangent, -0.5 + 0.3, 1e-15));
    check_modes!(
        bind(power_series {}, (Var(0), [1.0, -0.5, 0.25])),
        |v: &[f64]| power_series(v[0], [1.0, -0.5, 0.25]),
        [0.6]
    );
    let centres = [0.0, 1.5, -0.5];
    check_modes!(
        bind(mixture_density {}, (Var(0), Var(1), centres)),
        |v: &[f64]| mixture_density(v[0], v[1], centres),
        [0.4, 0.8]
    );
    check_modes!(uses_tables {}, uses_tables, [0.4, 0.8]);
    check_modes!(uses_tables {}, uses_tables, [-1.1, 1.3]);
}
