use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    unsafe { x * 2.0 }
}

fn main() {}
