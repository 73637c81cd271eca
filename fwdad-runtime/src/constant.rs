//! Constants whose zero tangent is a type: [`ConstTangent`] and [`ArgTangent`].
//!
//! A derived rule is generic over the element tangent of each float parameter (`f64`,
//! `&[f64]`, `&[f64; N]`, `[f64; N]`, and the same of `f32`): the mode's own tangent, or
//! [`ConstTangent`], a zero-sized zero. `Dual::constant(&a[..])` gives
//! `Dual<&[f64], &[ConstTangent]>`, so the rule is monomorphised with `a`'s tangent known to
//! be zero from its type: every operation reading an element of `a` is the inactive
//! operation (`Operand::ACTIVE` is false), and nothing is multiplied by a zero in memory.
//! One rule per function still: the choice is a type parameter, not a copy of the body.
//!
//! A rule whose body uses a parameter in a way that needs a dual of the mode's type (passes
//! it to another rule, stores it, merges it with another value) converts it once on entry
//! ([`ArgTangent::tangent`], [`SliceTangent::slice`]): the identity for a tangent of the
//! mode, a zero tangent built then for a constant (what a zero tangent in memory costs).

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Fused, ScalarTangent};
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::vec::Vec;
use core::cell::OnceCell;

/// The tangent of a float that does not vary: zero, known from the type (zero-sized).
///
/// `Dual::constant(&a[..])` pairs a slice with a slice of these, and a derived rule takes
/// it where it takes `Dual<&[f64]>`: the code it runs for `a` is what
/// `#[derive_frule(inactive(a))]` produces. Drivers' [`bind`] takes such duals too.
///
/// [`bind`]: https://docs.rs/fwdad/latest/fwdad/drivers/fn.bind.html
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstTangent;

/// The element tangent a derived rule's float parameter takes under a mode whose tangent
/// of `F` is `T`: `T` itself, or [`ConstTangent`].
///
/// `ACTIVE` is a constant, so after monomorphisation an operation on an element of a
/// constant keeps only its inactive branch (as for a plain float operand).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tangent of `{F}` in this mode",
    label = "the tangent of a float argument is the mode's tangent of it, or `ConstTangent`",
    note = "build constant arguments with `Dual::constant(..)`, differentiated ones with `Dual::new(value, tangent)`"
)]
pub trait ArgTangent<F: Real, T: ScalarTangent<F>>: Copy {
    /// Whether the tangent may be non-zero (false for [`ConstTangent`]).
    const ACTIVE: bool;
    /// The tangent in the mode (a zero for [`ConstTangent`]).
    fn tangent(self) -> T;
    /// This tangent in the [`Fused`] mode of `T` (a rule's wide entry, `crate::dispatch`).
    #[doc(hidden)]
    type __Fused: ArgTangent<F, Fused<T>>;
    /// `self` as [`Self::__Fused`].
    #[doc(hidden)]
    fn __fused(self) -> Self::__Fused;
    /// Tangents as [`Self::__Fused`] ones, in place.
    #[doc(hidden)]
    fn __fused_slice(t: &[Self]) -> &[Self::__Fused];
    /// This tangent in the [`Fused`] mode of `T`, borrowed where it is
    /// ([`TangentRef`](crate::dispatch::TangentRef); a constant's stays a
    /// [`ConstTangent`]): how a rule's wide entry takes a float passed by value, so that its
    /// lanes are read where the body uses them, not copied on entry.
    #[doc(hidden)]
    type __FusedRef<'a>: ArgTangent<F, Fused<T>>
    where
        Self: 'a;
    /// `t` as [`Self::__FusedRef`].
    #[doc(hidden)]
    fn __fused_ref(t: &Self) -> Self::__FusedRef<'_>;
}

