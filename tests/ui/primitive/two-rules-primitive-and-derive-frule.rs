use fwdad::prelude::*;

#[primitive(d = 2.0 * x)]
#[derive_frule]
fn square(x: f64) -> f64 {
    x * x
}

#[non_differentiable]
#[primitive(d = 1.0)]
fn round_down(x: f64) -> f64 {
    x.floor()
}

fn main() {}
