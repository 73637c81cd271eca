use fwdad::prelude::*;

#[derive_frule]
fn f<T: Into<f64>>(x: T) -> f64 {
    x.into()
}

fn main() {}
