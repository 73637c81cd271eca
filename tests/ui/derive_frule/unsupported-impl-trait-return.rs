use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> impl Copy {
    x * x
}

fn main() {}
