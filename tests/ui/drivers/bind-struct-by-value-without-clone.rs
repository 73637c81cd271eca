// A struct of the user's bound by value to `bind` needs `Clone`: the drivers copy it into
// every call.
use fwdad::prelude::*;

#[derive(Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

#[derive_frule]
fn energy(x: &[f64], s: Spring) -> f64 {
    let d = x[1] - x[0] - s.rest;
    0.5 * s.k * d * d
}

fn main() {
    let s = Spring { k: 2.0, rest: 1.0 };
    let _ = gradient(bind(energy {}, (Wrt, s)), &[0.0, 1.5]);
}
