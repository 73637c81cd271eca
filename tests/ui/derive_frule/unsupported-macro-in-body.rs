use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let _shown = dbg!(x);
    x * x
}

fn main() {}
