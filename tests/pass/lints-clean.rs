//! Generated items raise no warnings under strict lints (trybuild shows warnings of pass
//! cases; `deny` turns them into failures).
#![deny(warnings, missing_docs, unused, nonstandard_style, rust_2018_idioms)]

use fwdad::prelude::*;

/// A documented public function.
#[derive_frule]
pub fn energy(x: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() {
        e += k * x[i] * x[i];
    }
    e
}

fn main() {
    let x = [1.0, 2.0];
    let dx = [1.0, 0.0];
    let y = energy_frule(Dual::new(&x[..], &dx[..]), Dual::new(3.0, 0.0));
    assert_eq!(y.tangent, 6.0);
}
