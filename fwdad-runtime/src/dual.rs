//! `Dual<P, T>`: a primal value and its tangent.
//!
//! `T` defaults to `P`'s one tangent type, so `Dual<f64>` is `Dual<f64, f64>` and
//! `Dual<&[f64]>` is `Dual<&[f64], &[f64]>`; batched and second-order duals are the same
//! struct with another `T` (`Dual<f64, Batch<f64, 4>>`).

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::tangent::Mode;
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::vec::Vec;
use core::fmt;

/// A primal value paired with a tangent (a directional derivative, or a batch of them).
///
/// A scalar dual (`Dual<f32 | f64, T>`) is also a number: `num_traits::Float` and its
/// companions, where `==` and `<` compare primals (see [`crate::num`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Dual<P: Differentiable, T = <P as Differentiable>::Tangent> {
    /// The value, exactly as the plain function computes it.
    pub primal: P,
    /// Its derivative along the input tangent(s).
    pub tangent: T,
}

impl<P: Differentiable, T> Dual<P, T> {
    /// Pairs a primal with a tangent.
    #[inline(always)]
    pub const fn new(primal: P, tangent: T) -> Self {
        Dual { primal, tangent }
    }

    /// Splits into `(primal, tangent)`.
    #[inline(always)]
    pub fn into_parts(self) -> (P, T) {
        (self.primal, self.tangent)
    }

    /// Borrows both parts: `&Dual<P, T>` to `Dual<&P, &T>`.
    #[inline(always)]
    pub fn as_ref(&self) -> Dual<&P, &T> {
        Dual {
            primal: &self.primal,
            tangent: &self.tangent,
        }
    }

    /// Borrows both parts mutably: `&mut Dual<P, T>` to `Dual<&mut P, &mut T>`.
    #[inline(always)]
    pub fn as_mut(&mut self) -> Dual<&mut P, &mut T> {
        Dual {
            primal: &mut self.primal,
            tangent: &mut self.tangent,
        }
    }
}

impl<P: Differentiable, T> Dual<P, T> {
    /// A value that does not vary: an owned value with its zero tangent (`2.0`, an array,
    /// a struct), a borrowed slice or array of floats (`&a[..]`, `&[f64; N]`, `&v` of a
    /// `Vec`, which gives a slice) with [`ConstTangent`](crate::ConstTangent)s, a zero known
    /// from the type: a derived rule then runs for it the code of an `inactive` parameter,
    /// and no zero tangent is built.
    #[inline(always)]
    pub fn constant<C: crate::constant::Constant<Primal = P, Zero = T>>(value: C) -> Self {
        value.constant()
    }
}

/// A constant dual under mode `S` (what generated code uses to promote inactive values).
// The bound on a line of its own: under a constant without a zero tangent, rustc's
// "required by a bound in `constant_in`" then quotes `P: ZeroTangent`, not the dual types.
#[inline(always)]
#[doc(hidden)]
#[rustfmt::skip]
pub fn constant_in<
    S: Mode,
    P: ZeroTangent,
>(primal: P) -> Dual<P, P::TangentIn<S>> {
    let tangent = primal.zero_tangent_in::<S>();
    Dual { primal, tangent }
}

impl<'a, P: Differentiable + Copy + 'a, T: Copy> Dual<&'a P, &'a T> {
    /// Copies out of a borrowed dual: `Dual<&f64, &S>` to `Dual<f64, S>`.
    #[inline(always)]
    pub fn copied(self) -> Dual<P, T> {
        Dual {
            primal: *self.primal,
            tangent: *self.tangent,
        }
    }
}

impl<'a, P: Differentiable + Clone + 'a, T: Clone> Dual<&'a P, &'a T> {
    /// Clones out of a borrowed dual.
    #[inline(always)]
    pub fn cloned(self) -> Dual<P, T> {
        Dual {
            primal: self.primal.clone(),
            tangent: self.tangent.clone(),
        }
    }
}

