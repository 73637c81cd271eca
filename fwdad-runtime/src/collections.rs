//! Methods of `Vec`, slice and `Option` duals: what a derived body calls on a
//! differentiated buffer (`v.push(x)`, `y.fill(0.0)`, `x.to_vec()`, `opt.unwrap()`). Each
//! applies the primal's operation to the primal and the same one to the tangent, so the
//! tangent keeps the primal's shape.

use crate::differentiable::Differentiable;
use crate::dual::{Dual, DualSlice, DualSliceMut};
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::{vec, vec::Vec};

/// Duals of a growable vector: `Dual<Vec<P>, Vec<T>>` and `Dual<&mut Vec<P>, &mut Vec<T>>`.
#[cfg(feature = "alloc")]
pub trait DualVec {
    /// Primal element type.
    type Elem: Differentiable;
    /// Tangent element type.
    type TElem;
    /// Both vectors, mutably.
    fn vecs_mut(&mut self) -> (&mut Vec<Self::Elem>, &mut Vec<Self::TElem>);
}

#[cfg(feature = "alloc")]
impl<E: Differentiable, TE> DualVec for Dual<Vec<E>, Vec<TE>> {
    type Elem = E;
    type TElem = TE;
    #[inline(always)]
    fn vecs_mut(&mut self) -> (&mut Vec<E>, &mut Vec<TE>) {
        (&mut self.primal, &mut self.tangent)
    }
}

#[cfg(feature = "alloc")]
impl<E: Differentiable, TE> DualVec for Dual<&mut Vec<E>, &mut Vec<TE>> {
    type Elem = E;
    type TElem = TE;
    #[inline(always)]
    fn vecs_mut(&mut self) -> (&mut Vec<E>, &mut Vec<TE>) {
        (&mut *self.primal, &mut *self.tangent)
    }
}

#[cfg(feature = "alloc")]
type VecElem<D> = Dual<<D as DualVec>::Elem, <D as DualVec>::TElem>;

#[cfg(feature = "alloc")]
impl<P: Differentiable, T> Dual<P, T>
where
    Self: DualVec,
{
    /// `v.push(x)`.
    #[inline(always)]
    pub fn push(&mut self, x: VecElem<Self>) {
        let (p, t) = self.vecs_mut();
        p.push(x.primal);
        t.push(x.tangent);
    }

    /// `v.pop()`.
    #[inline(always)]
    pub fn pop(
        &mut self,
    ) -> Dual<Option<<Self as DualVec>::Elem>, Option<<Self as DualVec>::TElem>> {
        let (p, t) = self.vecs_mut();
        Dual::new(p.pop(), t.pop())
    }

    /// `v.insert(i, x)`.
    ///
    /// # Panics
    /// If `i > len`, as `Vec::insert` does.
    #[inline(always)]
    pub fn insert(&mut self, i: usize, x: VecElem<Self>) {
        let (p, t) = self.vecs_mut();
        p.insert(i, x.primal);
        t.insert(i, x.tangent);
    }

    /// `v.remove(i)`: the element, with its tangent.
    ///
    /// # Panics
    /// If `i >= len`, as `Vec::remove` does.
    #[inline(always)]
    pub fn remove(&mut self, i: usize) -> VecElem<Self> {
        let (p, t) = self.vecs_mut();
        Dual::new(p.remove(i), t.remove(i))
    }

    /// `v.swap_remove(i)`: the element, with its tangent.
    ///
    /// # Panics
    /// If `i >= len`, as `Vec::swap_remove` does.
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) -> VecElem<Self> {
        let (p, t) = self.vecs_mut();
        Dual::new(p.swap_remove(i), t.swap_remove(i))
    }

    /// `v.truncate(n)`.
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        let (p, t) = self.vecs_mut();
        p.truncate(n);
        t.truncate(n);
    }

    /// `v.clear()`.
    #[inline(always)]
    pub fn clear(&mut self) {
        let (p, t) = self.vecs_mut();
        p.clear();
        t.clear();
    }

    /// `v.resize(n, x)`.
    #[inline(always)]
    pub fn resize(&mut self, n: usize, x: VecElem<Self>)
    where
        <Self as DualVec>::Elem: Clone,
        <Self as DualVec>::TElem: Clone,
    {
        let (p, t) = self.vecs_mut();
        p.resize(n, x.primal);
        t.resize(n, x.tangent);
    }

    /// `v.extend_from_slice(s)`.
    #[inline(always)]
    pub fn extend_from_slice<
        S: DualSlice<Elem = <Self as DualVec>::Elem, TElem = <Self as DualVec>::TElem>,
    >(
        &mut self,
        s: S,
    ) where
        <Self as DualVec>::Elem: Clone,
        <Self as DualVec>::TElem: Clone,
    {
        let (p, t) = self.vecs_mut();
        p.extend_from_slice(s.primal_slice());
        t.extend_from_slice(s.tangent_slice());
    }
}

