// An array pattern through a `&mut` would borrow every element mutably at once, which the
// rule cannot do; the message says how to write it instead.
use fwdad::prelude::*;

#[derive_frule]
fn scale_pair(p: &mut [f64; 2], k: f64) {
    let [a, b] = p;
    *a *= k;
    *b += k;
}

fn main() {}
