//! The row-major `Matrix` the Jacobian and Hessian drivers return.

use fwdad::drivers::Matrix;

#[test]
fn construction_and_access() {
    let m = Matrix::from_row_major(2, 3, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(m.shape(), (2, 3));
    assert_eq!((m.nrows(), m.ncols()), (2, 3));
    assert_eq!(m[(0, 2)], 3.0);
    assert_eq!(m[(1, 0)], 4.0);
    assert_eq!(m.row(1), [4.0, 5.0, 6.0]);
    assert_eq!(m.column(2), [3.0, 6.0]);
    assert_eq!(m.rows().count(), 2);
    assert_eq!(m.to_rows(), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    assert_eq!(Matrix::from_rows(&m.to_rows()), m);
    assert_eq!(Vec::<Vec<f64>>::from(m.clone()), m.to_rows());
    assert_eq!(m.as_slice(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(m.clone().into_vec(), m.as_slice());
    let t = m.transpose();
    assert_eq!(t.to_rows(), [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]);
    assert_eq!(t.transpose(), m);
    assert_eq!(m.mul_vec(&[1.0, 0.0, -1.0]), [-2.0, -2.0]);
    assert_eq!(Matrix::identity(2).to_rows(), [[1.0, 0.0], [0.0, 1.0]]);
    assert_eq!(Matrix::zeros(0, 3).rows().count(), 0);
}

#[test]
fn mutation() {
    let mut m = Matrix::zeros(2, 2);
    m[(0, 1)] = 2.0;
    m.row_mut(1)[0] = -1.0;
    assert_eq!(m.to_rows(), [[0.0, 2.0], [-1.0, 0.0]]);
}

#[test]
fn display_applies_the_format_to_each_entry() {
    let m = Matrix::from_rows(&[[1.0, -2.5], [0.125, 4.0]]);
    assert_eq!(format!("{m}"), "1 -2.5\n0.125 4");
    assert_eq!(format!("{m:7.2}"), "   1.00   -2.50\n   0.12    4.00");
}

#[test]
#[should_panic(expected = "out of a 2 × 2 matrix")]
fn index_out_of_bounds_panics() {
    let m = Matrix::zeros(2, 2);
    let _ = m[(0, 2)];
}

#[test]
#[should_panic(expected = "needs 4 elements")]
fn wrong_data_length_panics() {
    let _ = Matrix::from_row_major(2, 2, vec![0.0; 3]);
}
