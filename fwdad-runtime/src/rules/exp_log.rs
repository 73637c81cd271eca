//! Exponentials, logarithms and powers:
//! `exp exp2 exp_m1 ln log log2 log10 ln_1p sqrt cbrt powi powf hypot`.
//!
//! Domains (for random testing): logarithms: `x > 0` (`ln_1p`: `x > -1`); `sqrt`: `x > 0`;
//! `powf`: base `> 0`.
//!
//! Conventions: `sqrt'(0) = +∞` (so the tangent at `0` is `±∞`, and `0` for a direction
//! that does not move `x`: these rules are `unbounded`, with strong zeros); `powf(0, b)`
//! follows the power rule `b·0^(b-1)` and is flat in `b` (`∂/∂b = 0` for `b > 0`);
//! `hypot(0, 0)` has partials `0` (a norm's kink: the midpoint of its subgradient, as
//! `abs'(0) = 0`, and what `√(a² + b²)` gives there).

// Without `std`, the float methods of the rules' partials (`x.cos()`) are `Float`'s (libm).
#[allow(unused_imports)] // used by rule partials (`strong_mul`, `value`)
use super::{Mixed, Primal};
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{ScalarTangent, Unary};
#[cfg(not(feature = "std"))]
use num_traits::Float as _;
#[allow(unused_imports)] // used by rule constants (`F::LOG2_E()`)
use num_traits::FloatConst;

crate::scalar_rule!(y = exp(x) => y);
crate::scalar_rule!(y = exp2(x) => y * F::LN_2());
// `eˣ`, not `y + 1`: `y + 1` cancels for x < 0 (relative error 1e-4 at -30, 0 below -37).
crate::scalar_rule!(y = exp_m1(x) => x.exp());
// The logarithms are unbounded: `ln'(x) = 1/x` overflows for subnormal x, and `ln''` from
// x = 1e-154, while `ln x` is finite (the other entries of a Hessian got `0·∞ = NaN`).
crate::scalar_rule!(unbounded y = ln(x) => x.recip());
// `log₂e / x` and `log₁₀e / x`, one rounding: `1/(x·ln 10)` overflowed `x·ln 10` from
// x = 7.8e307 (f' flushed to 0 where it is 4.3e-309), and `x.recip()·c` would overflow
// `1/x` where the derivative is finite (x < 5.6e-309).
crate::scalar_rule!(unbounded y = log2(x) => F::LOG2_E() / x);
crate::scalar_rule!(unbounded y = log10(x) => F::LOG10_E() / x);
crate::scalar_rule!(y = ln_1p(x) => (x + 1.0).recip());
crate::scalar_rule!(unbounded y = sqrt(x) => 0.5 / y);
crate::scalar_rule!(unbounded y = cbrt(x) => (3.0 * y * y).recip());
crate::scalar_rule!(
    /// `a.powf(b) = a^b`: `∂ = (b·p, y·ln a)` with `p = a^(b-1)`, each `0` where its first
    /// factor is (`a^0` is flat in `a`, `0^b` in `b`), not `0·∞`. Two other forms where
    /// these lose the value:
    /// * `∂a = (b·y)/a` where `b - 1` rounds to `b` (|b| ≥ 2⁵³: `a^(b-1)` is then `a^b`, off
    ///   by a factor `a`, and with the parity of `b`: the wrong sign for `a < 0`), or where
    ///   `p` overflows but `y` does not (`x.powf(1e-17)` at 1e-310: `∂ = 1e293`, `p = ∞`;
    ///   then `b < 0.05`). There `b` is far from 1, so the form's tangent (second order)
    ///   does not cancel as it would near 1. Where `y` overflows, only for the sign
    ///   (`a < 0`): `b·p`'s tangent is then `∞` where this one's is `∞ - ∞`.
    /// * `∂b = p·(a·ln a)` where `y` underflows (is below the least normal) for `0 < a < 1`:
    ///   its tangent along `a` keeps the term `p` of `∂²/∂a∂b = p·(1 + b·ln a)`, which
    ///   `y·ln a`'s loses with `y` (relative error 7e-4 at (1e-300, 2), where `∂²/∂b∂a` was
    ///   right). Only there: elsewhere its tangent cancels (`(b-1)·ln a + ln a + 1` for small
    ///   `b`). For `a ≥ 1`, `y` underflows only where `p ≤ y` does too.
    unbounded y = powf(a, b) =>
        let p = a.powf_mixed(b - 1.0);
        (
            if a.value() != 0.0
                && if y.value().is_finite() {
                    b.value() - 1.0 == b.value() || !p.value().is_finite()
                } else {
                    b.value() - 1.0 == b.value() && a.value() < 0.0
                }
            {
                b * y / a
            } else {
                b.strong_mul(p)
            },
            if a.value() > 0.0
                && a.value() < 1.0
                && y.value() < F::MIN_POSITIVE
                && p.value().is_finite()
            {
                p * (a * a.ln())
            } else {
                y.strong_mul(a.ln())
            }
        )
);
crate::scalar_rule!(
    /// `a.log(b)`: the logarithm of `a` in base `b`, `ln a / ln b`: `∂ = (w/a, -y·w/b)` with
    /// `w = 1/ln b` (bounded away from `b = 1`), so that nothing overflows or underflows
    /// before the partial itself does, in first or second order (`1/(a·ln b)` squared
    /// `a·ln b` on duals: NaN and `∞` in the Hessian at `a = 1e-300`).
    unbounded y = log(a, b) =>
        let w = b.ln().recip();
        (w / a, -(y * w) / b)
);
crate::scalar_rule!(
    /// `hypot(a, b) = √(a² + b²)`: `∂ = (a, b) / y`, written with the ratio `t` of the
    /// smaller to the larger magnitude: for |a| ≥ |b|, `t = b/a` and
    /// `∂ = sign(a)·(1, t)/√(1+t²)` (the other way round for |a| < |b|). On duals the
    /// tangent of `a/y` is `(da - (a/y)·dy)/y`, which cancels to `b²/y³·da` (relative error
    /// 3e-6 at (1e5, 1), 0 at (1e10, 1)); that of `1/√(1+t²)` has no subtraction, and that
    /// of `t/√(1+t²)` subtracts a term at most half the size (`t²/(1+t²) ≤ 1/2`).
    /// At the origin, the norm's kink, both partials are zero (the midpoint of its
    /// subgradient, as `abs'(0) = 0`), as `√(a² + b²)` gives there.
    unbounded y = hypot(a, b) =>
        let origin = a.value() == 0.0 && b.value() == 0.0;
        let a_larger = a.value().abs() >= b.value().abs();
        let c = if origin { 1.0 } else { 0.0 };
        let t = if a_larger { b / (a + c) } else { a / (b + c) };
        let r = (1.0 + t * t).sqrt();
        let sign_a = if origin { 0.0 } else { a.value().signum() };
        let sign_b = if origin { 0.0 } else { b.value().signum() };
        (
            if a_larger { sign_a / r } else { t / r * sign_b },
            if a_larger { t / r * sign_a } else { sign_b / r }
        )
);

