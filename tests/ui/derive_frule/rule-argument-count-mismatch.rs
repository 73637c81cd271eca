use fwdad::prelude::*;

#[derive_frule]
fn g(x: f64, y: f64) -> f64 {
    x * y
}

#[derive_frule]
fn f(x: f64) -> f64 {
    g(x)
}

fn main() {}
