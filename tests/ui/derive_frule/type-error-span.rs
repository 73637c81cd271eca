use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64, n: u32) -> f64 {
    x * n
}

fn main() {}
