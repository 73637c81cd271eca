use fwdad::prelude::*;

/// A plain helper (no rule) returning a part of constant data.
fn first_half(v: &[f64]) -> &[f64] {
    &v[..v.len() / 2]
}

#[derive_frule]
fn wdot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

#[derive_frule]
fn weighted(x: &[f64]) -> f64 {
    let table = [3.0, 5.0, 7.0, 9.0];
    wdot(first_half(&table), x)
}

fn main() {}
