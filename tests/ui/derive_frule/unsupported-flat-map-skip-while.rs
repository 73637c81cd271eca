// `flat_map` given a function by name (closures returning a chain, a `Vec`, an array or
// an `Option` are supported). Workaround: a closure, `|v| pair(v)`.
use fwdad::prelude::*;

#[derive_frule]
fn pair(v: &f64) -> Vec<f64> {
    vec![*v, 2.0 * v]
}

#[derive_frule]
fn doubled(x: &[f64]) -> f64 {
    x.iter().flat_map(pair).sum()
}

fn main() {}
