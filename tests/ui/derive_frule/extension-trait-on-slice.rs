// Small vector helpers written as an extension trait on slices, as numerics code often
// does (`v.dot(w)`, `v.norm()`), work when the trait and each `impl` have
// `#[derive_frule]` (`tests/traits8_extension.rs`). Here the `impl` for `[f64]` leaves the
// default method `norm` to the trait (on a sequence type a default method has no rule of
// its own), and the `impl` for `Vec<f64>` lacks the attribute: each call is an error
// naming the method and saying what to do.
use fwdad::prelude::*;

#[derive_frule]
trait VecOps {
    fn dot(&self, other: &Self) -> f64;
    fn norm(&self) -> f64 {
        self.dot(self).sqrt()
    }
}

#[derive_frule]
impl VecOps for [f64] {
    fn dot(&self, other: &Self) -> f64 {
        self.iter().zip(other).map(|(a, b)| a * b).sum()
    }
}

#[derive_frule]
trait Mean {
    fn mean(&self) -> f64;
}

impl Mean for Vec<f64> {
    fn mean(&self) -> f64 {
        self.iter().sum::<f64>() / self.len() as f64
    }
}

#[derive_frule]
fn cosine(a: &[f64], b: &[f64]) -> f64 {
    a.dot(b) / (a.norm() * b.norm())
}

#[derive_frule]
fn centred(v: &Vec<f64>, x: f64) -> f64 {
    x - v.mean()
}

fn main() {}
