//! A quadrature object holding its integrand.

use fwdad::prelude::*;

/// ∫ₐᵇ f by composite Simpson's rule.
pub struct Simpson<F: Fn(f64) -> f64> {
    pub f: F,
    pub a: f64,
    pub b: f64,
}

#[derive_frule]
impl<F: Fn(f64) -> f64> Simpson<F> {
    pub fn new(f: F, a: f64, b: f64) -> Self {
        Simpson { f, a, b }
    }

    pub fn integrate(&self, n: usize) -> f64 {
        let h = (self.b - self.a) / n as f64;
        let mut s = (self.f)(self.a) + (self.f)(self.b);
        for i in 1..n {
            let x = self.a + i as f64 * h;
            s += if i % 2 == 1 { 4.0 } else { 2.0 } * (self.f)(x);
        }
        s * h / 3.0
    }
}
