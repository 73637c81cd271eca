// `entry(k).or_default()` on a map whose values are neither floats nor `Vec`s (a pair of
// running sums): the default is not one the macro builds with its tangent. Instead:
// `.or_insert((0.0, 0.0))`.
use fwdad::prelude::*;
use std::collections::BTreeMap;

#[derive_frule]
fn moments(x: &[f64]) -> f64 {
    let mut sums: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for (i, &v) in x.iter().enumerate() {
        let s = sums.entry(i % 2).or_default();
        s.0 += v;
        s.1 += v * v;
    }
    sums[&0].1 - sums[&0].0 * sums[&0].0
}

fn main() {}
