use fwdad::prelude::*;

#[derive_frule]
fn f(x: &Vec<f64>) -> f64 {
    x.first().copied().unwrap_or(0.0)
}

fn main() {}
