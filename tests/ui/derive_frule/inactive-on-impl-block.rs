use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
struct Spring {
    k: f64,
}

#[derive_frule(inactive(data))]
impl Spring {
    fn energy(&self, x: f64, data: &[f64]) -> f64 {
        self.k * x * x * data[0]
    }
}

fn main() {}
