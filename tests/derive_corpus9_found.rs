//! What the ninth corpus (quadrature 0.1.2, statrs 0.19.1's distributions) found, in small
//! programs, each checked in every mode against central differences.

mod common;

use fwdad::prelude::*;

/// Sums a function over symmetric nodes of `[-1, 1]` (a rule's core, as quadrature's
/// `integrate_core` is).
#[derive_frule]
fn core_rule<F>(f: F, n: usize) -> f64
where
    F: Fn(f64) -> f64,
{
    let mut s = f(0.0);
    for i in 1..=n {
        let x = i as f64 / (n as f64 + 1.0);
        s += f(x) + f(-x);
    }
    s / (2 * n + 1) as f64 * 2.0
}

/// A change of variables: the caller's `f` on `[a, b]` wrapped in a closure on `[-1, 1]`
/// handed on (quadrature 0.1.2's `integrate`). Was: ``can only call functions by path``
/// (the closure's body read the borrowed `f` as `(*f)`).
#[derive_frule]
fn on_interval<F>(f: F, a: f64, b: f64) -> f64
where
    F: Fn(f64) -> f64,
{
    let c = 0.5 * (b - a);
    let d = 0.5 * (a + b);
    c * core_rule(|x| f(c * x + d), 8)
}

/// The same through `&dyn Fn` (a copied capture) and `impl Fn` parameters.
#[derive_frule]
fn on_unit_dyn(f: &dyn Fn(f64) -> f64, s: f64) -> f64 {
    core_rule(|x| s * f(0.5 * x + 0.5), 6)
}

#[derive_frule]
fn on_unit_impl(f: impl Fn(f64) -> f64, s: f64) -> f64 {
    core_rule(|x| s * f(0.5 * x + 0.5), 6)
}

#[derive_frule]
fn wrapped(p: &[f64]) -> f64 {
    let (k, a, b) = (p[0], p[1], p[2]);
    let g = |x: f64| (k * x).exp();
    on_interval(|x| (k * x).sin(), a, b) + on_unit_dyn(&g, a) + on_unit_impl(|x| k * x * x, b)
}

#[test]
fn a_function_value_wrapped_in_a_closure_passed_on() {
    for p in [[0.7, 0.0, 2.0], [1.3, -0.5, 1.5]] {
        crate::check_modes!(wrapped {}, wrapped, p);
    }
}

// ---------------------------------------------------------------------------------------
// statrs' distributions implement generic traits of the crate at `f64`
// (`impl ContinuousCDF<f64, f64> for Normal`). Was: `#[derive_frule]` on such an `impl`
// asked for the attribute on the trait, which a generic trait cannot take; now the methods
// get the type's rules, and calls on the type reach them.

pub trait Density<K, T> {
    fn pdf(&self, x: K) -> T;
    fn ln_pdf(&self, x: K) -> T;
}

pub trait Bounds<T> {
    fn lower(&self) -> T;
}

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Logistic {
    location: f64,
    scale: f64,
}

#[derive_frule]
impl Density<f64, f64> for Logistic {
    fn pdf(&self, x: f64) -> f64 {
        let z = (-(x - self.location) / self.scale).exp();
        z / (self.scale * (1.0 + z) * (1.0 + z))
    }

    fn ln_pdf(&self, x: f64) -> f64 {
        self.pdf(x).ln()
    }
}

#[derive_frule]
impl Bounds<f64> for Logistic {
    fn lower(&self) -> f64 {
        f64::NEG_INFINITY
    }
}

#[derive_frule]
fn logistic_nll(p: &[f64]) -> f64 {
    let d = Logistic {
        location: p[0],
        scale: p[1],
    };
    let data = [0.3, 1.9, -0.4, 1.1];
    let mut nll = 0.0;
    for x in data {
        if x > d.lower() {
            nll -= d.ln_pdf(x);
        }
    }
    nll
}

#[test]
fn methods_of_a_generic_traits_impl_at_f64() {
    for p in [[0.5, 1.2], [0.9, 0.7]] {
        crate::check_modes!(logistic_nll {}, logistic_nll, p);
    }
}

// ---------------------------------------------------------------------------------------
// A `&mut f64` parameter read inside another crate's macro (statrs' `fn convergence(x: &mut
// f64, x_new: f64) -> bool { let res = relative_eq!(*x, x_new); *x = x_new; res }`, which its
// gamma quantile's Newton iteration calls). Was: ``the trait bound `&mut f64: Clone` is not
// satisfied`` (the macro's operands were copied by `Clone`).

#[derive_frule]
fn converged(x: &mut f64, x_new: f64) -> bool {
    let res = approx::relative_eq!(*x, x_new);
    *x = x_new;
    res
}

/// √a by Newton's method until `converged`.
#[derive_frule]
fn newton_sqrt(p: &[f64]) -> f64 {
    let a = p[0];
    let mut x = a.max(1.0);
    for _ in 0..100 {
        let next = 0.5 * (x + a / x);
        if converged(&mut x, next) {
            break;
        }
    }
    x
}

#[test]
fn a_mut_reference_read_by_a_foreign_macro() {
    for a in [2.0_f64, 0.3, 17.0] {
        let (v, g) = gradient(newton_sqrt {}, &[a]);
        assert_eq!(v.to_bits(), newton_sqrt(&[a]).to_bits());
        // d√a/da = 1/(2√a).
        let want = 0.5 / a.sqrt();
        assert!(
            (g[0] - want).abs() < 1e-12 * want,
            "{} against {want}",
            g[0]
        );
        let (_, _, h) = hessian(newton_sqrt {}, &[a]);
        let want2 = -0.25 / (a * a.sqrt());
        assert!(
            (h[(0, 0)] - want2).abs() < 1e-9 * want2.abs(),
            "{}",
            h[(0, 0)]
        );
    }
}
