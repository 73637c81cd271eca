use fwdad::prelude::*;

#[derive_frule]
#[primitive(d = 2.0 * x)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
