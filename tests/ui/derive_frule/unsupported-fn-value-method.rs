// A method of a derived `impl` block taking a function value.
use fwdad::prelude::*;

#[derive(Clone, Differentiable)]
struct Solver {
    tol: f64,
}

#[derive_frule]
impl Solver {
    fn solve<F: Fn(f64) -> f64>(&self, f: F, x0: f64) -> f64 {
        f(x0) * self.tol
    }
}

fn main() {}
