use fwdad::prelude::*;

/// A plain helper (no rule) returning a reference into constant data.
fn largest(v: &[f64]) -> &f64 {
    let mut best = &v[0];
    for t in v {
        if *t > *best {
            best = t;
        }
    }
    best
}

#[derive_frule]
fn pick(x: &[f64]) -> f64 {
    let table = [3.0, 5.0];
    let r = if x[0] > 0.0 { &x[1] } else { largest(&table) };
    r * 2.0
}

fn main() {}
