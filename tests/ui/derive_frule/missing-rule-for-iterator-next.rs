use fwdad::prelude::*;

// `it.next()` is supported where `it` is read only by `next()`, `for` and chains of other
// methods; moved into another binding, the iterator is kept as it is, and has no rule.
#[derive_frule]
fn f(x: f64, ks: &[f64]) -> f64 {
    let mut acc = x;
    let mut it = ks.iter();
    while let Some(k) = it.next() {
        acc = acc * k;
    }
    let rest = it;
    acc + rest.len() as f64
}

fn main() {}
