// `let p;` is supported; a pattern declared without a value is not.
use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let (y, z);
    y = x * x;
    z = x;
    y + z
}

fn main() {}
