use fwdad::prelude::*;

static mut LAST: f64 = 0.0;

#[derive_frule]
fn f(x: f64) -> f64 {
    LAST = x;
    x * x
}

fn main() {}
