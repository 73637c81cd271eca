use fwdad::prelude::*;

// A borrowed result has no zero tangent that the rule could build.
#[non_differentiable]
fn largest(x: &[f64]) -> &f64 {
    x.iter().fold(&x[0], |m, v| if v > m { v } else { m })
}

fn main() {}
