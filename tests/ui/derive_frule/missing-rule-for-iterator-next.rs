use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64, ks: &[f64]) -> f64 {
    let mut acc = x;
    let mut it = ks.iter();
    while let Some(k) = it.next() {
        acc = acc * k;
    }
    acc
}

fn main() {}