impl<P: Differentiable, T> Dual<P, T>
where
    Self: DualSliceMut,
{
    /// `x.fill(v)`.
    #[inline(always)]
    pub fn fill(&mut self, v: Dual<<Self as DualSlice>::Elem, <Self as DualSlice>::TElem>)
    where
        <Self as DualSlice>::Elem: Clone,
        <Self as DualSlice>::TElem: Clone,
    {
        let (p, t) = self.slices_mut();
        p.fill(v.primal);
        t.fill(v.tangent);
    }

    /// `x.copy_from_slice(src)`.
    ///
    /// # Panics
    /// If the lengths differ, as `<[T]>::copy_from_slice` does.
    #[inline(always)]
    pub fn copy_from_slice<
        S: DualSlice<Elem = <Self as DualSlice>::Elem, TElem = <Self as DualSlice>::TElem>,
    >(
        &mut self,
        src: S,
    ) where
        <Self as DualSlice>::Elem: Copy,
        <Self as DualSlice>::TElem: Copy,
    {
        let (p, t) = self.slices_mut();
        p.copy_from_slice(src.primal_slice());
        t.copy_from_slice(src.tangent_slice());
    }

    /// `x.swap(i, j)`.
    ///
    /// # Panics
    /// If `i` or `j` is out of bounds, as `<[T]>::swap` does.
    #[inline(always)]
    pub fn swap(&mut self, i: usize, j: usize) {
        let (p, t) = self.slices_mut();
        p.swap(i, j);
        t.swap(i, j);
    }

    /// `x.get_mut(i)`: element `i` borrowed mutably with its tangent, or `None` past the
    /// end.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn get_mut(
        &mut self,
        i: usize,
    ) -> Dual<Option<&mut <Self as DualSlice>::Elem>, Option<&mut <Self as DualSlice>::TElem>> {
        let (p, t) = self.slices_mut();
        let n = p.len().min(t.len());
        Dual {
            primal: p[..n].get_mut(i),
            tangent: t[..n].get_mut(i),
        }
    }

    /// `x.split_at_mut(mid)`: the elements before `mid` and from `mid` on, each borrowed
    /// mutably with its tangents.
    ///
    /// # Panics
    /// If `mid > len`, as the primal's `split_at_mut` would.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn split_at_mut(
        &mut self,
        mid: usize,
    ) -> Dual<
        (
            &mut [<Self as DualSlice>::Elem],
            &mut [<Self as DualSlice>::Elem],
        ),
        (
            &mut [<Self as DualSlice>::TElem],
            &mut [<Self as DualSlice>::TElem],
        ),
    > {
        let (p, t) = self.slices_mut();
        Dual {
            primal: p.split_at_mut(mid),
            tangent: t.split_at_mut(mid),
        }
    }

    /// `x.first_mut()`.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn first_mut(
        &mut self,
    ) -> Dual<Option<&mut <Self as DualSlice>::Elem>, Option<&mut <Self as DualSlice>::TElem>> {
        self.get_mut(0)
    }

    /// `x.last_mut()`.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn last_mut(
        &mut self,
    ) -> Dual<Option<&mut <Self as DualSlice>::Elem>, Option<&mut <Self as DualSlice>::TElem>> {
        let last = self.primal_slice().len().wrapping_sub(1);
        self.get_mut(last)
    }

    /// `x.reverse()`: elements and their tangents reversed in place.
    #[inline(always)]
    pub fn reverse(&mut self) {
        let (p, t) = self.slices_mut();
        let n = p.len().min(t.len());
        p[..n].reverse();
        t[..n].reverse();
    }

    /// `x.rotate_left(mid)`: elements and their tangents rotated together.
    ///
    /// # Panics
    /// If `mid > len`, as `<[T]>::rotate_left` does.
    #[inline(always)]
    pub fn rotate_left(&mut self, mid: usize) {
        let (p, t) = self.slices_mut();
        p.rotate_left(mid);
        t.rotate_left(mid);
    }

    /// `x.rotate_right(k)`: elements and their tangents rotated together.
    ///
    /// # Panics
    /// If `k > len`, as `<[T]>::rotate_right` does.
    #[inline(always)]
    pub fn rotate_right(&mut self, k: usize) {
        let (p, t) = self.slices_mut();
        p.rotate_right(k);
        t.rotate_right(k);
    }

    /// `x.copy_within(src, dest)`: the elements of `src` and their tangents copied to
    /// `dest` on.
    ///
    /// # Panics
    /// If `src` or the destination range is out of bounds, as `<[T]>::copy_within` does.
    #[inline(always)]
    pub fn copy_within<R: core::ops::RangeBounds<usize> + Clone>(&mut self, src: R, dest: usize)
    where
        <Self as DualSlice>::Elem: Copy,
        <Self as DualSlice>::TElem: Copy,
    {
        let (p, t) = self.slices_mut();
        p.copy_within(src.clone(), dest);
        t.copy_within(src, dest);
    }
}

