// `#[derive_frule]` written twice on one function (pasted from another).
use fwdad::prelude::*;

#[derive_frule]
#[derive_frule]
fn sq(x: f64) -> f64 {
    x * x
}

fn main() {}
