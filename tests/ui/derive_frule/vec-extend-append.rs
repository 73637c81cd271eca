// `Vec::extend` of an iterator chain and `Vec::append` on active vectors: the error names
// the method and what to write instead (helper hunt 28: it blamed the closure, or asked to
// annotate an `impl` block of `Vec`).
use fwdad::prelude::*;

#[derive_frule]
fn extend_map(x: &[f64]) -> f64 {
    let mut v = vec![1.0];
    v.extend(x.iter().map(|t| t * t));
    v.iter().sum()
}

#[derive_frule]
fn append(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let mut w = vec![1.0];
    w.append(&mut v);
    w.iter().sum()
}

fn main() {}
