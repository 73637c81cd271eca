// `Vec::append` on active vectors: the error names the method and what to write instead
// (helper hunt 28: it asked to annotate an `impl` block of `Vec`). `extend` of an
// iterator chain is supported (tests/derive_idioms.rs).
use fwdad::prelude::*;

#[derive_frule]
fn append(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let mut w = vec![1.0];
    w.append(&mut v);
    w.iter().sum()
}

fn main() {}