impl<F: Real, T: ScalarTangent<F>> ArgTangent<F, T> for T {
    const ACTIVE: bool = true;
    #[inline(always)]
    fn tangent(self) -> T {
        self
    }
    type __Fused = Fused<T>;
    #[inline(always)]
    fn __fused(self) -> Fused<T> {
        Fused(self)
    }
    #[inline(always)]
    fn __fused_slice(t: &[T]) -> &[Fused<T>] {
        crate::dispatch::fused_slice(t)
    }
    type __FusedRef<'a>
        = crate::dispatch::TangentRef<'a, Fused<T>>
    where
        T: 'a;
    #[inline(always)]
    fn __fused_ref(t: &T) -> crate::dispatch::TangentRef<'_, Fused<T>> {
        crate::dispatch::TangentRef(crate::dispatch::fused_ref(t))
    }
}

macro_rules! const_arg_tangent {
    ($($F:ty),*) => {$(
        // For each float type by name, not `F: Real`: downstream crates cannot implement
        // `ScalarTangent<f64>` for `ConstTangent`, so this cannot overlap the impl above.
        impl<T: ScalarTangent<$F>> ArgTangent<$F, T> for ConstTangent {
            const ACTIVE: bool = false;
            #[inline(always)]
            fn tangent(self) -> T {
                T::zero()
            }
            type __Fused = ConstTangent;
            #[inline(always)]
            fn __fused(self) -> ConstTangent {
                self
            }
            #[inline(always)]
            fn __fused_slice(t: &[ConstTangent]) -> &[ConstTangent] {
                t
            }
            type __FusedRef<'a> = ConstTangent;
            #[inline(always)]
            fn __fused_ref(_: &ConstTangent) -> ConstTangent {
                ConstTangent
            }
        }
        impl<T: ScalarTangent<$F>> SliceTangent<$F, T> for ConstTangent {
            #[inline(always)]
            fn slice<'c>(t: &'c [Self], cell: &'c ZeroCell<T>) -> &'c [T] {
                zero_slice(t.len(), cell, T::zero())
            }
        }
    )*};
}

/// A cell a rule's entry builds a zero tangent in, for a constant slice argument the body
/// needs as a dual of the mode ([`SliceTangent::slice`]).
#[cfg(feature = "alloc")]
pub type ZeroCell<T> = OnceCell<Vec<T>>;
/// Without an allocator a constant slice cannot be given a zero tangent of its length (a
/// constant array can: [`ArgTangent`] of its elements).
#[cfg(not(feature = "alloc"))]
pub type ZeroCell<T> = OnceCell<core::marker::PhantomData<T>>;

#[cfg(feature = "alloc")]
#[inline(always)]
fn zero_slice<T: Clone>(n: usize, cell: &ZeroCell<T>, zero: T) -> &[T] {
    &cell.get_or_init(|| alloc::vec![zero; n])[..]
}

#[cfg(not(feature = "alloc"))]
#[inline(always)]
fn zero_slice<T>(n: usize, _: &ZeroCell<T>, _: T) -> &[T] {
    // Only reachable by building `&[ConstTangent]` by hand in a crate without `alloc`
    // (`Dual::constant` of a slice needs it).
    panic!(
        "a constant slice of {n} elements (`ConstTangent`) passed where the rule needs its zero tangent in memory: enable fwdad's `alloc` feature"
    )
}

/// [`ArgTangent`] for a slice parameter: its tangent slice as the mode's, on entry to a
/// rule whose body needs it so.
pub trait SliceTangent<F: Real, T: ScalarTangent<F>>: ArgTangent<F, T> {
    /// `t` as a slice of the mode's tangents: itself, or zeros built in `cell`.
    fn slice<'c>(t: &'c [Self], cell: &'c ZeroCell<T>) -> &'c [T];
}

impl<F: Real, T: ScalarTangent<F>> SliceTangent<F, T> for T {
    #[inline(always)]
    fn slice<'c>(t: &'c [T], _: &'c ZeroCell<T>) -> &'c [T] {
        t
    }
}

const_arg_tangent!(f64, f32);

/// A scalar argument's dual in the mode (on entry to a rule whose body needs it so).
#[doc(hidden)]
#[inline(always)]
pub fn active_scalar<F: Real, T: ScalarTangent<F>, M: ArgTangent<F, T>>(
    x: Dual<F, M>,
) -> Dual<F, T> {
    Dual::new(x.primal, x.tangent.tangent())
}

