//! `lift`: an operand of a library value's operation in the library's form over duals.
//!
//! `#[derive_frule]` emits an operation on a value of a library type (`b - a` of
//! `nalgebra::Vector3<f64>`s, `v.norm()`, `Complex::new(re, im)`) as written, each operand
//! passed through [`lift`]: a plain `f64` becomes a constant dual, a library value of
//! `f64`s the same value over constant duals, a parameter's dual of a library value
//! (`Dual<&Vector3<f64>, &Vector3<S>>`) the value over duals (`Vector3<Dual<f64, S>>`),
//! and a value already in that form stays as it is. The library's generic code then
//! computes the tangents (see the runtime's `nalgebra` and `complex` modules).

use crate::differentiable::ZeroTangent;
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::Mode;
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::vec::Vec;

/// A value in the library form of mode `S` (see the [module docs](self)).
pub trait Lift<S: Mode> {
    /// The value over duals.
    type Output;
    /// Converts.
    fn lift(self) -> Self::Output;
}

/// `x` in the library form of mode `S`.
#[inline(always)]
pub fn lift<S: Mode, X: Lift<S>>(x: X) -> X::Output {
    x.lift()
}

/// A library value over duals back to the dual of the whole value (`Vector3<Dual<f64, S>>`
/// to `Dual<Vector3<f64>, Vector3<S>>`): what a derived function returns.
pub trait Unlift<S: Mode> {
    /// The dual of the whole value.
    type Output;
    /// Converts.
    fn unlift(self) -> Self::Output;
}

/// `x`, in the library form of mode `S`, as the dual of the whole value.
#[inline(always)]
pub fn unlift<S: Mode, X: Unlift<S>>(x: X) -> X::Output {
    x.unlift()
}

/// An element of a library value taken as a parameter, `x[i]` or `a[(i, j)]`, read from
/// its primal and tangent without lifting the whole value.
pub trait LiftIndex<S: Mode, I> {
    /// The element's dual.
    type Output;
    /// Reads it.
    fn lift_index(self, i: I) -> Self::Output;
}

/// `x[i]` of a parameter `x` of a library type, as a dual scalar.
#[inline(always)]
pub fn lift_index<S: Mode, I, X: LiftIndex<S, I>>(x: X, i: I) -> X::Output {
    x.lift_index(i)
}

/// A library value over duals computed in a body (`chol.l().diagonal()`), read element
/// by element in its iteration order, so that `d.iter()` and `for x in &d` read in place.
pub trait DualElems<S: Mode> {
    /// Element `i` in the order `iter()` visits them.
    ///
    /// # Panics
    /// If `i` is out of bounds, as indexing a slice would.
    fn dual_elem(&self, i: usize) -> &Dual<f64, S>;
}

/// A library value over duals whose elements the iterator chains write (`iter_mut`).
pub trait DualElemsMut<S: Mode> {
    /// Element `i` in the order `iter_mut()` visits them.
    ///
    /// # Panics
    /// If `i` is out of bounds, as indexing a slice would.
    fn dual_elem_mut(&mut self, i: usize) -> &mut Dual<f64, S>;
}

/// `&mut v[i]` of a library value over duals, as `for e in v.iter_mut()` writes elements:
/// the element's primal and tangent borrowed where they are stored.
#[inline(always)]
pub fn lib_elem_at_mut<S: Mode, L: DualElemsMut<S>>(v: &mut L, i: usize) -> Dual<&mut f64, &mut S> {
    let e = v.dual_elem_mut(i);
    Dual::new(&mut e.primal, &mut e.tangent)
}

/// `&v[i]` of a library value over duals, as the iterator chains read elements: the
/// element's primal and tangent borrowed where they are stored.
#[inline(always)]
pub fn lib_elem_at<S: Mode, L: DualElems<S>>(v: &L, i: usize) -> Dual<&f64, &S> {
    let e = v.dual_elem(i);
    Dual::new(&e.primal, &e.tangent)
}

/// A scalar of float type `F` over duals in mode `S` (`Dual<f64, S>` for `f64`): the
/// elements of a library value over duals.
pub type DualIn<F, S> = Dual<F, <F as crate::differentiable::Differentiable>::TangentIn<S>>;

/// A scalar is its own dual (a method the macro could not tell returns a scalar).
impl<S: Mode, F: Real> Unlift<S> for Dual<F, F::TangentIn<S>> {
    type Output = Self;
    #[inline(always)]
    fn unlift(self) -> Self {
        self
    }
}

