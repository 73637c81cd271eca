use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
struct Spring<T> {
    k: T,
}

// A generic `impl` block is supported, but not with `self` by value (the receiver's
// type would not be fixed by the rule), nor with lifetime parameters.
#[derive_frule]
impl<T: num_traits::Float> Spring<T> {
    fn energy(self, x: T) -> T {
        self.k * x * x
    }
}

struct View<'a> {
    k: &'a [f64],
}

#[derive_frule]
impl<'a> View<'a> {
    fn first(&self, x: f64) -> f64 {
        self.k[0] * x
    }
}

fn main() {}
