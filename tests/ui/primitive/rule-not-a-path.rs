use fwdad::prelude::*;

#[primitive(rule = |x| x * x)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
