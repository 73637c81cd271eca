use fwdad::prelude::*;

#[derive_frule]
fn f(x: &[f64]) -> f64 {
    for i in 0..x.len() {
        break x[i];
    }
    0.0
}

fn main() {}
