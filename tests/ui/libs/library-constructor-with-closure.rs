// A closure given to a library constructor that calls it with indices (`from_fn`).
use fwdad::prelude::*;
use nalgebra::DMatrix;

#[derive_frule]
fn kernel_trace(x: &[f64]) -> f64 {
    let n = x.len();
    let k = DMatrix::from_fn(n, n, |i, j| (-0.5 * (x[i] - x[j]).powi(2)).exp());
    k.trace()
}

fn main() {}
