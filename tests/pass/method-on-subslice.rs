use fwdad::prelude::*;

#[derive_frule]
fn f(x: &[f64]) -> f64 {
    let n = x[1..3].len();
    x[0] * n as f64
}

fn main() {}
