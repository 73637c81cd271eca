//! nalgebra's dynamically sized `DMatrix<f64>`, `DVector<f64>` and `RowDVector<f64>` in
//! derived bodies (feature `nalgebra`).
//!
//! As for the fixed-size types (see [`crate::nalgebra`]), an active dynamic matrix is the
//! same matrix over dual scalars (`DMatrix<Dual<f64, S>>`) and nalgebra's own generic code
//! computes its tangents; its tangent type is the same matrix type (`DMatrix<S>` in mode
//! `S`). These types own a heap buffer and are not `Copy`, so [`Lift`] and [`Unlift`]
//! map element by element instead of copying.
//!
//! ```
//! use fwdad_runtime::Dual;
//! use nalgebra::{DMatrix, DVector};
//!
//! // d/dt |A x(t) - b|² with x(t) = x + t e₀: 2 (A x - b)·(A e₀).
//! let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
//! let x = DVector::from_vec(vec![Dual::<f64>::new(0.5, 1.0), Dual::constant(-1.0)]);
//! let b = DVector::from_vec(vec![1.0, 0.0]);
//! let r = a.map(Dual::<f64>::constant) * x - b.map(Dual::<f64>::constant);
//! let e = r.dot(&r);
//! // A x - b = (-2.5, -2.5); A e₀ = (1, 3): 2 (-2.5 - 7.5) = -20.
//! assert_eq!((e.primal, e.tangent), (12.5, -20.0));
//! ```

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::{Dual, DualSlice};
use crate::lift::{Lift, Unlift};
use crate::nalgebra::DualIn;
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
use nalgebra::{Dyn, Matrix, OMatrix, VecStorage, U1};

/// A dynamic matrix parameter reads its length (`d.len()`, the number of entries, as
/// nalgebra's `len`) without being lifted.
impl<'a, F: Real, TE: ScalarTangent<F>, R: nalgebra::Dim, C: nalgebra::Dim> DualSlice
    for Dual<&'a OMatrix<F, R, C>, &'a OMatrix<TE, R, C>>
where
    nalgebra::DefaultAllocator: nalgebra::allocator::Allocator<R, C>,
    OMatrix<F, R, C>: Differentiable,
{
    type Elem = F;
    type TElem = TE;
    #[inline(always)]
    fn primal_slice(&self) -> &[F] {
        self.primal.as_slice()
    }
    #[inline(always)]
    fn tangent_slice(&self) -> &[TE] {
        self.tangent.as_slice()
    }
}

/// A matrix over duals computed in the body, read element by element by iterator chains.
/// nalgebra's linear index is column-major, `iter()`'s order, for views too (a row of a
/// column-major matrix, whose elements are not contiguous).
impl<S: Mode, R: nalgebra::Dim, C: nalgebra::Dim, St> crate::lift::DualElems<S>
    for nalgebra::Matrix<Dual<f64, S>, R, C, St>
where
    St: nalgebra::RawStorage<Dual<f64, S>, R, C>,
{
    #[inline(always)]
    fn dual_elem(&self, i: usize) -> &Dual<f64, S> {
        &self[i]
    }
}

/// A matrix over duals written element by element (`for v in m.iter_mut()`, `for e in
/// m.row_mut(i).iter_mut()`), in `iter_mut()`'s column-major order.
impl<S: Mode, R: nalgebra::Dim, C: nalgebra::Dim, St> crate::lift::DualElemsMut<S>
    for nalgebra::Matrix<Dual<f64, S>, R, C, St>
where
    St: nalgebra::RawStorageMut<Dual<f64, S>, R, C>,
{
    #[inline(always)]
    fn dual_elem_mut(&mut self, i: usize) -> &mut Dual<f64, S> {
        &mut self[i]
    }
}

/// A matrix parameter's shape (`a.nrows()` in a derived body), read from its primal.
impl<'a, F: Real, TE: ScalarTangent<F>, R: nalgebra::Dim, C: nalgebra::Dim>
    Dual<&'a OMatrix<F, R, C>, &'a OMatrix<TE, R, C>>