/// An array argument's dual in the mode.
#[doc(hidden)]
#[inline(always)]
pub fn active_array<F, T: ScalarTangent<F>, M: ArgTangent<F, T>, const N: usize>(
    x: Dual<[F; N], [M; N]>,
) -> Dual<[F; N], [T; N]>
where
    F: Real + Differentiable,
{
    Dual::new(x.primal, x.tangent.map(ArgTangent::tangent))
}

/// A borrowed array argument's dual in the mode (zeros built in `cell` for a constant).
#[doc(hidden)]
#[inline(always)]
pub fn active_array_ref<'c, F, T: ScalarTangent<F>, M: ArgTangent<F, T>, const N: usize>(
    x: Dual<&'c [F; N], &'c [M; N]>,
    cell: &'c OnceCell<[T; N]>,
) -> Dual<&'c [F; N], &'c [T; N]>
where
    F: Real + Differentiable,
{
    // For a tangent of the mode this copies `N` tangents once; the same-type case would
    // need specialisation to borrow.
    let t = cell.get_or_init(|| x.tangent.map(ArgTangent::tangent));
    Dual::new(x.primal, t)
}

/// A slice argument's dual in the mode (zeros built in `cell` for a constant).
#[doc(hidden)]
#[inline(always)]
pub fn active_slice<'c, F, T: ScalarTangent<F>, M: SliceTangent<F, T>>(
    x: Dual<&'c [F], &'c [M]>,
    cell: &'c ZeroCell<T>,
) -> Dual<&'c [F], &'c [T]>
where
    F: Real + Differentiable,
{
    Dual::new(x.primal, M::slice(x.tangent, cell))
}

/// The tangent a rule's one-direction entry (`f_frule`) takes for a parameter borrowing a
/// value of a type of yours (`s: &Spring`): the value's tangent (`&SpringTangent`), or
/// [`ConstTangent`], which `Dual::constant(&s)` pairs it with and which becomes a zero
/// tangent built from the value on entry ([`active_ref`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tangent of `&{P}`",
    label = "the tangent of a borrowed value of your type is a borrowed tangent, or `ConstTangent`",
    note = "build a constant argument with `Dual::constant(&value)`, a differentiated one with `Dual::new(&value, &tangent)`"
)]
pub trait RefTangent<P: Differentiable> {
    /// The tangent, borrowed from `self` or built in `cell` from `primal`.
    fn tangent<'c>(self, primal: &P, cell: &'c OnceCell<P::Tangent>) -> &'c P::Tangent
    where
        Self: 'c;
}

impl<P: Differentiable> RefTangent<P> for &P::Tangent {
    #[inline(always)]
    fn tangent<'c>(self, _: &P, _: &'c OnceCell<P::Tangent>) -> &'c P::Tangent
    where
        Self: 'c,
    {
        self
    }
}

impl<P: ZeroTangent> RefTangent<P> for ConstTangent {
    #[inline(always)]
    fn tangent<'c>(self, primal: &P, cell: &'c OnceCell<P::Tangent>) -> &'c P::Tangent
    where
        Self: 'c,
    {
        cell.get_or_init(|| primal.zero_tangent())
    }
}

/// A borrowed value's dual with its tangent in memory (see [`RefTangent`]).
#[doc(hidden)]
#[inline(always)]
pub fn active_ref<'c, P: Differentiable, T: RefTangent<P> + 'c>(
    x: Dual<&'c P, T>,
    cell: &'c OnceCell<P::Tangent>,
) -> Dual<&'c P, &'c P::Tangent> {
    let tangent = x.tangent.tangent(x.primal, cell);
    Dual::new(x.primal, tangent)
}

