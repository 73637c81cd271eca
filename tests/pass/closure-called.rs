use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let g = |t: f64| t * t;
    g(x)
}

fn main() {}
