// A map keyed by floats cannot be a `HashMap`/`BTreeMap` in plain Rust; keyed by a type
// holding one (a wrapper ordering floats) its keys would need tangents.
use fwdad::prelude::*;
use std::collections::BTreeMap;

#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct Knot(f64);
impl Eq for Knot {}
impl Ord for Knot {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

#[derive_frule]
fn spline(x: &[f64]) -> f64 {
    let mut knots: BTreeMap<(Knot, usize), f64> = BTreeMap::new();
    knots.insert((Knot(0.5), 0), x[0]);
    knots.len() as f64
}

fn main() {}
