// `try_into` of a sub-slice into an array. Workaround: build the array from its elements
// (`[x[0], x[1], x[2]]`).
use fwdad::prelude::*;

#[derive_frule]
fn volume(x: &[f64]) -> f64 {
    let p: [f64; 3] = x[0..3].try_into().unwrap();
    p[0] * p[1] * p[2]
}

fn main() {}
