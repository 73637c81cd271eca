use fwdad::prelude::*;

#[primitive]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
