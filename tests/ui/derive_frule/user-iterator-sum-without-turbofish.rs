// `.sum()` right on an iterator of the user's, without its item type: a type of the user's
// may have a `sum` method of its own, so the macro reads it as one; the error says to
// write `sum::<f64>()` (which works).
use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
struct Steps {
    x: f64,
    h: f64,
    n: usize,
}

#[derive_frule]
impl Steps {
    fn new(x: f64, h: f64, n: usize) -> Self {
        Steps { x, h, n }
    }
}

#[derive_frule]
impl Iterator for Steps {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        self.n -= 1;
        self.x += self.h;
        Some(self.x * self.x)
    }
}

#[derive_frule]
fn total(x: f64) -> f64 {
    let s: f64 = Steps::new(x, 0.1, 5).sum();
    s
}

fn main() {}
