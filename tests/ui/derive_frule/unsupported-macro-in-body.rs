use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let _shown = stringify!(x);
    x * x
}

fn main() {}
