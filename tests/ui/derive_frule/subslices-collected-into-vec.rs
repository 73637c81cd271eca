// Rows of a flat parameter collected into a `Vec` of sub-slices, then handed to a rule
// that takes a slice of rows.
use fwdad::prelude::*;

#[derive_frule]
fn rows_norm(rows: &[&[f64]]) -> f64 {
    rows.iter().map(|r| r.iter().map(|v| v * v).sum::<f64>().sqrt()).sum()
}

#[derive_frule]
fn rows_flat(x: &[f64]) -> f64 {
    let rows: Vec<&[f64]> = x.chunks(3).collect();
    rows_norm(&rows)
}

fn main() {}
