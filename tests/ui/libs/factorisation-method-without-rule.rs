// A method of a Cholesky or LU factorisation of an active matrix that the implicit rule's
// factorisation does not have (it has `solve`, `solve_mut`, `inverse`/`try_inverse`,
// `determinant`, `l`, `u`, `p`, `unpack`).
use fwdad::prelude::*;
use nalgebra::{Matrix3, Vector3};

#[derive_frule]
fn updated_solve(a: &Matrix3<f64>, v: &Vector3<f64>, b: &Vector3<f64>) -> Vector3<f64> {
    let mut chol = a.cholesky().expect("positive definite");
    chol.rank_one_update(v, 1.0);
    chol.solve(b)
}

fn main() {}
