use fwdad::prelude::*;

#[derive_frule(inactive())]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
