use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let mut p = (x, 1.0);
    p.1 = x * x;
    p.0 + p.1
}

fn main() {}
