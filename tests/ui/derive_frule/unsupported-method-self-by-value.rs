use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
struct Spring {
    k: f64,
}

// A method taking `self` by value is not supported yet: the error names the receiver.
#[derive_frule]
impl Spring {
    fn energy(self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {}
