// `#[derive_frule]` on a method inside `impl Trait for T`: the attribute does not see that
// the `impl` is a trait's, and a trait impl can hold only the trait's items. Workaround:
// `#[derive_frule]` on the trait and on the `impl` block.
use fwdad::prelude::*;

pub trait Energy {
    fn energy(&self, x: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Spring {
    k: f64,
}

impl Energy for Spring {
    #[derive_frule]
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {}
