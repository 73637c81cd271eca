// Sorting active values with a comparator closure. Workaround: compute the order in a
// `#[non_differentiable]` helper that returns the sorted indices, and read the values
// through them (`x[order[k]]`).
use fwdad::prelude::*;

#[derive_frule]
fn median(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {}
