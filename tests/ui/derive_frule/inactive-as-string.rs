// `inactive("data")`: the parameter written as a string, as some attribute macros take them.
use fwdad::prelude::*;

#[derive_frule(inactive("data"))]
fn loss(theta: f64, data: &[f64]) -> f64 {
    data.iter().map(|d| (theta - d).powi(2)).sum()
}

fn main() {}
