// `inactive = data`: the argument written as a key and value, as `serde` attributes are.
use fwdad::prelude::*;

#[derive_frule(inactive = data)]
fn loss(theta: f64, data: &[f64]) -> f64 {
    data.iter().map(|d| (theta - d).powi(2)).sum()
}

fn main() {}
