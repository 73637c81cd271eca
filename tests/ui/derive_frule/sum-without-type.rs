// `.sum()` bound by an untyped `let`: Rust needs the sum's type, `let s: f64 = ..` or
// `.sum::<f64>()`.
use fwdad::prelude::*;

#[derive_frule]
fn mean(x: &[f64]) -> f64 {
    let s = x.iter().sum();
    s / x.len() as f64
}

fn main() {}
