use fwdad::prelude::*;

// `max_by` after a `filter` over borrowed elements (the kept ones are gathered first, and
// a buffer of references has no tangent) and with a function path as comparator are not
// lowered; each gets a message at the call.
#[derive_frule]
fn after_filter(x: &[f64]) -> f64 {
    *x.iter()
        .filter(|v| **v > 0.0)
        .max_by(|a, b| a.total_cmp(b))
        .unwrap_or(&0.0)
}

// The same after `inspect` (the message names it, not `filter`).
#[derive_frule]
fn after_inspect(x: &[f64]) -> f64 {
    *x.iter()
        .inspect(|v| assert!(v.is_finite()))
        .min_by(|a, b| a.total_cmp(b))
        .unwrap_or(&0.0)
}

#[derive_frule]
fn path_comparator(x: &[f64]) -> f64 {
    x.iter().copied().min_by(f64::total_cmp).unwrap_or(0.0)
}

fn main() {}
