// Naming the variable to differentiate with respect to: every parameter is an input of
// the rule, and the caller's seeds choose the direction; constants are `inactive(..)`.
use fwdad::prelude::*;

#[derive_frule(wrt(x))]
fn scaled(x: f64, k: f64) -> f64 {
    k * x * x
}

fn main() {}
