//! Trigonometric functions: `sin cos tan asin acos atan atan2 sin_cos to_degrees to_radians`.
//!
//! Domains (for random testing): `asin`, `acos`: `|x| < 1`; `tan`: away from `π/2 + kπ`.

// Without `std`, the float methods of the rules' partials (`x.cos()`) are `Float`'s (libm).
#[allow(unused_imports)] // used by rule partials (`pythag_scale`, `value`)
use super::{Mixed, Primal};
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::ScalarTangent;
#[cfg(not(feature = "std"))]
use num_traits::Float as _;
#[allow(unused_imports)] // used by rule constants (`F::PI()`)
use num_traits::FloatConst;

crate::scalar_rule!(y = sin(x) => x.cos());
crate::scalar_rule!(y = cos(x) => -x.sin());
crate::scalar_rule!(y = tan(x) => 1.0 + y * y);
// `1 - x²` as `(1-x)(1+x)` near |x| = 1 and `1 - x·x` near 0 (see `one_minus_sq!`).
crate::scalar_rule!(unbounded y = asin(x) => one_minus_sq!(x).sqrt().recip());
crate::scalar_rule!(unbounded y = acos(x) => -one_minus_sq!(x).sqrt().recip());
// `1/(1+x²)` flushes to 0 from |x| = 1.3e154, where `x²` overflows but f' is subnormal up to
// 4.5e161; in second order it is squared (`-2x/(1+x²)²`: subnormal intermediates from
// |x| = 1e77, 0 where f'' is 2e-300, `0·∞ = NaN` at 1.7e308). For |x| > 1, `r²/(1+r²)` with
// `r = 1/x`: no overflow, and no subtraction in its tangent. Costs a division there.
crate::scalar_rule!(y = atan(x) => if x.value().abs() <= 1.0 {
    (1.0 + x * x).recip()
} else {
    let r = x.recip();
    r * r / (1.0 + r * r)
});
crate::scalar_rule!(
    /// `atan2(a, b)` is the angle of the point `(b, a)`: `∂ = (b, -a) / (a² + b²)`, with
    /// `a`, `b` scaled by a power of two `s` where `a² + b²`, or its square in second order,
    /// would overflow or underflow (beyond 1e77, below 1e-77):
    /// `b / (a² + b²) = (b·s) / ((a·s)² + (b·s)²) · s`, bit for bit where both are in range.
    unbounded y = atan2(a, b) =>
        let s = a.pythag_scale(&b);
        let r = (a * s) * (a * s) + (b * s) * (b * s);
        (b * s / r * s, -(a * s) / r * s)
);
crate::scalar_rule!(y = to_degrees(x) => F::cst(180.0) / F::PI());
crate::scalar_rule!(y = to_radians(x) => F::PI() / F::cst(180.0));

/// `(sin x, cos x)`, sharing the primal work as `f64::sin_cos` does.
#[inline(always)]
pub fn sin_cos<F: Real, T: ScalarTangent<F>, X: super::Operand<F, T>>(
    x: X,
) -> (Dual<F, T>, Dual<F, T>) {
    let x = Dual::new(x.primal(), x.tangent());
    let (s, c) = x.primal.sin_cos();
    // Through the rules, so second-order tangents get their f'' terms.
    let ds = T::chain1(&sin {}, x.primal, s, x.tangent);
    let dc = T::chain1(&cos {}, x.primal, c, x.tangent);
    (Dual::new(s, ds), Dual::new(c, dc))
}

impl<F: Real, T: ScalarTangent<F>> Dual<F, T> {
    /// `(sin x, cos x)`.
    #[inline(always)]
    pub fn sin_cos(self) -> (Self, Self) {
        sin_cos(self)
    }
}
