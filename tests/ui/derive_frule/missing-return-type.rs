// The result type left out (`fn energy(x: f64) { .. }`): the function returns `()`.
use fwdad::prelude::*;

#[derive_frule]
fn energy(x: f64) {
    0.5 * x * x
}

fn main() {}
