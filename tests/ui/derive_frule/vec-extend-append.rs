// `Vec::append` of something other than a variable or a field (an element of a `Vec` of
// `Vec`s): the error names the method and what to write instead. `w.append(&mut v)` of
// variables and fields, and `extend` of an iterator chain, are supported
// (tests/derive_iter_constructors.rs, tests/derive_idioms.rs).
use fwdad::prelude::*;

#[derive_frule]
fn append(x: &[f64]) -> f64 {
    let mut rows = vec![x.to_vec(), x.to_vec()];
    let mut w = vec![1.0];
    w.append(&mut rows[1]);
    w.iter().sum()
}

fn main() {}
