// A trait with a const parameter: its rules would depend on it (type parameters are
// supported: `tests/generic11_traits.rs`).
use fwdad::prelude::*;

#[derive_frule]
pub trait Window<const N: usize> {
    fn weight(&self, i: usize) -> f64;
}

fn main() {}
