use fwdad::prelude::*;

#[primitive(d = 2.0 * x)]
#[primitive(d = x + x)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