#[cfg(feature = "alloc")]
impl<P: Differentiable, T> Dual<P, T>
where
    Self: DualSlice,
    <Self as DualSlice>::Elem: Clone,
    <Self as DualSlice>::TElem: Clone,
{
    /// `x.to_vec()`.
    #[inline(always)]
    pub fn to_vec(&self) -> Dual<Vec<<Self as DualSlice>::Elem>, Vec<<Self as DualSlice>::TElem>> {
        Dual::new(self.primal_slice().to_vec(), self.tangent_slice().to_vec())
    }
}

/// `vec![a, b, ..]` of duals.
#[inline(always)]
#[cfg(feature = "alloc")]
pub fn vec_from<P: Differentiable, T, const N: usize>(xs: [Dual<P, T>; N]) -> Dual<Vec<P>, Vec<T>> {
    let (mut p, mut t) = (Vec::with_capacity(N), Vec::with_capacity(N));
    for x in xs {
        p.push(x.primal);
        t.push(x.tangent);
    }
    Dual::new(p, t)
}

/// `vec![x; n]` of a dual.
#[inline(always)]
#[cfg(feature = "alloc")]
pub fn vec_repeat<P: Differentiable + Clone, T: Clone>(
    x: Dual<P, T>,
    n: usize,
) -> Dual<Vec<P>, Vec<T>> {
    Dual::new(vec![x.primal; n], vec![x.tangent; n])
}

const SHAPE: &str = "fwdad: a dual's tangent must have the primal's shape (same variant)";

impl<P: Differentiable + Clone, T: Clone> Dual<Option<&P>, Option<&T>> {
    /// `o.copied()` (a borrowed element out of `iter().max_by(..)`, say); as `cloned`.
    #[inline(always)]
    pub fn copied(self) -> Dual<Option<P>, Option<T>> {
        self.cloned()
    }
    /// `o.cloned()`.
    #[inline(always)]
    pub fn cloned(self) -> Dual<Option<P>, Option<T>> {
        Dual::new(self.primal.cloned(), self.tangent.cloned())
    }
}

/// An `Option` field read through a reference (`p.bias.unwrap_or(0.0)` with `p: &Params`):
/// the methods of the owned dual, on a copy, as `Option<f64>: Copy` makes them in Rust.
impl<P: Differentiable + Clone, T: Clone> Dual<&Option<P>, &Option<T>> {
    #[inline(always)]
    fn to_owned_option(self) -> Dual<Option<P>, Option<T>> {
        Dual::new(self.primal.clone(), self.tangent.clone())
    }
    /// `o.is_some()`.
    #[inline(always)]
    pub fn is_some(&self) -> bool {
        self.primal.is_some()
    }
    /// `o.is_none()`.
    #[inline(always)]
    pub fn is_none(&self) -> bool {
        self.primal.is_none()
    }
    /// `o.unwrap()`.
    ///
    /// # Panics
    /// If the primal is `None`, as `Option::unwrap` does.
    #[inline(always)]
    #[track_caller]
    pub fn unwrap(self) -> Dual<P, T> {
        self.to_owned_option().unwrap()
    }
    /// `o.expect(msg)`.
    ///
    /// # Panics
    /// With `msg` if the primal is `None`, as `Option::expect` does.
    #[inline(always)]
    #[track_caller]
    pub fn expect(self, msg: &str) -> Dual<P, T> {
        self.to_owned_option().expect(msg)
    }
    /// `o.unwrap_or(default)`.
    #[inline(always)]
    pub fn unwrap_or(self, default: Dual<P, T>) -> Dual<P, T> {
        self.to_owned_option().unwrap_or(default)
    }
}

