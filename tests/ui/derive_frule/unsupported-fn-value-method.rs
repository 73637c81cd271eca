// `#[derive_frule]` on a single method taking a function value (the attribute on the
// `impl` block supports it: `tests/derive_closure_methods.rs`).
use fwdad::prelude::*;

#[derive(Clone, Differentiable)]
struct Solver {
    tol: f64,
}

impl Solver {
    #[derive_frule]
    fn solve(&self, f: &dyn Fn(f64) -> f64, x0: f64) -> f64 {
        f(x0) * self.tol
    }
}

fn main() {}
