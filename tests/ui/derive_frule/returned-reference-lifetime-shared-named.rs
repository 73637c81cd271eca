use fwdad::prelude::*;

#[derive_frule]
fn first<'a>(x: &'a [f64], y: &'a [f64]) -> &f64 {
    if x[0] > y[0] {
        &x[0]
    } else {
        &y[0]
    }
}

fn main() {}
