//! nalgebra in functions generic over their dimension (`const N: usize`) and over their
//! float type (`T: RealField`), as library code writes them, against central differences
//! of the plain functions in every mode, primal bit for bit.
//!
//! Run with `cargo test --features nalgebra --test lib_nalgebra_generic`.

mod common;

use fwdad::prelude::*;
use nalgebra::{SMatrix, SVector, Vector3};

/// The energy of a chain of `N` masses: kinetic and spring terms, any dimension.
#[derive_frule]
fn chain_energy<const N: usize>(v: &SVector<f64, N>, x: &SVector<f64, N>, k: f64) -> f64 {
    let mut e = 0.5 * v.norm_squared();
    for i in 0..N - 1 {
        let d = x[i + 1] - x[i];
        e += 0.5 * k * d * d;
    }
    e
}

#[derive_frule]
fn chain_of(p: &[f64]) -> f64 {
    let v = SVector::<f64, 3>::new(p[0], p[1], p[2]);
    let x = Vector3::new(p[3], p[4], p[5]);
    chain_energy(&v, &x, 2.5)
}

#[test]
fn dimension_generic_energy() {
    let p = [0.3, -0.2, 0.5, 1.0, 1.4, 2.1];
    check_modes!(chain_of {}, chain_of, p);
}

/// A quadratic form `xᵀ A x` with `A` and `x` of any size.
#[derive_frule]
fn quad<const N: usize>(a: &SMatrix<f64, N, N>, x: &SVector<f64, N>) -> f64 {
    let ax = a * x;
    x.dot(&ax)
}

#[derive_frule]
fn quad_of(p: &[f64]) -> f64 {
    let a = SMatrix::<f64, 2, 2>::new(2.0, p[0], 0.5, 3.0);
    let x = SVector::<f64, 2>::new(p[1], p[2]);
    quad(&a, &x)
}

#[test]
fn dimension_generic_quadratic_form() {
    let p = [0.3, -0.7, 1.2];
    check_modes!(quad_of {}, quad_of, p);
}
