use fwdad::prelude::*;

pub trait Potential {
    fn value(&self, x: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Well {
    pub depth: f64,
}

#[derive_frule]
impl Potential for Well {
    fn value(&self, x: f64) -> f64 {
        self.depth * x * x
    }
}

fn main() {}
