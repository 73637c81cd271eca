// A function of the user's returning a mutable view of its argument, for the caller to
// write through; and one taking a view to write into.
use fwdad::prelude::*;
use nalgebra::{Matrix3, MatrixViewMut, U1, U3};
use ndarray::ArrayViewMut1;

#[derive_frule]
fn top_row(m: &mut Matrix3<f64>) -> MatrixViewMut<'_, f64, U1, U3, U1, U3> {
    m.row_mut(0)
}

#[derive_frule]
fn normalise(mut r: ArrayViewMut1<f64>) {
    let n = r.sum();
    r /= n;
}

fn main() {}
