// A call that sees active inputs returns a `Dual`, also of an integer: arithmetic on it
// needs its type written (`let i: usize = ..`); the error says so, at the call.
use fwdad::prelude::*;

#[non_differentiable]
fn argmax(x: &[f64]) -> usize {
    let mut k = 0;
    for i in 1..x.len() {
        if x[i] > x[k] {
            k = i;
        }
    }
    k
}

#[derive_frule]
fn after_peak(x: &[f64]) -> f64 {
    let i = argmax(x);
    x[i + 1]
}

fn main() {}
