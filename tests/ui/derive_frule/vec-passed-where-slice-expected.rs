// A derived function called with a `Vec<f64>` where the callee takes `&[f64]` (the author
// forgot the `&`). The first error is rustc's, at the argument of the plain function.
use fwdad::prelude::*;

#[derive_frule]
fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

#[derive_frule]
fn spread(a: f64, b: f64) -> f64 {
    let v = vec![a, b, a * b];
    let m = mean(v);
    (a - m).powi(2) + (b - m).powi(2)
}

fn main() {}
