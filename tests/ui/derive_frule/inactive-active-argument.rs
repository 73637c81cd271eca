use fwdad::prelude::*;

#[derive_frule(inactive(data))]
fn loss(w: &[f64], data: &[f64]) -> f64 {
    w[0] * data[0]
}

// `theta` carries a tangent: passing it as `loss`'s constant data would drop it.
#[derive_frule]
fn self_fit(theta: &[f64]) -> f64 {
    loss(theta, theta)
}

fn main() {}