/// What [`Dual::constant`] pairs a value with: its zero tangent, built from it for an
/// owned value (`2.0`, `[1.0, 2.0]`, a struct), and [`ConstTangent`]s, which take no
/// memory, for borrowed floats (`&a[..]`, `&[f64; N]`, `&Vec<f64>`).
#[diagnostic::on_unimplemented(
    message = "`Dual::constant` cannot give `{Self}` a zero tangent",
    note = "owned values with a tangent type (`f64`, arrays, your `#[derive(Differentiable)]` types) borrowed slices and arrays of floats or integers, and slices of float arrays can be constants; a `&mut` buffer receives tangents: pass `Dual::new(&mut y[..], &mut dy[..])`"
)]
pub trait Constant: Sized {
    /// The primal type of the constant dual.
    type Primal: Differentiable;
    /// Its tangent.
    type Zero;
    /// The constant dual of `self`.
    fn constant(self) -> Dual<Self::Primal, Self::Zero>;
}

impl<P: ZeroTangent> Constant for P {
    type Primal = P;
    type Zero = P::Tangent;
    #[inline(always)]
    fn constant(self) -> Dual<P, P::Tangent> {
        let tangent = self.zero_tangent();
        Dual::new(self, tangent)
    }
}

/// A constant argument a derived body passes to a rule, in mode `S`: an owned value with
/// its zero tangent in the mode (`2.0`, a struct), a borrowed slice or array of floats with
/// [`ConstTangent`]s (a `const TABLE: &[f64]` of coefficients, which then costs the rule
/// nothing). Generated code uses it for `const`/`static` items, whose type the macro does
/// not see.
#[doc(hidden)]
pub trait ConstantIn<S> {
    /// The constant dual.
    type Dual;
    /// `self` as it.
    fn constant_in(self) -> Self::Dual;
}

impl<S: crate::tangent::Mode, P: ZeroTangent> ConstantIn<S> for P {
    type Dual = Dual<P, P::TangentIn<S>>;
    #[inline(always)]
    fn constant_in(self) -> Self::Dual {
        crate::dual::constant_in::<S, P>(self)
    }
}

/// See [`ConstantIn`].
#[doc(hidden)]
#[inline(always)]
pub fn const_arg<S, X: ConstantIn<S>>(x: X) -> X::Dual {
    x.constant_in()
}

/// `n` constant tangents, in no memory (a slice of a zero-sized type).
#[inline(always)]
fn const_slice<'a>(n: usize) -> &'a [ConstTangent] {
    zero_sized_slice(n)
}

/// `n` values of the zero-sized `Z` (`ConstTangent`, `NoTangent`), in no memory.
#[inline(always)]
pub(crate) fn zero_sized_slice<'a, Z>(n: usize) -> &'a [Z] {
    const { assert!(core::mem::size_of::<Z>() == 0) };
    // SAFETY: `Z` is zero-sized (asserted above, at compile time), so a dangling, aligned,
    // non-null pointer is a valid slice of any length (as `Vec::<Z>::leak` would produce),
    // and no memory is read or written through it.
    unsafe { core::slice::from_raw_parts(core::ptr::NonNull::dangling().as_ptr(), n) }
}

/// A constant table of float pairs (`const GAUSS_LEGENDRE: &[(f64, f64)]` of weights and
/// abscissae) passed to a rule: a dual with zero-sized constant tangents, which a parameter
/// declared `inactive` takes as the plain slice.
macro_rules! const_pair_refs {
    ($($F:ty),*) => {$(
        impl<'a, S> ConstantIn<S> for &'a [($F, $F)] {
            type Dual = Dual<&'a [($F, $F)], &'a [(ConstTangent, ConstTangent)]>;
            #[inline(always)]
            fn constant_in(self) -> Self::Dual {
                // SAFETY: as `const_slice`: the element is zero-sized.
                let zeros = unsafe {
                    core::slice::from_raw_parts(core::ptr::NonNull::dangling().as_ptr(), self.len())
                };
                Dual::new(self, zeros)
            }
        }
        impl<'a> crate::frule::CoerceTo<&'a [($F, $F)]>
            for Dual<&'a [($F, $F)], &'a [(ConstTangent, ConstTangent)]>
        {
            #[inline(always)]
            fn coerce(self) -> &'a [($F, $F)] {
                self.primal
            }
        }
    )*};
}
const_pair_refs!(f64, f32);

