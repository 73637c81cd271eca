// `#[derive_frule]` on single methods of a plain `impl` takes `&self` and `&mut self`
// methods; `self` by value, generic methods and values built with `Self { .. }` need the
// attribute on the `impl` block.
use fwdad::prelude::*;

#[derive(Clone, Differentiable)]
struct Spring {
    k: f64,
}

impl Spring {
    #[derive_frule]
    fn into_energy(self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }

    #[derive_frule]
    fn scaled<const N: usize>(&self, x: f64) -> f64 {
        N as f64 * self.k * x
    }

    #[derive_frule]
    fn stiffer(&self, dk: f64) -> Self {
        Self { k: self.k + dk }
    }
}

fn main() {}
