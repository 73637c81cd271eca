// An LU factorisation of constant data solving for an active right-hand side: nalgebra's
// `LU` cannot be rebuilt over duals from its factors, so the constant factorisation has no
// dual form (a constant `Cholesky` has one). Declare the matrix active (do not name it in
// `inactive(..)`), or use `cholesky()` for a symmetric positive definite matrix.
use fwdad::prelude::*;
use nalgebra::{Matrix3, Vector3};

#[derive_frule(inactive(a))]
fn solve(a: &Matrix3<f64>, b: &Vector3<f64>) -> f64 {
    let x = a.lu().solve(b).expect("invertible");
    x.norm()
}

fn main() {}
