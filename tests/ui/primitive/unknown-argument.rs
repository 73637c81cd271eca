use fwdad::prelude::*;

#[primitive(dx = 2.0 * x)]
fn square(x: f64) -> f64 {
    x * x
}

#[non_differentiable(dump)]
fn index(x: &[f64]) -> usize {
    x.len() / 2
}

fn main() {}