where
    nalgebra::DefaultAllocator: nalgebra::allocator::Allocator<R, C>,
    OMatrix<F, R, C>: Differentiable,
{
    /// The number of rows.
    #[inline(always)]
    pub fn nrows(&self) -> usize {
        self.primal.nrows()
    }
    /// The number of columns.
    #[inline(always)]
    pub fn ncols(&self) -> usize {
        self.primal.ncols()
    }
}

/// `x[i]` and `a[(i, j)]` of a matrix parameter (fixed-size or dynamic), read from its
/// primal and tangent: no copy of the whole matrix per element read.
impl<'a, S: Mode, F: Real, R: nalgebra::Dim, C: nalgebra::Dim, I> crate::lift::LiftIndex<S, I>
    for Dual<&'a OMatrix<F, R, C>, &'a OMatrix<F::TangentIn<S>, R, C>>
where
    nalgebra::DefaultAllocator: nalgebra::allocator::Allocator<R, C>,
    OMatrix<F, R, C>: Differentiable + core::ops::Index<I, Output = F>,
    OMatrix<F::TangentIn<S>, R, C>: core::ops::Index<I, Output = F::TangentIn<S>>,
    F::TangentIn<S>: ScalarTangent<F>,
    I: Copy,
{
    type Output = DualIn<F, S>;
    #[inline(always)]
    fn lift_index(self, i: I) -> DualIn<F, S> {
        Dual::new(self.primal[i], self.tangent[i])
    }
}

