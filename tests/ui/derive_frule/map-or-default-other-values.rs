// `entry(k).or_default()` on a map whose values are a struct of the user's (running sums
// kept in a struct): the default is not one the macro builds with its tangent (floats,
// integers, `Vec`s, tuples and arrays of them are). Instead:
// `.or_insert(Moments::default())`.
use fwdad::prelude::*;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Default, Differentiable)]
pub struct Moments {
    pub sum: f64,
    pub sum_sq: f64,
}

#[derive_frule]
fn variance_of_evens(x: &[f64]) -> f64 {
    let mut sums: BTreeMap<usize, Moments> = BTreeMap::new();
    for (i, &v) in x.iter().enumerate() {
        let m = sums.entry(i % 2).or_default();
        m.sum += v;
        m.sum_sq += v * v;
    }
    sums[&0].sum_sq - sums[&0].sum * sums[&0].sum
}

fn main() {}
