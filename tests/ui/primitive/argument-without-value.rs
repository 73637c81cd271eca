use fwdad::prelude::*;

#[primitive(d)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