/// `x.powi(n)`'s derivative: `n·x^(n-1)`; [`Unary::UNBOUNDED`] is the parameter `U`
/// ([`powi`] picks it by the exponent).
///
/// For `n = i32::MIN`, `n - 1` does not exist as an `i32`, so `x^(n-1)` is computed as
/// `x^n / x` there (exact at `x = ±1`, and `0` or `∞` elsewhere, as `x^(n-1)` would be).
#[derive(Clone, Copy, Debug)]
pub struct Powi<const U: bool>(pub i32);

impl<F: Real, const U: bool> Unary<F> for Powi<U> {
    const UNBOUNDED: bool = U;
    #[inline(always)]
    fn d(&self, x: F, _y: F) -> F {
        let n = F::from_i32(self.0).unwrap_or_else(F::nan);
        match self.0 {
            0 => F::zero(),
            i32::MIN => n * (x.powi(i32::MIN) / x),
            m => n * x.powi(m - 1),
        }
    }
    #[inline(always)]
    fn d_dual<T: ScalarTangent<F>>(&self, x: Dual<F, T>, _y: Dual<F, T>) -> Dual<F, T> {
        let n = F::from_i32(self.0).unwrap_or_else(F::nan);
        match self.0 {
            0 => Dual::new(F::zero(), T::zero()),
            i32::MIN => powi(x, i32::MIN) / x * n,
            m => powi(x, m - 1) * n,
        }
    }
}

/// `x.powi(n)` for an integer exponent (inactive by nature).
///
/// For `0 ≤ n ≤ 16` the rule is bounded, so `x.powi(2)` stays a plain product: `n·x^(n-1)`
/// and `n(n-1)·x^(n-2)` are finite wherever `x^n` is (they could overflow first only if
/// `n^n` exceeded the largest float, 3.4e38 in `f32`). Other exponents are unbounded (strong
/// zeros): for `n < 0` the partial overflows before the value does (`x.powi(-3)` at 1e-100:
/// value 1e300, partial -3e400), and for large `n` near the top of the range
/// (`x.powi(1000)` at 2.03: 3.1e307, partial 1.5e310). `n` is usually a literal, so the
/// choice folds away.
#[inline(always)]
pub fn powi<F: Real, T: ScalarTangent<F>, X: super::Operand<F, T>>(x: X, n: i32) -> Dual<F, T> {
    let x = Dual::new(x.primal(), x.tangent());
    let y = x.primal.powi(n);
    if (0..=16).contains(&n) {
        super::unary(&Powi::<false>(n), x, y)
    } else {
        super::unary(&Powi::<true>(n), x, y)
    }
}

impl<F: Real, T: ScalarTangent<F>> Dual<F, T> {
    /// `self^n`.
    #[inline(always)]
    pub fn powi(self, n: i32) -> Self {
        powi(self, n)
    }
}
