// The generated `square_frule` called from another annotated function: call the plain
// function, `square(x)`; its rule is used in the derivative.
use fwdad::prelude::*;

#[derive_frule]
fn square(x: f64) -> f64 {
    x * x
}

#[derive_frule]
fn loss(x: f64) -> f64 {
    square_frule(x) + 1.0
}

fn main() {}
