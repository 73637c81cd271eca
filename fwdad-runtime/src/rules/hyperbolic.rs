//! Hyperbolic functions: `sinh cosh tanh asinh acosh atanh`.
//!
//! Domains (for random testing): `acosh`: `x > 1`; `atanh`: `|x| < 1`.

// Without `std`, the float methods of the rules' partials (`x.cos()`) are `Float`'s (libm).
#[allow(unused_imports)] // used by rule partials (`value`)
use super::Primal;
#[cfg(not(feature = "std"))]
use num_traits::Float as _;

crate::scalar_rule!(y = sinh(x) => x.cosh());
crate::scalar_rule!(y = cosh(x) => x.sinh());
// `1 - y²` cancels where `y²` rounds near 1 (relative error about `sinh²x · 2e-16`: all
// digits lost by |x| = 19, and `0` beyond). From |x| = 0.5, where the two forms are equally
// accurate, `sech²x = 4e/(1+e)²` with `e = exp(-2|x|)`: no subtraction in the value nor in
// its tangent (second order). It costs an `exp` there.
crate::scalar_rule!(y = tanh(x) => if x.value().abs() < 0.5 {
    1.0 - y * y
} else {
    let e = (-2.0 * x.abs()).exp();
    4.0 * e / ((1.0 + e) * (1.0 + e))
});
// `hypot(x, 1)` rather than `√(x² + 1)`: `x²` overflows for |x| > 1e154 (f32: 1e19).
crate::scalar_rule!(y = asinh(x) => x.hypot(1.0).recip());
// `√(x-1)·√(x+1)` rather than `√(x² - 1)`: no overflow, and `x - 1` is exact near 1 where
// `x² - 1` cancels.
crate::scalar_rule!(unbounded y = acosh(x) => ((x - 1.0).sqrt() * (x + 1.0).sqrt()).recip());
// `1 - x²` as `(1-x)(1+x)` near |x| = 1 and `1 - x·x` near 0 (see `one_minus_sq!`).
crate::scalar_rule!(y = atanh(x) => one_minus_sq!(x).recip());
