// Views taken from a tuple, then written by compound assignment: ndarray's `split_at` of a
// mutable view, and a tuple of two views.
use fwdad::prelude::*;
use nalgebra::Matrix3;
use ndarray::{Array2, Axis};

#[derive_frule]
fn split_rows(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    let (mut top, mut rest) = a.view_mut().split_at(Axis(0), 1);
    top *= 2.0;
    rest += 1.0;
    a[[0, 1]] + a[[1, 1]]
}

#[derive_frule]
fn two_views(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    let mut n = Matrix3::from_row_slice(&x[..9]);
    let (mut a, mut b) = (m.row_mut(0), n.column_mut(1));
    a *= 2.0;
    b /= x[4];
    m[(0, 1)] + n[(0, 1)] * m[(1, 1)]
}

fn main() {}
