// `n.sqrt()` of an integer parameter: convert first, `(n as f64).sqrt()`.
use fwdad::prelude::*;

#[derive_frule]
fn normalised(x: f64, n: usize) -> f64 {
    x / n.sqrt()
}

fn main() {}
