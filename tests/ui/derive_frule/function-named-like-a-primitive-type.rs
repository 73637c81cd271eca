use fwdad::prelude::*;

#[derive_frule]
fn f64(x: f64) -> f64 {
    x * 2.0
}

fn main() {}
