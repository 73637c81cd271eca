use fwdad::prelude::*;

#[derive_frule]
fn apply(g: &dyn Fn(f64) -> f64, x: f64) -> f64 {
    g(x)
}

fn main() {}
