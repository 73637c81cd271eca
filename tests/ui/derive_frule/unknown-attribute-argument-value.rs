use fwdad::prelude::*;

#[derive_frule(dump = true)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