impl<'a, P: Differentiable + Clone + 'a, T: Clone> Dual<&'a mut P, &'a mut T> {
    /// Clones out of a mutably borrowed dual (`let old = u.clone();` of a `u: &mut Vec<f64>`).
    #[inline(always)]
    pub fn cloned(self) -> Dual<P, T> {
        Dual {
            primal: self.primal.clone(),
            tangent: self.tangent.clone(),
        }
    }
}

impl<P: Differentiable + fmt::Display, T: fmt::Debug> fmt::Display for Dual<P, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} + {:?}ε", self.primal, self.tangent)
    }
}

/// Slice-like duals: `Dual<&[P], &[T]>`, `Dual<&mut [P], &mut [T]>`, `Dual<Vec<P>, Vec<T>>`,
/// `Dual<[P; N], [T; N]>` all read their length and elements through these.
pub trait DualSlice {
    /// Primal element type.
    type Elem: Differentiable;
    /// Tangent element type.
    type TElem;
    /// The primal elements.
    fn primal_slice(&self) -> &[Self::Elem];
    /// The tangent elements (same length).
    fn tangent_slice(&self) -> &[Self::TElem];
}

/// Slice-like duals that can be written through.
pub trait DualSliceMut: DualSlice {
    /// Both element slices, mutably.
    fn slices_mut(&mut self) -> (&mut [Self::Elem], &mut [Self::TElem]);
}

