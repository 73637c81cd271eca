// `x.max(0)`: the argument must be a float of `x`'s type, `x.max(0.0)`.
use fwdad::prelude::*;

#[derive_frule]
fn hinge(margin: f64) -> f64 {
    (1.0 - margin).max(0)
}

fn main() {}
