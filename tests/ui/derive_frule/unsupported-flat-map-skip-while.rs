// `flat_map` and `skip_while` are not among the supported iterator adaptors. Workaround:
// nested `for` loops, and a `for` loop with a flag.
use fwdad::prelude::*;

#[derive_frule]
fn pair_products(x: &[f64]) -> f64 {
    x.iter().flat_map(|a| x.iter().map(move |b| a * b)).sum()
}

#[derive_frule]
fn sum_after_negatives(x: &[f64]) -> f64 {
    x.iter().skip_while(|v| **v < 0.0).sum()
}

fn main() {}
