use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64, k: Option<f64>) -> f64 {
    let Some(k) = k else { return x };
    k * x
}

fn main() {}
