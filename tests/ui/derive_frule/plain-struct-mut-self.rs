// A `&mut self` method in a `#[derive_frule] impl` of a struct declared without
// `#[derive(Differentiable)]`: fwdad takes such a struct as constant data, which a method
// cannot write. Instead: derive `Differentiable` for it, or take `&self` and return the
// new values.
use fwdad::prelude::*;

pub struct Filter {
    pub alpha: f64,
    pub state: f64,
}

#[derive_frule]
impl Filter {
    pub fn update(&mut self, x: f64) -> f64 {
        self.state += self.alpha * (x - self.state);
        self.state
    }
}

fn main() {}
