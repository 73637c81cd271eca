// Indexing a type of the user's whose `impl Index` has no `#[derive_frule]`: the error is at
// the index and its note names the `Index` impl.
use fwdad::prelude::*;
use std::ops::Index;

#[derive(Clone, Differentiable)]
pub struct Poly {
    pub c: Vec<f64>,
}

impl Index<usize> for Poly {
    type Output = f64;
    fn index(&self, i: usize) -> &f64 {
        &self.c[i]
    }
}

#[derive_frule]
fn leading(p: &Poly, x: f64) -> f64 {
    p[1] * x + p[0]
}

fn main() {}
