use fwdad::prelude::*;

struct Params {
    k: f64,
}

#[derive_frule]
fn f(x: f64, p: Params) -> f64 {
    p.k * x
}

fn main() {}