macro_rules! const_refs {
    ($($F:ty),*) => {$(
        impl<'a, S> ConstantIn<S> for &'a [$F] {
            type Dual = Dual<&'a [$F], &'a [ConstTangent]>;
            #[inline(always)]
            fn constant_in(self) -> Self::Dual {
                Dual::new(self, const_slice(self.len()))
            }
        }
        impl<'a, S, const N: usize> ConstantIn<S> for &'a [$F; N] {
            type Dual = Dual<&'a [$F; N], &'a [ConstTangent; N]>;
            #[inline(always)]
            fn constant_in(self) -> Self::Dual {
                Dual::new(self, const { &[ConstTangent; N] })
            }
        }
        impl<'a> Constant for &'a [$F] {
            type Primal = &'a [$F];
            type Zero = &'a [ConstTangent];
            #[inline(always)]
            fn constant(self) -> Dual<&'a [$F], &'a [ConstTangent]> {
                Dual::new(self, const_slice(self.len()))
            }
        }
        impl<'a, const N: usize> Constant for &'a [$F; N] {
            type Primal = &'a [$F; N];
            type Zero = &'a [ConstTangent; N];
            #[inline(always)]
            fn constant(self) -> Dual<&'a [$F; N], &'a [ConstTangent; N]> {
                Dual::new(self, const { &[ConstTangent; N] })
            }
        }
        /// A borrowed `Vec` is a constant slice (what a `&[f64]` parameter takes).
        #[cfg(feature = "alloc")]
        impl<'a> Constant for &'a Vec<$F> {
            type Primal = &'a [$F];
            type Zero = &'a [ConstTangent];
            #[inline(always)]
            fn constant(self) -> Dual<&'a [$F], &'a [ConstTangent]> {
                Dual::new(&self[..], const_slice(self.len()))
            }
        }
    )*};
}
const_refs!(f64, f32);

/// Zeros in static memory for the tangents of constant slices of float arrays: a rule takes
/// `&[[f64; 3]]`'s tangent as `&[[T; 3]]` in memory, and all-zero bytes are `0.0`. A
/// zero-initialised static lives in `.bss`: no space in the binary, no page touched unless
/// read.
#[repr(C, align(64))]
struct ZeroPage([u8; ZERO_PAGE]);
const ZERO_PAGE: usize = 1 << 20;
static ZEROS: ZeroPage = ZeroPage([0; ZERO_PAGE]);

/// Float types whose all-zero bit pattern is `0.0`.
///
/// # Safety
/// Every bit pattern of zeros must be a valid value of the type (and equal to its zero).
unsafe trait ZeroBits: Copy {}
unsafe impl ZeroBits for f64 {}
unsafe impl ZeroBits for f32 {}

/// `n` zero arrays `[F; K]`, borrowed from [`ZEROS`] or, past its size, from the largest
/// zero buffer leaked so far (grown by doubling, so what leaks is bounded by twice the
/// largest slice ever passed).
fn zero_rows<'a, F: ZeroBits, const K: usize>(n: usize) -> &'a [[F; K]] {
    const { assert!(core::mem::align_of::<[F; K]>() <= 64) };
    let bytes = n
        .checked_mul(core::mem::size_of::<[F; K]>())
        .expect("a constant slice too large for memory");
    // SAFETY: the bytes read are zeros, valid `[F; K]` (`ZeroBits`), aligned to 64, live
    // for `'static` and never written.
    unsafe { core::slice::from_raw_parts(zero_bytes(bytes).cast::<[F; K]>(), n) }
}

