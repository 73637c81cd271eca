// Numbering or zipping items after a `skip` or `step_by` that follows an element-wise
// stage (`filter`, or a `map` whose closure changes a captured variable) is not
// supported: the items no longer sit at their source's indices.
use fwdad::prelude::*;

#[derive_frule]
fn weighted_after_first(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (k, v) in x.iter().filter(|v| **v > 0.0).skip(1).enumerate() {
        s += k as f64 * v;
    }
    s
}

#[derive_frule]
fn numbered_chain(p: &[f64]) -> f64 {
    let mut state = p[0];
    (0..10)
        .map(|_| {
            state = 0.5 * state + p[1];
            state
        })
        .enumerate()
        .skip(2)
        .map(|(k, v)| k as f64 * v)
        .sum()
}

fn main() {}
