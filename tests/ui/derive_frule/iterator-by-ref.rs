// `by_ref()` on a slice iterator read other than by `take(n)` to its end: the error is at
// `by_ref` and says what is supported and what to write instead.
use fwdad::prelude::*;

#[derive_frule]
fn header_loop(v: &[f64]) -> f64 {
    let mut it = v.iter();
    let mut head = 0.0;
    for x in it.by_ref().take(3) {
        head += x;
    }
    let rest: f64 = it.map(|x| x * x).sum();
    head + rest
}

#[derive_frule]
fn after_first_large(v: &[f64]) -> f64 {
    let mut it = v.iter();
    let big = it.by_ref().find(|x| **x > 1.0).copied().unwrap_or(0.0);
    big + it.sum::<f64>()
}

fn main() {}
