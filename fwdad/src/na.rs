//! The drivers with nalgebra vectors and matrices (feature `nalgebra`).
//!
//! The same drivers as [`crate::drivers`], for a point given as any contiguous nalgebra
//! column vector (`SVector<f64, N>`, `Vector3<f64>`, `DVector<f64>`, a contiguous view):
//! the gradient comes back as a vector of the same dimension, the Hessian as a square
//! matrix of it (`SMatrix<f64, N, N>` for a fixed-size point), the Jacobian as an
//! `m × n` matrix (`J[(i, j)] = ∂fᵢ/∂xⱼ`) with `n` the point's dimension. The function is
//! a `#[derive_frule]` function of `x: &[f64]`, exactly as for the slice drivers, or of
//! the vector itself (`x: &Vector3<f64>`, `&DVector<f64>`) bound with
//! `bind(f {}, (Wrt,))`.
//!
//! ```
//! use fwdad::prelude::*;
//! use nalgebra::{Matrix3, Vector3};
//!
//! #[derive_frule]
//! fn potential(x: &[f64]) -> f64 {
//!     x[0] * x[0] + 3.0 * x[1] * x[2] + x[2].sin()
//! }
//!
//! let x = Vector3::new(1.0, 2.0, 0.5);
//! let (v, g): (f64, Vector3<f64>) = fwdad::na::gradient(potential {}, &x);
//! assert_eq!(v, potential(x.as_slice()));
//! assert_eq!(g, Vector3::new(2.0, 1.5, 6.0 + 0.5f64.cos()));
//! let (_, _, h): (_, _, Matrix3<f64>) = fwdad::na::hessian(potential {}, &x);
//! assert_eq!(h[(1, 2)], 3.0);
//! assert_eq!(h[(2, 2)], -(0.5f64.sin()));
//! ```

use crate::drivers::{self, GradientRule, JacobianRule, SliceRule, DEFAULT_WIDTH};
use fwdad_runtime::{Batch, Dual, Hyper};
use nalgebra::allocator::Allocator;
use nalgebra::{
    DVector, DefaultAllocator, Dim, Dyn, IsContiguous, Matrix, OMatrix, OVector, RawStorage,
    VecStorage, U1,
};

type Hyper2 = Hyper<f64, Batch<f64, DEFAULT_WIDTH>>;

/// The value of `f` at `x` and its gradient, a vector of `x`'s dimension (see
/// [`drivers::gradient`]).
pub fn gradient<R, S>(f: impl GradientRule, x: &Matrix<f64, R, U1, S>) -> (f64, OVector<f64, R>)
where
    R: Dim,
    S: RawStorage<f64, R> + IsContiguous,
    DefaultAllocator: Allocator<R>,
{
    let (value, g) = drivers::gradient(f, x.as_slice());
    let (rows, _) = x.shape_generic();
    (value, OVector::from_iterator_generic(rows, U1, g))
}

/// The values of `f` at `x` and its Jacobian, `m × dim(x)` (see [`drivers::jacobian`]).
pub fn jacobian<F, R, S>(f: F, x: &Matrix<f64, R, U1, S>) -> (DVector<f64>, OMatrix<f64, Dyn, R>)
where
    F: JacobianRule,
    R: Dim,
    S: RawStorage<f64, R> + IsContiguous,
    DefaultAllocator: Allocator<Dyn, R>,
{
    let (values, jac) = drivers::jacobian(f, x.as_slice());
    let (rows, _) = x.shape_generic();
    let m = values.len();
    let j = OMatrix::from_row_iterator_generic(Dyn(m), rows, jac.as_slice().iter().copied());
    // (Not `DVector::from_vec`: the `Allocator<Dyn, R>` bound hides its `Allocator<Dyn, U1>`.)
    let values = DVector::from_vec_storage(VecStorage::new(Dyn(m), U1, values));
    (values, j)
}

/// The value of `f` at `x`, its gradient and its Hessian, square of `x`'s dimension (see
/// [`drivers::hessian`]).
pub fn hessian<F, R, S>(
    f: F,
    x: &Matrix<f64, R, U1, S>,
) -> (f64, OVector<f64, R>, OMatrix<f64, R, R>)
where
    F: SliceRule<Hyper2, Output = Dual<f64, Hyper2>>,
    R: Dim,
    S: RawStorage<f64, R> + IsContiguous,
    DefaultAllocator: Allocator<R> + Allocator<R, R>,
{
    let (value, g, h) = drivers::hessian(f, x.as_slice());
    let (rows, _) = x.shape_generic();
    let h = OMatrix::from_row_iterator_generic(rows, rows, h.as_slice().iter().copied());
    (value, OVector::from_iterator_generic(rows, U1, g), h)
}
