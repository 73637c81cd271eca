// Sorting a sub-slice of something other than a variable or a field (a row of a `Vec` of
// `Vec`s). Sorting a variable, a field or a sub-slice of one is supported
// (tests/derive_idioms.rs, tests/derive_iter_constructors.rs); workaround: bind the row.
use fwdad::prelude::*;

#[derive_frule]
fn upper_median(x: &[f64]) -> f64 {
    let mut rows = vec![x.to_vec(), x.to_vec()];
    rows[0][1..].sort_by(|a, b| a.partial_cmp(b).unwrap());
    rows[0][rows[0].len() / 2]
}

fn main() {}
