use fwdad::prelude::*;

#[derive_frule]
fn f<const N: usize>(x: [f64; N]) -> f64 {
    x[0] * x[N - 1]
}

fn main() {}
