use fwdad::prelude::*;

struct Pair(f64, f64);

#[derive_frule]
fn f(x: f64) -> f64 {
    let p = Pair(x, 2.0);
    p.0 * p.1
}

fn main() {}
