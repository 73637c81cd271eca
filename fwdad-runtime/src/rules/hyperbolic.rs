//! Hyperbolic functions: `sinh cosh tanh asinh acosh atanh`.
//!
//! Domains (for random testing): `acosh`: `x > 1`; `atanh`: `|x| < 1`.

crate::scalar_rule!(y = sinh(x) => x.cosh());
crate::scalar_rule!(y = cosh(x) => x.sinh());
crate::scalar_rule!(y = tanh(x) => 1.0 - y * y);
// `hypot(x, 1)` rather than `√(x² + 1)`: `x²` overflows for |x| > 1e154 (f32: 1e19).
crate::scalar_rule!(y = asinh(x) => x.hypot(1.0).recip());
// `√(x-1)·√(x+1)` rather than `√(x² - 1)`: no overflow, and `x - 1` is exact near 1 where
// `x² - 1` cancels.
crate::scalar_rule!(unbounded y = acosh(x) => ((x - 1.0).sqrt() * (x + 1.0).sqrt()).recip());
// `(1-x)(1+x)` rather than `1 - x²`: exact factors near |x| = 1, where `1 - x²` cancels.
crate::scalar_rule!(y = atanh(x) => ((1.0 - x) * (1.0 + x)).recip());
