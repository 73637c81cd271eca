use fwdad::prelude::*;

fn apply(g: impl Fn(f64) -> f64, x: f64) -> f64 {
    g(x)
}

#[derive_frule]
fn f(x: f64) -> f64 {
    let g = |y: f64| y * x;
    apply(g, 2.0)
}

fn main() {}
