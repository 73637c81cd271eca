// A closure given to a library constructor that calls it with indices, other than
// nalgebra's `from_fn` and ndarray's `Array1`/`Array2`/`Array3::from_shape_fn`
// (supported): the array's dimension not named, `Array::from_shape_fn`.
use fwdad::prelude::*;
use ndarray::Array;

#[derive_frule]
fn pair_sum(x: &[f64]) -> f64 {
    let n = x.len();
    let t = Array::from_shape_fn((n, n), |(i, j)| x[i] * x[j]);
    t.sum()
}

fn main() {}
