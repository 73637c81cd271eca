//! An argument that always returns (`x.max(return x)`) is legal Rust (it warns); the
//! derived rule follows the `return`, like the primal.
#![allow(unreachable_code)]

use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    x.max(return 3.0 * x)
}

fn main() {
    let y = f_frule(Dual::new(2.0, 1.0));
    assert_eq!(y.primal, 6.0);
    assert_eq!(y.tangent, 3.0);
}
