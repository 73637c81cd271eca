// `try_into` of a sub-slice into an array whose type is not written on the `let` as
// `[T; N]` with a literal `N` (here a reference to an array). Supported:
// `let p: [f64; 3] = x[0..3].try_into().unwrap();`.
use fwdad::prelude::*;

#[derive_frule]
fn volume(x: &[f64]) -> f64 {
    let p: &[f64; 3] = x[0..3].try_into().unwrap();
    p[0] * p[1] * p[2]
}

fn main() {}
