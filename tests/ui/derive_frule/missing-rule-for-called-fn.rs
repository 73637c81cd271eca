use fwdad::prelude::*;

fn plain(x: f64) -> f64 {
    x * x
}

#[derive_frule]
fn f(x: f64) -> f64 {
    plain(x) + 1.0
}

fn main() {}
