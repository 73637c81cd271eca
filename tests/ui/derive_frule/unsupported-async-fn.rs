use fwdad::prelude::*;

#[derive_frule]
async fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
