use fwdad::prelude::*;

#[primitive(d = 1.0)]
fn harmonic(n: u32) -> f64 {
    (1..=n).map(|k| 1.0 / k as f64).sum()
}

fn main() {}
