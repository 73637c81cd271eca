use fwdad::prelude::*;

#[derive_frule]
const fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
