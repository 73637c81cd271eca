// Two attribute arguments without the comma between them.
use fwdad::prelude::*;

#[derive_frule(inactive(data) dump)]
fn loss(theta: f64, data: &[f64]) -> f64 {
    data.iter().map(|d| (theta - d).powi(2)).sum()
}

fn main() {}
