use fwdad::prelude::*;

fn f_frule() {}

#[derive_frule]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
