use fwdad::prelude::*;

struct Pair(f64, f64);

#[derive_frule]
fn f(x: f64) -> f64 {
    let Pair(a, b) = Pair(x, 2.0);
    a * b
}

fn main() {}
