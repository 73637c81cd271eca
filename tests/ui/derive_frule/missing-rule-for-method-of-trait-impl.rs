// A method from a trait of your own, neither the trait nor its `impl` annotated, called on
// a concrete `Differentiable` type: the first error names the type and the method.
use fwdad::prelude::*;

trait Energy {
    fn energy(&self, x: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Spring {
    k: f64,
}

impl Energy for Spring {
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

#[derive_frule]
fn stored(s: &Spring, x: f64) -> f64 {
    s.energy(x)
}

fn main() {}
