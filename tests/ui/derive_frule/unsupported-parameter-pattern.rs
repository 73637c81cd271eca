use fwdad::prelude::*;

struct Pair(f64, f64);

#[derive_frule]
fn f(Pair(a, b): Pair) -> f64 {
    a * b
}

fn main() {}
