use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    struct Scale(f64);
    let s = 2.0;
    s * x
}

fn main() {}
