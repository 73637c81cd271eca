// A method of the user's own type named like an integer method (`pow`), called on a field
// whose type the macro cannot see, is taken for the integer's: the rule must not silently
// treat its float result as a constant, so this is a type error at the call.
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Copy)]
pub struct Poly {
    pub a: f64,
}

impl Poly {
    pub fn pow(&self, n: i32) -> f64 {
        self.a.powi(n)
    }
}

#[derive(Differentiable, Clone, Copy)]
pub struct Model {
    pub p: Poly,
}

#[derive_frule]
fn energy(m: &Model, x: f64) -> f64 {
    m.p.pow(2) * x
}

fn main() {}
