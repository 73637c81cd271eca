//! Hyperbolic functions: `sinh cosh tanh asinh acosh atanh`.
//!
//! Domains (for random testing): `acosh`: `x > 1`; `atanh`: `|x| < 1`.

crate::scalar_rule!(y = sinh(x) => x.cosh());
crate::scalar_rule!(y = cosh(x) => x.sinh());
crate::scalar_rule!(y = tanh(x) => 1.0 - y * y);
crate::scalar_rule!(y = asinh(x) => (x * x + 1.0).sqrt().recip());
crate::scalar_rule!(y = acosh(x) => (x * x - 1.0).sqrt().recip());
crate::scalar_rule!(y = atanh(x) => (1.0 - x * x).recip());