#[cfg(feature = "alloc")]
fn zero_bytes(bytes: usize) -> *const u8 {
    use core::sync::atomic::{AtomicPtr, Ordering};
    /// A leaked buffer of zeros: its length, then the zeros (aligned to 64).
    #[repr(C, align(64))]
    struct Big([u8; 64]);
    static LARGEST: AtomicPtr<Big> = AtomicPtr::new(core::ptr::null_mut());
    if bytes <= ZERO_PAGE {
        return ZEROS.0.as_ptr();
    }
    loop {
        let cur = LARGEST.load(Ordering::Acquire);
        // SAFETY: a non-null `LARGEST` points at a leaked `Big` array whose first block
        // holds its usable length in bytes; leaked buffers are never freed or written.
        let cur_len = if cur.is_null() {
            0
        } else {
            unsafe { *(cur as *const usize) }
        };
        if cur_len >= bytes {
            return unsafe { (cur as *const u8).add(64) };
        }
        let len = bytes.max(2 * cur_len).div_ceil(64) * 64;
        let mut buf: Vec<Big> = (0..len / 64 + 1).map(|_| Big([0; 64])).collect();
        buf[0].0[..core::mem::size_of::<usize>()].copy_from_slice(&len.to_ne_bytes());
        let new = buf.leak().as_mut_ptr();
        // Losing the race leaks `new` (bounded as above); the winner's is at least as big.
        let _ = LARGEST.compare_exchange(cur, new, Ordering::AcqRel, Ordering::Acquire);
    }
}

#[cfg(not(feature = "alloc"))]
fn zero_bytes(bytes: usize) -> *const u8 {
    assert!(
        bytes <= ZERO_PAGE,
        "a constant slice of float arrays larger than {ZERO_PAGE} bytes needs fwdad's `alloc` feature: pass `Dual::new(&a[..], &zeros[..])`"
    );
    ZEROS.0.as_ptr()
}

/// A borrowed slice of float arrays (points, features) is a constant: its tangent is
/// zeros in static memory, as the rule takes it.
macro_rules! const_row_refs {
    ($($F:ty),*) => {$(
        impl<'a, const K: usize> Constant for &'a [[$F; K]] {
            type Primal = &'a [[$F; K]];
            type Zero = &'a [[$F; K]];
            #[inline]
            fn constant(self) -> Dual<&'a [[$F; K]], &'a [[$F; K]]> {
                Dual::new(self, zero_rows(self.len()))
            }
        }
        /// A borrowed `Vec` of float arrays is a constant slice of them.
        #[cfg(feature = "alloc")]
        impl<'a, const K: usize> Constant for &'a Vec<[$F; K]> {
            type Primal = &'a [[$F; K]];
            type Zero = &'a [[$F; K]];
            #[inline]
            fn constant(self) -> Dual<&'a [[$F; K]], &'a [[$F; K]]> {
                (&self[..]).constant()
            }
        }
    )*};
}
const_row_refs!(f64, f32);

