// Small vector helpers written as an extension trait on slices, as numerics code often
// does (`v.dot(w)`, `v.norm()`): the trait's impl for `[f64]` (and for `Vec<f64>`) gets a
// first error at the implemented type saying to write the methods as functions, or to
// implement the trait for a struct of the user's.
use fwdad::prelude::*;

#[derive_frule]
trait VecOps {
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

trait Mean {
    fn mean(&self) -> f64;
}

#[derive_frule]
impl Mean for Vec<f64> {
    fn mean(&self) -> f64 {
        self.iter().sum::<f64>() / self.len() as f64
    }
}

#[derive_frule]
fn cosine(a: &[f64], b: &[f64]) -> f64 {
    a.dot(b) / (a.norm() * b.norm())
}

fn main() {}
