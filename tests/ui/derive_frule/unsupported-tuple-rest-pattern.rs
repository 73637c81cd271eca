use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let (a, ..) = (x, 1.0, 2.0);
    a * a
}

fn main() {}
