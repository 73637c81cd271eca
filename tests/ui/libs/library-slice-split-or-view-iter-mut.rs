// A library value's elements as a mutable slice split in two, and a row view's elements
// written through `iter_mut` (type errors).
use fwdad::prelude::*;
use nalgebra::Matrix3;

#[derive_frule]
fn split_storage(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    let (a, b) = m.as_mut_slice().split_at_mut(3);
    a[0] *= b[0];
    m[(0, 0)] + m[(1, 0)]
}

#[derive_frule]
fn doubled_row(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    for e in m.row_mut(1).iter_mut() {
        *e *= 2.0;
    }
    m[(1, 0)] + m[(1, 2)]
}

fn main() {}
