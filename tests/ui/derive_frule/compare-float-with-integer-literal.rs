// A float compared with an integer literal (`x > 0`): Rust does not convert it. Instead:
// `x > 0.0`.
use fwdad::prelude::*;

#[derive_frule]
fn relu(x: f64) -> f64 {
    if x > 0 { x } else { 0.0 }
}

fn main() {}