/// A borrowed slice or array of integers or flags (class labels, indices) is a constant:
/// its tangent is a slice of [`NoTangent`]s, which takes no memory.
macro_rules! discrete_const_refs {
    ($($I:ty),* $(,)?) => {$(
        // `&[$I]` and `&[$I; N]` are constants as `ZeroTangent`s (`DiscreteTangent`).
        /// A borrowed `Vec` is a constant slice (what a `&[usize]` parameter takes).
        #[cfg(feature = "alloc")]
        impl<'a> Constant for &'a Vec<$I> {
            type Primal = &'a [$I];
            type Zero = &'a [crate::tangent::NoTangent];
            #[inline(always)]
            fn constant(self) -> Dual<&'a [$I], &'a [crate::tangent::NoTangent]> {
                (&self[..]).constant()
            }
        }
    )*};
}
discrete_const_refs!(bool, u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{arith, Operand};
    use crate::tangent::Batch;

    #[test]
    fn constant_slices_take_no_memory() {
        let a = [1.0_f64, 2.0, 3.0];
        let d = Dual::constant(&a[..]);
        assert_eq!((d.primal.len(), d.tangent.len()), (3, 3));
        assert_eq!(core::mem::size_of_val(d.tangent), 0);
        let v = alloc_vec();
        let dv = Dual::constant(&v);
        assert_eq!(dv.tangent.len(), v.len());
        let arr = Dual::constant(&a);
        assert_eq!(arr.tangent.len(), 3);
        // Owned values keep their zero tangent in memory, as before.
        assert_eq!(Dual::constant(2.0).tangent, 0.0);
    }

    #[test]
    fn constant_slices_of_float_arrays_are_zeros() {
        let pts = [[1.0_f64, 2.0, 3.0]; 5];
        let d = Dual::constant(&pts[..]);
        assert_eq!(d.tangent, &[[0.0; 3]; 5][..]);
        let small = [[1.0_f32; 2]; 3];
        assert_eq!(Dual::constant(&small[..]).tangent, &[[0.0_f32; 2]; 3][..]);
        // Past the static page: a leaked buffer, reused for anything no larger.
        #[cfg(feature = "alloc")]
        {
            let big = crate::alloc_paths::vec![[1.0_f64; 4]; ZERO_PAGE / 32 + 3];
            let a = Dual::constant(&big).tangent;
            assert!(a.len() == big.len() && a.iter().all(|r| *r == [0.0; 4]));
            let b = Dual::constant(&big[..big.len() - 1]).tangent;
            assert!(core::ptr::eq(a.as_ptr(), b.as_ptr()));
        }
    }

    #[cfg(feature = "alloc")]
    fn alloc_vec() -> crate::alloc_paths::Vec<f64> {
        crate::alloc_paths::vec![1.0, 2.0]
    }
    #[cfg(not(feature = "alloc"))]
    fn alloc_vec() -> [f64; 2] {
        [1.0, 2.0]
    }

    #[test]
    fn constant_operands_are_inactive() {
        let c = Dual::new(3.0, ConstTangent);
        const { assert!(!<Dual<f64, ConstTangent> as Operand<f64, f64>>::ACTIVE) };
        let x = Dual::new(2.0, Batch([1.0, -1.0]));
        let y = arith::mul(c, x);
        assert_eq!((y.primal, y.tangent), (6.0, Batch([3.0, -3.0])));
        let z: Dual<f64, f64> = arith::mul(c, c);
        assert_eq!((z.primal, z.tangent), (9.0, 0.0));
    }

    #[test]
    fn entry_conversions() {
        let a = [1.0_f64, 2.0];
        let cell = ZeroCell::<Batch<f64, 2>>::new();
        let d = active_slice(Dual::constant(&a[..]), &cell);
        assert_eq!(d.tangent, &[Batch([0.0; 2]); 2][..]);
        let t = [3.0, 4.0];
        let cell = ZeroCell::<f64>::new();
        let d = active_slice(Dual::new(&a[..], &t[..]), &cell);
        assert!(core::ptr::eq(d.tangent, &t[..]));
        assert_eq!(
            active_scalar::<f64, f64, _>(Dual::new(1.0, ConstTangent)).tangent,
            0.0
        );
    }
}

/// An integer argument of a rule's one-direction entry (`name_frule`): the integer as it
/// is (`powered_frule(Dual::new(x, 1.0), 3)`), or its dual (`Dual::constant(3)`). An integer
/// has no tangent, so the two mean the same; an unsuffixed literal takes the parameter's
/// type (the only integer type with an `IntArgument` of it).
#[diagnostic::on_unimplemented(
    message = "an integer parameter of a rule's `_frule` entry takes a `{T}` or a `Dual<{T}>`, not `{Self}`",
    label = "expected `{T}` (or `Dual::constant(n)`)",
    note = "pass the integer as it is (`f_frule(Dual::new(x, 1.0), 3)`) or as `Dual::constant(n)`"
)]
pub trait IntArgument<T: Differentiable> {
    /// The argument as the rule's dual.
    fn into_dual(self) -> Dual<T>;
}

impl<T: Differentiable> IntArgument<T> for Dual<T> {
    #[inline(always)]
    fn into_dual(self) -> Dual<T> {
        self
    }
}

macro_rules! int_argument {
    ($($t:ty),* $(,)?) => {$(
        impl IntArgument<$t> for $t {
            #[inline(always)]
            fn into_dual(self) -> Dual<$t> {
                Dual::new(self, crate::tangent::NoTangent)
            }
        }
    )*};
}
int_argument!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
