// A value that depends on the inputs boxed where no `let` names the trait object: a box
// with no type written. A box of a concrete type has no rule, and the macro cannot see
// which trait object the box becomes, so the derivative would be lost; the error is at
// `Box::new` and says to box the value in a `let` that names the trait object
// (`tests/derive_traits_dyn_tangent.rs`) or in a factory returning it
// (`tests/traits8_factory.rs`).
use fwdad::prelude::*;

#[derive_frule]
pub trait Joint {
    fn reach(&self, q: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Revolute {
    pub len: f64,
}

#[derive_frule]
impl Joint for Revolute {
    fn reach(&self, q: f64) -> f64 {
        self.len * q.cos()
    }
}

#[derive_frule]
fn one(p: &[f64]) -> f64 {
    let b = Box::new(Revolute { len: p[1] });
    b.reach(p[0])
}

fn main() {}
