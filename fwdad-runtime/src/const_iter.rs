//! Parameters generic over an iterator of constants (`fn polynomial<I: IntoIterator<Item =
//! f64>>(x: f64, coefficients: I)`, as puruspe writes Horner's rule): `#[derive_frule]`
//! takes such a parameter as constant data, and its rule takes any [`ConstIter`] argument
//! for it. A direct call passes the iterable itself (`[c0, c1, c2]`, a `Vec`, a slice's
//! `iter().copied()`); a call from another derived body passes it as the constant dual it
//! built (`Dual<[f64; N], [T; N]>`), whose tangent must be zero: an argument that carries a
//! derivative (an array of differentiated values) panics instead of having it dropped.

use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::ScalarTangent;
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::vec::Vec;

/// An argument to a parameter of a derived function generic over an iterator: the
/// iterable as the function receives it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed as constant data to a parameter generic over an iterator",
    note = "pass an array, a `Vec`, a slice, or a slice's iterator (`c.iter().copied()`), or their constant dual"
)]
#[doc(hidden)]
pub trait ConstIter {
    /// The iterable.
    type Iter;
    /// The iterable, its tangent (if any) checked to be zero.
    fn into_const(self) -> Self::Iter;
}

macro_rules! const_iter_plain {
    ($([$($g:tt)*] $t:ty;)*) => {$(
        impl<$($g)*> ConstIter for $t {
            type Iter = Self;
            #[inline(always)]
            fn into_const(self) -> Self {
                self
            }
        }
    )*};
}

const_iter_plain! {
    [E, const N: usize] [E; N];
    ['a, E] &'a [E];
    ['a, E, const N: usize] &'a [E; N];
    [I] core::iter::Copied<I>;
    [I] core::iter::Cloned<I>;
    [I] core::iter::Rev<I>;
    [I] core::iter::Take<I>;
    [I] core::iter::Skip<I>;
    [I] core::iter::StepBy<I>;
    [A, B] core::iter::Chain<A, B>;
    [I, F] core::iter::Map<I, F>;
    [T] core::iter::Once<T>;
    [T] core::option::IntoIter<T>;
    [E, const N: usize] core::array::IntoIter<E, N>;
}

#[cfg(feature = "alloc")]
const_iter_plain! {
    [E] Vec<E>;
    ['a, E] &'a Vec<E>;
    [E] alloc::vec::IntoIter<E>;
}

/// The constant dual a derived caller builds for the argument (`constant_in`): its tangent
/// is zero, unless the caller's value depends on its inputs.
macro_rules! const_iter_dual {
    ($([$($g:tt)*] $p:ty, $t:ty;)*) => {$(
        impl<$($g)*> ConstIter for Dual<$p, $t> {
            type Iter = $p;
            #[inline(always)]
            fn into_const(self) -> $p {
                assert!(
                    self.tangent.iter().all(|t| *t == T::zero()),
                    "a value that depends on the differentiated inputs was passed to a parameter generic over an iterator, whose elements fwdad takes as constants: take them as a slice (`&[f64]`) to differentiate with respect to them"
                );
                self.primal
            }
        }
    )*};
}

const_iter_dual! {
    [F: Real, T: ScalarTangent<F>, const N: usize] [F; N], [T; N];
    ['a, F: Real, T: ScalarTangent<F>] &'a [F], &'a [T];
    ['a, F: Real, T: ScalarTangent<F>, const N: usize] &'a [F; N], &'a [T; N];
}

#[cfg(feature = "alloc")]
const_iter_dual! {
    [F: Real, T: ScalarTangent<F>] Vec<F>, Vec<T>;
}

/// The elements of a constant iterable, collected: the body of a derived function indexes
/// them (its iterator chains are loops over indices).
#[cfg(feature = "alloc")]
#[doc(hidden)]
#[inline]
pub fn const_iter_vec<I: IntoIterator>(iter: I) -> Vec<I::Item> {
    iter.into_iter().collect()
}
