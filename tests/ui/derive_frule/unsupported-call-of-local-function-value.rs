use fwdad::prelude::*;

#[derive_frule]
fn square(x: f64) -> f64 {
    x * x
}

#[derive_frule]
fn f(x: f64) -> f64 {
    let g = square;
    g(x)
}

fn main() {}
