// `gradient` takes the point as a slice, a `&Vec<f64>` or an array (by value or by
// reference); a `Vec` moved in (or `f32`s) is reported with what to pass instead.
use fwdad::prelude::*;

#[derive_frule]
fn norm2(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

fn main() {
    let x = vec![1.0, 2.0];
    let _ = gradient(norm2 {}, x);
}
