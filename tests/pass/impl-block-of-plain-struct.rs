// `#[derive_frule]` on the `impl` of a struct declared without `#[derive(Differentiable)]`:
// its `&self` is constant data (before: `Spring` has no tangent type).
use fwdad::prelude::*;

struct Spring {
    k: f64,
}

#[derive_frule]
impl Spring {
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {}
