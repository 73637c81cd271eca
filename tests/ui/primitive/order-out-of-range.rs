use fwdad::prelude::*;

#[primitive(d = 2.0 * x, order = 3)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
