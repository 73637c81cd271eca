// The entry API's closures on a map of floats (a memo table): `or_insert_with` and
// `and_modify` are not rewritten; `or_insert(..)` and `get_mut` are.
use fwdad::prelude::*;
use std::collections::HashMap;

#[derive_frule]
fn memo(x: &[f64]) -> f64 {
    let mut cache: HashMap<usize, f64> = HashMap::new();
    for i in 0..x.len() {
        *cache.entry(i % 3).or_insert_with(|| x[i].exp()) += x[i];
    }
    cache[&0]
}

#[derive_frule]
fn tally(x: &[f64]) -> f64 {
    let mut totals: HashMap<usize, f64> = HashMap::new();
    for i in 0..x.len() {
        totals.entry(i % 2).and_modify(|t| *t += x[i]).or_insert(x[i]);
    }
    totals[&1]
}

fn main() {}