/// The impls for one dynamic shape `OMatrix<F, $R, $C>` (`$R`, `$C`: `Dyn` or `U1`), over
/// any float type `F` (`f64`, or a function's `T: RealField`).
macro_rules! dynamic_matrix {
    ($R:ty, $C:ty) => {
        /// A dynamic matrix's tangent is a matrix of the same shape (its storage written
        /// out: a generic float's tangent is not known to be a `Scalar`).
        impl<F: Real> Differentiable for OMatrix<F, $R, $C> {
            type Tangent = OMatrix<F, $R, $C>;
            type TangentIn<S: Mode> =
                Matrix<F::TangentIn<S>, $R, $C, VecStorage<F::TangentIn<S>, $R, $C>>;
        }
        impl<F: Real> $crate::traits::UserValue for OMatrix<F, $R, $C> {}
        /// Through a `dyn` call: the components' lanes.
        impl $crate::traits::LaneValue for OMatrix<f64, $R, $C> {
            fn lane1<S: Mode>(t: &OMatrix<S, $R, $C>, k: usize) -> OMatrix<f64, $R, $C> {
                t.map(|s| $crate::traits::DynLanes::lane1(&s, k))
            }
            fn lane2<S: Mode>(
                t: &OMatrix<S, $R, $C>,
                k: usize,
            ) -> OMatrix<$crate::Hyper<f64, f64>, $R, $C> {
                t.map(|s| $crate::traits::DynLanes::lane2(&s, k))
            }
            fn set_lane1<S: Mode>(t: &mut OMatrix<S, $R, $C>, k: usize, v: &OMatrix<f64, $R, $C>) {
                for (t, v) in t.iter_mut().zip(v.iter()) {
                    $crate::traits::DynLanes::set_lane1(t, k, *v);
                }
            }
            fn set_lane2<S: Mode>(
                t: &mut OMatrix<S, $R, $C>,
                k: usize,
                v: &OMatrix<$crate::Hyper<f64, f64>, $R, $C>,
            ) {
                for (t, v) in t.iter_mut().zip(v.iter()) {
                    $crate::traits::DynLanes::set_lane2(t, k, *v);
                }
            }
        }

        impl<'a, F: Real> crate::constant::Constant for &'a OMatrix<F, $R, $C> {
            type Primal = &'a OMatrix<F, $R, $C>;
            type Zero = crate::constant::ConstTangent;
            #[inline(always)]
            fn constant(self) -> Dual<&'a OMatrix<F, $R, $C>, crate::constant::ConstTangent> {
                Dual::new(self, crate::constant::ConstTangent)
            }
        }

        impl<F: Real> ZeroTangent for OMatrix<F, $R, $C> {
            fn zero_tangent(&self) -> OMatrix<F, $R, $C> {
                self.map(|_| F::zero())
            }
            fn zero_tangent_in<S: Mode>(
                &self,
            ) -> Matrix<F::TangentIn<S>, $R, $C, VecStorage<F::TangentIn<S>, $R, $C>> {
                let (r, c) = self.shape_generic();
                let zeros = (0..self.len())
                    .map(|_| F::zero().zero_tangent_in::<S>())
                    .collect();
                Matrix::from_data(VecStorage::new(r, c, zeros))
            }
        }

        /// A constant.
        impl<S: Mode, F: Real> Lift<S> for OMatrix<F, $R, $C>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = OMatrix<DualIn<F, S>, $R, $C>;
            #[inline]
            fn lift(self) -> Self::Output {
                self.map(|x| Dual::new(x, x.zero_tangent_in::<S>()))
            }
        }

        /// A constant.
        impl<S: Mode, F: Real> Lift<S> for &OMatrix<F, $R, $C>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = OMatrix<DualIn<F, S>, $R, $C>;
            #[inline]
            fn lift(self) -> Self::Output {
                self.map(|x| Dual::new(x, x.zero_tangent_in::<S>()))
            }
        }

        impl<S: Mode, F: Real> Lift<S> for OMatrix<DualIn<F, S>, $R, $C>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = Self;
            #[inline(always)]
            fn lift(self) -> Self {
                self
            }
        }

        impl<'r, S: Mode, F: Real> Lift<S> for &'r OMatrix<DualIn<F, S>, $R, $C>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = Self;
            #[inline(always)]
            fn lift(self) -> Self {
                self
            }
        }

        /// A parameter taken by value.
        impl<S: Mode, F: Real> Lift<S>
            for Dual<OMatrix<F, $R, $C>, OMatrix<F::TangentIn<S>, $R, $C>>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = OMatrix<DualIn<F, S>, $R, $C>;
            #[inline]
            fn lift(self) -> Self::Output {
                self.primal.zip_map(&self.tangent, Dual::new)
            }
        }

        /// A parameter taken by value, lifted at each use without moving it.
        impl<S: Mode, F: Real> Lift<S>
            for &Dual<OMatrix<F, $R, $C>, OMatrix<F::TangentIn<S>, $R, $C>>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = OMatrix<DualIn<F, S>, $R, $C>;
            #[inline]
            fn lift(self) -> Self::Output {
                self.primal.zip_map(&self.tangent, Dual::new)
            }
        }

        /// A parameter taken by reference.
        impl<'a, S: Mode, F: Real> Lift<S>
            for Dual<&'a OMatrix<F, $R, $C>, &'a OMatrix<F::TangentIn<S>, $R, $C>>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = OMatrix<DualIn<F, S>, $R, $C>;
            #[inline]
            fn lift(self) -> Self::Output {
                self.primal.zip_map(self.tangent, Dual::new)
            }
        }

        impl<S: Mode, F: Real> Unlift<S> for OMatrix<DualIn<F, S>, $R, $C>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = Dual<OMatrix<F, $R, $C>, OMatrix<F::TangentIn<S>, $R, $C>>;
            #[inline]
            fn unlift(self) -> Self::Output {
                Dual::new(self.map(|d| d.primal), self.map(|d| d.tangent))
            }
        }

        impl<S: Mode, F: Real> Unlift<S> for &OMatrix<DualIn<F, S>, $R, $C>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = Dual<OMatrix<F, $R, $C>, OMatrix<F::TangentIn<S>, $R, $C>>;
            #[inline]
            fn unlift(self) -> Self::Output {
                Dual::new(self.map(|d| d.primal), self.map(|d| d.tangent))
            }
        }
    };
}

dynamic_matrix!(Dyn, Dyn);
dynamic_matrix!(Dyn, U1);
dynamic_matrix!(U1, Dyn);
