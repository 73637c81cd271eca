use fwdad::prelude::*;

#[derive_frule]
extern "C" fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
