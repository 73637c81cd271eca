use fwdad::prelude::*;

// A method taking `self` by value needs `Self: Clone`: a call `recv.m(..)` hands the rule
// a copy of the receiver's dual.
#[derive(Differentiable)]
struct Spring {
    k: f64,
}

#[derive_frule]
impl Spring {
    fn energy(self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }
}

fn main() {}
