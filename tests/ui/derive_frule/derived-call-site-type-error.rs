use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {
    let _ = f_frule(2.0);
}
