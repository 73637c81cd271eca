use fwdad::prelude::*;

/// `K` appears in the body only, so a caller names it with a turbofish.
#[derive_frule]
fn scale<const K: usize>(x: f64) -> f64 {
    x * K as f64
}

#[derive_frule]
fn doubled_plus(x: f64) -> f64 {
    scale::<2>(x) + x
}

fn main() {}
