// A closure given to a library constructor that calls it with indices, other than
// nalgebra's `from_fn` and ndarray's `Array1`/`Array2::from_shape_fn` (supported): a
// three-index tensor.
use fwdad::prelude::*;
use ndarray::Array3;

#[derive_frule]
fn triple_sum(x: &[f64]) -> f64 {
    let n = x.len();
    let t = Array3::from_shape_fn((n, n, n), |(i, j, k)| x[i] * x[j] * x[k]);
    t.sum()
}

fn main() {}
