use fwdad::prelude::*;

#[derive_frule]
fn f(x: &[f64]) -> f64 {
    x.iter().sum::<f64>()
}

fn main() {}
