use fwdad::prelude::*;

#[derive_frule(crate = "fwdad")]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
