// An extension trait implemented for both `[f64]` and `Vec<f64>`, as a library author
// adds the `Vec` one so that `v.norm()` reads the same on both: the `impl` for `[f64]`
// serves `Vec`s already (by auto-deref), and a trait has one `impl` for a sequence type;
// the error is at the `Vec` one's type, saying to remove it.
use fwdad::prelude::*;

#[derive_frule]
pub trait VecOps {
    fn dot(&self, other: &[f64]) -> f64;
    fn norm(&self) -> f64;
}

#[derive_frule]
impl VecOps for [f64] {
    fn dot(&self, other: &[f64]) -> f64 {
        self.iter().zip(other).map(|(a, b)| a * b).sum()
    }
    fn norm(&self) -> f64 {
        self.dot(self).sqrt()
    }
}

#[derive_frule]
impl VecOps for Vec<f64> {
    fn dot(&self, other: &[f64]) -> f64 {
        self.as_slice().dot(other)
    }
    fn norm(&self) -> f64 {
        self.as_slice().norm()
    }
}

#[derive_frule]
pub fn cosine(a: &Vec<f64>, b: &[f64]) -> f64 {
    a.dot(b) / (a.norm() * b.norm())
}

fn main() {}
