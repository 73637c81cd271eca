use fwdad::prelude::*;

// A misspelt name, and a name given twice.
#[derive_frule(inactive(dta, data, data))]
fn loss(theta: &[f64], data: &[f64], w: f64) -> f64 {
    w * theta[0] * data[0]
}

fn main() {}