// The scalars are lifted for any float type `F` (`f64`, and `f32` or a generic `T` of a
// function generic over its float type, whose tangent under `S` is `F::TangentIn<S>`), so
// that `Complex<T>` in `fn tf<T: Float>` is num-complex's over `Dual<T, ..>`.

/// A constant.
impl<S: Mode, F: Real> Lift<S> for F {
    type Output = Dual<F, F::TangentIn<S>>;
    #[inline(always)]
    fn lift(self) -> Dual<F, F::TangentIn<S>> {
        Dual::new(self, self.zero_tangent_in::<S>())
    }
}

/// A constant.
impl<S: Mode> Lift<S> for &f64 {
    type Output = Dual<f64, S>;
    #[inline(always)]
    fn lift(self) -> Dual<f64, S> {
        Dual::new(*self, S::zero())
    }
}

/// A constant.
impl<S: Mode> Lift<S> for &f32 {
    type Output = Dual<f32, S::Of<f32>>;
    #[inline(always)]
    fn lift(self) -> Dual<f32, S::Of<f32>> {
        Dual::new(*self, self.zero_tangent_in::<S>())
    }
}

impl<S: Mode, F: Real> Lift<S> for Dual<F, F::TangentIn<S>> {
    type Output = Self;
    #[inline(always)]
    fn lift(self) -> Self {
        self
    }
}

impl<S: Mode, F: Real> Lift<S> for &Dual<F, F::TangentIn<S>>
where
    F::TangentIn<S>: Copy,
{
    type Output = Dual<F, F::TangentIn<S>>;
    #[inline(always)]
    fn lift(self) -> Dual<F, F::TangentIn<S>> {
        *self
    }
}

/// A borrowed element (`x[i]` of a slice).
impl<'a, S: Mode> Lift<S> for Dual<&'a f64, &'a S> {
    type Output = Dual<f64, S>;
    #[inline(always)]
    fn lift(self) -> Dual<f64, S> {
        self.copied()
    }
}

/// A borrowed element (`x[i]` of a slice).
impl<'a, S: Mode> Lift<S> for Dual<&'a f32, &'a S::Of<f32>> {
    type Output = Dual<f32, S::Of<f32>>;
    #[inline(always)]
    fn lift(self) -> Dual<f32, S::Of<f32>> {
        self.copied()
    }
}

/// A value stored into a field of a library value over duals (`p.y = v`): the lifted
/// value itself, or an `f64` constant into an `f32` field (a literal, `p.y = 0.0`, which
/// lifting types `f64`), rounded.
pub trait StoreInto<T> {
    /// `*slot = self`.
    fn store_into(self, slot: &mut T);
}

impl<T> StoreInto<T> for T {
    #[inline(always)]
    fn store_into(self, slot: &mut T) {
        *slot = self;
    }
}

impl<S: Mode> StoreInto<Dual<f32, S::Of<f32>>> for Dual<f64, S> {
    #[inline(always)]
    fn store_into(self, slot: &mut Dual<f32, S::Of<f32>>) {
        *slot = Dual::new(self.primal as f32, S::narrow::<f32>(self.tangent));
    }
}

/// `slot = v` for a field of a library value over duals (see [`StoreInto`]).
#[inline(always)]
pub fn store_field<T, V: StoreInto<T>>(slot: &mut T, v: V) {
    v.store_into(slot);
}

