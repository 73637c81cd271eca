// A method of a `Differentiable` type whose `impl` block has no `#[derive_frule]`, called
// with method syntax and by path: the call looks for the method's rule, which the
// attribute on the `impl` block would generate.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
struct Spring {
    k: f64,
}

impl Spring {
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

#[derive_frule]
fn stored(s: &Spring, x: f64) -> f64 {
    s.energy(x)
}

#[derive_frule]
fn stored_by_path(s: &Spring, x: f64) -> f64 {
    Spring::energy(s, x)
}

fn main() {}
