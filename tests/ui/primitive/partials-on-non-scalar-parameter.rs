use fwdad::prelude::*;

#[primitive(d = 1.0)]
fn first(x: &[f64]) -> f64 {
    x[0]
}

#[primitive(d = (1.0, 1.0))]
fn add_f32(a: f64, b: f32) -> f64 {
    a + b as f64
}

fn main() {}