/// Implements `Lift` for a `Copy` library type `$ty` of `f64`s (generic over `$g`) whose
/// form over duals is `$dual` and whose tangent in mode `S` is `$tan`, with `$zip(p, t)`
/// pairing primal and tangent into the dual form, `$constant(c)` making constant duals,
/// and `Unlift` with `$unzip(d)` splitting the dual form into primal and tangent.
#[allow(unused_macros)]
macro_rules! lift_library_type {
    ([$($g:tt)*] $ty:ty, $tan:ty, $dual:ty, |$p:ident, $t:ident| $zip:expr, |$c:ident| $constant:expr, |$d:ident| $unzip:expr) => {
        impl<S: $crate::tangent::Mode, $($g)*> $crate::lift::Unlift<S> for $dual {
            type Output = $crate::Dual<$ty, $tan>;
            #[inline(always)]
            fn unlift(self) -> $crate::Dual<$ty, $tan> {
                let $d = self;
                $unzip
            }
        }
        impl<S: $crate::tangent::Mode, $($g)*> $crate::lift::Unlift<S> for &$dual {
            type Output = $crate::Dual<$ty, $tan>;
            #[inline(always)]
            fn unlift(self) -> $crate::Dual<$ty, $tan> {
                let $d = *self;
                $unzip
            }
        }
        /// A constant.
        impl<S: $crate::tangent::Mode, $($g)*> $crate::lift::Lift<S> for $ty {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let $c = self;
                $constant
            }
        }
        /// A constant.
        impl<S: $crate::tangent::Mode, $($g)*> $crate::lift::Lift<S> for &$ty {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let $c = *self;
                $constant
            }
        }
        impl<S: $crate::tangent::Mode, $($g)*> $crate::lift::Lift<S> for $dual {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                self
            }
        }
        impl<'r, S: $crate::tangent::Mode, $($g)*> $crate::lift::Lift<S> for &'r $dual {
            type Output = &'r $dual;
            #[inline(always)]
            fn lift(self) -> &'r $dual {
                self
            }
        }
        /// A parameter taken by value.
        impl<S: $crate::tangent::Mode, $($g)*> $crate::lift::Lift<S> for $crate::Dual<$ty, $tan> {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let ($p, $t) = (self.primal, self.tangent);
                $zip
            }
        }
        /// A parameter taken by reference.
        impl<'a, S: $crate::tangent::Mode, $($g)*> $crate::lift::Lift<S> for $crate::Dual<&'a $ty, &'a $tan> {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let ($p, $t) = (*self.primal, *self.tangent);
                $zip
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use lift_library_type;

/// A `Vec` of duals (`x.to_vec()` of a parameter), element by element, for a library
/// constructor taking a `Vec` (`Array1::from_vec(x.to_vec())`).
#[cfg(feature = "alloc")]
impl<S: Mode> Lift<S> for Dual<Vec<f64>, Vec<S>> {
    type Output = Vec<Dual<f64, S>>;
    fn lift(self) -> Vec<Dual<f64, S>> {
        self.primal
            .into_iter()
            .zip(self.tangent)
            .map(|(p, t)| Dual::new(p, t))
            .collect()
    }
}

/// A slice parameter (`x: &[f64]`), element by element, for a library constructor taking
/// a slice (`DVector::from_column_slice(x)`; the rule passes `&lift(x)`).
#[cfg(feature = "alloc")]
impl<'a, S: Mode> Lift<S> for Dual<&'a [f64], &'a [S]> {
    type Output = Vec<Dual<f64, S>>;
    fn lift(self) -> Vec<Dual<f64, S>> {
        self.primal
            .iter()
            .zip(self.tangent)
            .map(|(&p, &t)| Dual::new(p, t))
            .collect()
    }
}

/// A `Vec` of duals a library value gave (`a.to_vec()` of an `Array1` over duals), back
/// to the dual of the `Vec`.
#[cfg(feature = "alloc")]
impl<S: Mode> Unlift<S> for Vec<Dual<f64, S>> {
    type Output = Dual<Vec<f64>, Vec<S>>;
    fn unlift(self) -> Dual<Vec<f64>, Vec<S>> {
        let (primal, tangent) = self.into_iter().map(|d| (d.primal, d.tangent)).unzip();
        Dual::new(primal, tangent)
    }
}

/// A borrowed array of duals (`DMatrix::from_row_slice(2, 2, &[a, b, c, d])` with active
/// entries), element by element.
impl<'a, S: Mode, const N: usize> Lift<S> for Dual<&'a [f64; N], &'a [S; N]> {
    type Output = [Dual<f64, S>; N];
    fn lift(self) -> [Dual<f64, S>; N] {
        core::array::from_fn(|i| Dual::new(self.primal[i], self.tangent[i]))
    }
}

/// An array of duals by value (`Vector3::from([a, b, c])`), element by element.
impl<S: Mode, const N: usize> Lift<S> for Dual<[f64; N], [S; N]> {
    type Output = [Dual<f64, S>; N];
    fn lift(self) -> [Dual<f64, S>; N] {
        core::array::from_fn(|i| Dual::new(self.primal[i], self.tangent[i]))
    }
}

/// A slice of constants.
#[cfg(feature = "alloc")]
impl<S: Mode> Lift<S> for &[f64] {
    type Output = Vec<Dual<f64, S>>;
    fn lift(self) -> Vec<Dual<f64, S>> {
        self.iter().map(|&p| Dual::new(p, S::zero())).collect()
    }
}

/// A `Vec` of constants.
#[cfg(feature = "alloc")]
impl<S: Mode> Lift<S> for Vec<f64> {
    type Output = Vec<Dual<f64, S>>;
    fn lift(self) -> Vec<Dual<f64, S>> {
        self.into_iter().map(|p| Dual::new(p, S::zero())).collect()
    }
}
