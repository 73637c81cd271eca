// An integer literal in float arithmetic (`3 * x`): Rust does not convert it. Instead
// write a float literal, `3.0 * x`.
use fwdad::prelude::*;

#[derive_frule]
fn cubic(x: f64) -> f64 {
    x * x * x - 3 * x + 1.0
}

fn main() {}