impl<P: Differentiable, T> Dual<Option<P>, Option<T>> {
    /// `o.is_some()`.
    #[inline(always)]
    pub fn is_some(&self) -> bool {
        self.primal.is_some()
    }
    /// `o.is_none()`.
    #[inline(always)]
    pub fn is_none(&self) -> bool {
        self.primal.is_none()
    }
    /// `o.unwrap()`.
    ///
    /// # Panics
    /// If the primal is `None`, as `Option::unwrap` does.
    #[inline(always)]
    #[track_caller]
    pub fn unwrap(self) -> Dual<P, T> {
        match (self.primal, self.tangent) {
            (Some(p), Some(t)) => Dual::new(p, t),
            (None, _) => panic!("called `Option::unwrap()` on a `None` value"),
            (Some(_), None) => panic!("{SHAPE}"),
        }
    }
    /// `o.expect(msg)`.
    ///
    /// # Panics
    /// With `msg` if the primal is `None`, as `Option::expect` does.
    #[inline(always)]
    #[track_caller]
    pub fn expect(self, msg: &str) -> Dual<P, T> {
        match (self.primal, self.tangent) {
            (Some(p), Some(t)) => Dual::new(p, t),
            (None, _) => panic!("{msg}"),
            (Some(_), None) => panic!("{SHAPE}"),
        }
    }
    /// `o.unwrap_or(default)`.
    #[inline(always)]
    pub fn unwrap_or(self, default: Dual<P, T>) -> Dual<P, T> {
        match (self.primal, self.tangent) {
            (Some(p), Some(t)) => Dual::new(p, t),
            (None, _) => default,
            (Some(_), None) => panic!("{SHAPE}"),
        }
    }
}

/// A `Result` a derived helper returned (`f(..).unwrap_or(0.0)`); its error carries no
/// tangent.
impl<P: Differentiable, E, T> Dual<Result<P, E>, Result<T, crate::tangent::NoTangent>> {
    /// `r.is_ok()`.
    #[inline(always)]
    pub fn is_ok(&self) -> bool {
        self.primal.is_ok()
    }
    /// `r.is_err()`.
    #[inline(always)]
    pub fn is_err(&self) -> bool {
        self.primal.is_err()
    }
    /// `r.ok()`.
    #[inline(always)]
    pub fn ok(self) -> Dual<Option<P>, Option<T>> {
        match (self.primal, self.tangent) {
            (Ok(p), Ok(t)) => Dual::new(Some(p), Some(t)),
            (Err(_), _) => Dual::new(None, None),
            (Ok(_), Err(_)) => panic!("{SHAPE}"),
        }
    }
    /// `r.unwrap()`.
    ///
    /// # Panics
    /// If the primal is an `Err`, as `Result::unwrap` does.
    #[inline(always)]
    #[track_caller]
    pub fn unwrap(self) -> Dual<P, T>
    where
        E: core::fmt::Debug,
    {
        match (self.primal, self.tangent) {
            (Ok(p), Ok(t)) => Dual::new(p, t),
            (Err(e), _) => panic!("called `Result::unwrap()` on an `Err` value: {e:?}"),
            (Ok(_), Err(_)) => panic!("{SHAPE}"),
        }
    }
    /// `r.expect(msg)`.
    ///
    /// # Panics
    /// With `msg` if the primal is an `Err`, as `Result::expect` does.
    #[inline(always)]
    #[track_caller]
    pub fn expect(self, msg: &str) -> Dual<P, T>
    where
        E: core::fmt::Debug,
    {
        match (self.primal, self.tangent) {
            (Ok(p), Ok(t)) => Dual::new(p, t),
            (Err(e), _) => panic!("{msg}: {e:?}"),
            (Ok(_), Err(_)) => panic!("{SHAPE}"),
        }
    }
    /// `r.unwrap_or(default)`.
    #[inline(always)]
    pub fn unwrap_or(self, default: Dual<P, T>) -> Dual<P, T> {
        match (self.primal, self.tangent) {
            (Ok(p), Ok(t)) => Dual::new(p, t),
            (Err(_), _) => default,
            (Ok(_), Err(_)) => panic!("{SHAPE}"),
        }
    }
}
