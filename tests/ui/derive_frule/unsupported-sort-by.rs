// Sorting a sub-slice in place. Sorting a variable or a field is supported
// (tests/derive_idioms.rs); workaround: copy the part into a `Vec` and sort that.
use fwdad::prelude::*;

#[derive_frule]
fn upper_median(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v[1..].sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {}
