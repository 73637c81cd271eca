use fwdad::prelude::*;

#[derive_frule]
fn g(x: f64) -> f64 {
    x * x
}

#[derive_frule]
fn f(x: f64, n: u32) -> f64 {
    g(n) + x
}

fn main() {}
