// Indexing without the bounds check, as hot loops write it: the error says to index.
use fwdad::prelude::*;

#[derive_frule]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len().min(b.len()) {
        s += unsafe { *a.get_unchecked(i) * *b.get_unchecked(i) };
    }
    s
}

fn main() {}