macro_rules! dual_slice {
    ([$($g:tt)*] $P:ty, $T:ty) => {
        impl<$($g)*> DualSlice for Dual<$P, $T> {
            type Elem = E;
            type TElem = TE;
            #[inline(always)]
            fn primal_slice(&self) -> &[E] {
                &self.primal[..]
            }
            #[inline(always)]
            fn tangent_slice(&self) -> &[TE] {
                &self.tangent[..]
            }
        }
    };
}
macro_rules! dual_slice_mut {
    ([$($g:tt)*] $P:ty, $T:ty) => {
        dual_slice!([$($g)*] $P, $T);
        impl<$($g)*> DualSliceMut for Dual<$P, $T> {
            #[inline(always)]
            fn slices_mut(&mut self) -> (&mut [E], &mut [TE]) {
                (&mut self.primal[..], &mut self.tangent[..])
            }
        }
    };
}
dual_slice!(['a, E: Differentiable + 'a, TE] &'a [E], &'a [TE]);
dual_slice_mut!(['a, E: Differentiable + 'a, TE] &'a mut [E], &'a mut [TE]);
#[cfg(feature = "alloc")]
dual_slice_mut!([E: Differentiable, TE] Vec<E>, Vec<TE>);
dual_slice_mut!([E: Differentiable, TE, const N: usize] [E; N], [TE; N]);
#[cfg(feature = "alloc")]
dual_slice!(['a, E: Differentiable + 'a, TE] &'a Vec<E>, &'a Vec<TE>);
#[cfg(feature = "alloc")]
dual_slice_mut!(['a, E: Differentiable + 'a, TE] &'a mut Vec<E>, &'a mut Vec<TE>);
dual_slice!(['a, E: Differentiable + 'a, TE, const N: usize] &'a [E; N], &'a [TE; N]);
dual_slice_mut!(['a, E: Differentiable + 'a, TE, const N: usize] &'a mut [E; N], &'a mut [TE; N]);
// A borrowed slice field read in place (`v.xs[i]` with `xs: &'a [f64]`, `o.buf[i] = ..`
// with `buf: &'a mut [f64]`): a reference to the field's reference.
dual_slice!(['a, 'b, E: Differentiable + 'a, TE] &'b &'a [E], &'b &'a [TE]);
dual_slice!(['a, 'b, E: Differentiable + 'a, TE] &'b &'a mut [E], &'b &'a mut [TE]);
dual_slice_mut!(['a, 'b, E: Differentiable + 'a, TE] &'b mut &'a mut [E], &'b mut &'a mut [TE]);
// An element of a slice of borrowed vectors or arrays (`for (k, c) in ks.iter().zip(cs)`
// with `ks: &[&Vec<f64>]`, then `k[i]`).
#[cfg(feature = "alloc")]
dual_slice!(['a, 'b, E: Differentiable + 'a, TE] &'b &'a Vec<E>, &'b &'a Vec<TE>);
dual_slice!(['a, 'b, E: Differentiable + 'a, TE, const N: usize] &'b &'a [E; N], &'b &'a [TE; N]);

impl<P: Differentiable, T> Dual<P, T>
where
    Self: DualSlice,
{
    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.primal_slice().len()
    }

    /// Whether there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.primal_slice().is_empty()
    }

    /// The dual of element `i` (primal and tangent borrowed).
    ///
    /// # Panics
    /// If `i` is out of bounds, as indexing the primal slice would.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn at(&self, i: usize) -> Dual<&<Self as DualSlice>::Elem, &<Self as DualSlice>::TElem> {
        crate::structural::ElemAt::elem_at(self, i)
    }

    /// A slice method applied to the primal elements and to the tangent elements (both cut
    /// to the primal's length, which the tangent has by construction).
    #[inline(always)]
    fn map_slices<'s, A: Differentiable, B>(
        &'s self,
        on_primal: impl FnOnce(&'s [<Self as DualSlice>::Elem]) -> A,
        on_tangent: impl FnOnce(&'s [<Self as DualSlice>::TElem]) -> B,
    ) -> Dual<A, B> {
        let n = self.len();
        Dual {
            primal: on_primal(&self.primal_slice()[..n]),
            tangent: on_tangent(&self.tangent_slice()[..n]),
        }
    }

    /// `x.get(i)`: the dual of element `i`, or `None` past the end.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn get(
        &self,
        i: usize,
    ) -> Dual<Option<&<Self as DualSlice>::Elem>, Option<&<Self as DualSlice>::TElem>> {
        self.map_slices(|p| p.get(i), |t| t.get(i))
    }

    /// `x.first()`.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn first(
        &self,
    ) -> Dual<Option<&<Self as DualSlice>::Elem>, Option<&<Self as DualSlice>::TElem>> {
        self.get(0)
    }

    /// `x.last()`.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn last(
        &self,
    ) -> Dual<Option<&<Self as DualSlice>::Elem>, Option<&<Self as DualSlice>::TElem>> {
        self.get(self.len().wrapping_sub(1))
    }

    /// `x.split_first()`: the first element and the rest, or `None` if empty.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn split_first(
        &self,
    ) -> Dual<
        Option<(&<Self as DualSlice>::Elem, &[<Self as DualSlice>::Elem])>,
        Option<(&<Self as DualSlice>::TElem, &[<Self as DualSlice>::TElem])>,
    > {
        self.map_slices(<[_]>::split_first, <[_]>::split_first)
    }

    /// `x.split_last()`: the last element and the rest, or `None` if empty.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn split_last(
        &self,
    ) -> Dual<
        Option<(&<Self as DualSlice>::Elem, &[<Self as DualSlice>::Elem])>,
        Option<(&<Self as DualSlice>::TElem, &[<Self as DualSlice>::TElem])>,
    > {
        self.map_slices(<[_]>::split_last, <[_]>::split_last)
    }

    /// `x.split_at(mid)`: the elements before `mid` and from `mid` on.
    ///
    /// # Panics
    /// If `mid > len`, as the primal's `split_at` would.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn split_at(
        &self,
        mid: usize,
    ) -> Dual<
        (&[<Self as DualSlice>::Elem], &[<Self as DualSlice>::Elem]),
        (&[<Self as DualSlice>::TElem], &[<Self as DualSlice>::TElem]),
    > {
        self.map_slices(|p| p.split_at(mid), |t| t.split_at(mid))
    }

    /// The borrowed sub-slice dual for `range`.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn slice<R>(
        &self,
        range: R,
    ) -> Dual<&[<Self as DualSlice>::Elem], &[<Self as DualSlice>::TElem]>
    where
        R: core::slice::SliceIndex<
                [<Self as DualSlice>::Elem],
                Output = [<Self as DualSlice>::Elem],
            > + core::slice::SliceIndex<
                [<Self as DualSlice>::TElem],
                Output = [<Self as DualSlice>::TElem],
            > + Clone,
    {
        crate::structural::ElemAt::sub_slice(self, range)
    }
}
