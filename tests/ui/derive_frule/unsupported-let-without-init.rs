use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let y;
    y = x * x;
    y
}

fn main() {}
