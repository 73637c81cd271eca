use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let y = core::hint::black_box(x);
    y * y
}

fn main() {}
