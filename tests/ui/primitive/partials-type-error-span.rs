use fwdad::prelude::*;

// A type error in a partial is reported at the user's tokens.
#[primitive(d = x.derivative())]
fn cube(x: f64) -> f64 {
    x * x * x
}

fn main() {}
