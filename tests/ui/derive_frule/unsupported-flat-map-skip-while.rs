// `flat_map` whose closure returns something other than an iterator chain (an `Option`
// here), and `skip_while` on a chain that does not start from a slice or range method.
// Workarounds: `filter` then `map`; `x.iter().skip_while(..)`.
use fwdad::prelude::*;

#[derive_frule]
fn log_of_positives(x: &[f64]) -> f64 {
    x.iter()
        .flat_map(|v| if *v > 0.0 { Some(v.ln()) } else { None })
        .sum()
}

#[derive_frule]
fn sum_after_negatives(x: &[f64]) -> f64 {
    std::iter::zip(x, x).skip_while(|p| *p.0 < 0.0).map(|p| p.0 * p.1).sum()
}

fn main() {}
