// A function passed by name to a method of the user's (closures are supported:
// `tests/derive_closure_methods.rs`). Instead: `q.apply(|x| sq(x), k)`.
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Debug)]
pub struct Quad {
    pub n: usize,
}

#[derive_frule]
impl Quad {
    pub fn apply(&self, f: impl Fn(f64) -> f64, x: f64) -> f64 {
        f(x) * self.n as f64
    }
}

#[derive_frule]
fn sq(x: f64) -> f64 {
    x * x
}

#[derive_frule]
fn by_name(k: f64) -> f64 {
    let q = Quad { n: 1 };
    q.apply(sq, k) + Quad::apply(&q, sq, k)
}

fn main() {}
