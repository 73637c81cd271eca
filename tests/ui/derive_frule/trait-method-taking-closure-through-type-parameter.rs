// Quadrature rules behind a trait whose method takes the integrand as a closure: a
// required method called through a type parameter (`q.integrate(..)` with `Q:
// Quadrature`) works (`tests/traits8_closures.rs`), but a default method taking a closure
// has no rule of its own (its body is not derived). The one error, at the closure, names
// the method that has no forward rule and says what to do.
use fwdad::prelude::*;

#[derive_frule]
trait Quadrature {
    fn n(&self) -> usize;
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64 {
        let h = (b - a) / self.n() as f64;
        (0..self.n()).map(|i| f(a + (i as f64 + 0.5) * h)).sum::<f64>() * h
    }
}

#[derive(Debug, Clone, Copy, Differentiable)]
struct Midpoint {
    n: usize,
}

#[derive_frule]
impl Quadrature for Midpoint {
    fn n(&self) -> usize {
        self.n
    }
}

#[derive_frule]
fn expected_loss<Q: Quadrature>(q: &Q, mu: f64, sigma: f64) -> f64 {
    let pdf = |x: f64| (-(x - mu).powi(2) / (2.0 * sigma * sigma)).exp();
    q.integrate(|x| (x - 1.0).powi(2) * pdf(x), mu - 6.0 * sigma, mu + 6.0 * sigma)
}

fn main() {}
