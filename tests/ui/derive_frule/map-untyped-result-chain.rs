// A chain over a map that a function returned, bound without its type: the macro does
// not know it is a map (write `let counts: BTreeMap<usize, f64> = soft_counts(x);`).
use fwdad::prelude::*;
use std::collections::BTreeMap;

#[derive_frule]
fn soft_counts(x: &[f64]) -> BTreeMap<usize, f64> {
    let mut counts: BTreeMap<usize, f64> = BTreeMap::new();
    for &xi in x {
        *counts.entry((xi.abs() as usize).min(3)).or_insert(0.0) += xi * xi;
    }
    counts
}

#[derive_frule]
fn total(x: &[f64]) -> f64 {
    let counts = soft_counts(x);
    counts.values().sum()
}

fn main() {}
