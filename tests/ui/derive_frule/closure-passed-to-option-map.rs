// Closures given to methods that are not adaptors of a supported chain: the error names
// the method (helper hunt 28: it said closures may be passed to `map`, which is what the
// user wrote).
use fwdad::prelude::*;

// 1. argmax idiom: Option::map after max_by over enumerate()
#[derive_frule]
fn argmax_idiom(x: &[f64]) -> f64 {
    let idx = x
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .map(|(i, _)| i)
        .unwrap();
    x[idx] * 3.0
}

// 2. std::iter::zip (free-function form of .zip)
#[derive_frule]
fn dot_zip_fn(a: &[f64], b: &[f64]) -> f64 {
    std::iter::zip(a, b).map(|(x, y)| x * y).sum()
}

// 3. Option::map_or with a closure
#[derive_frule]
fn running_best(x: &[f64]) -> f64 {
    let mut best: Option<f64> = None;
    for &v in x {
        if best.map_or(true, |b| v > b) {
            best = Some(v);
        }
    }
    best.unwrap_or(0.0)
}
fn main() {}
