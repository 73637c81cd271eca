use fwdad::prelude::*;

trait Scale {
    const K: f64;
}

impl Scale for f64 {
    const K: f64 = 2.0;
}

#[derive_frule]
fn f(x: f64) -> f64 {
    x * <f64 as Scale>::K
}

fn main() {}
