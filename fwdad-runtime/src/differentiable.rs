//! `Differentiable`: the one tangent type of every primal type (Mooncake's `tangent_type`).
//!
//! | primal | `Tangent` | `TangentIn<S>` (mode `S`) |
//! |---|---|---|
//! | `f64`, `f32` | `f64`, `f32` | `S`, `S::Of<f32>` |
//! | integers, `bool`, `char`, `()` | [`NoTangent`] | [`NoTangent`] |
//! | `(A, B, ..)` (up to 12) | `(A::Tangent, ..)` | elementwise |
//! | `[T; N]`, `Vec<T>`, `Option<T>`, `Box<T>` | `[T::Tangent; N]`, ... | elementwise |
//! | `Result<T, E>` | `Result<T::Tangent, NoTangent>` | the error carries no tangent |
//! | `&'a [T]`, `&'a mut [T]` | `&'a [T::Tangent]`, `&'a mut [T::Tangent]` | elementwise |
//! | `&'a T`, `&'a mut T` | `&'a T::Tangent`, `&'a mut T::Tangent` | elementwise |
//! | `HashMap<K, V, H>`, `BTreeMap<K, V>` | the same map of `V::Tangent`, same keys | valuewise ([`crate::maps`]) |
//!
//! Invariant: `Tangent` and `TangentIn<f64>` are the same type.

use crate::dual::Dual;
use crate::tangent::{Mode, NoTangent};
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::{boxed::Box, vec::Vec};

/// A primal type together with its unique tangent type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no tangent type",
    label = "not `Differentiable`",
    note = "a type of your own needs `#[derive(Differentiable)]`; for another crate's type, implement `fwdad::Differentiable` for it (see its docs), or pass its `f64` fields as separate arguments"
)]
pub trait Differentiable {
    /// The tangent type (one direction).
    type Tangent;
    /// The tangent type under differentiation mode `S` (batched, second order, ...).
    type TangentIn<S: Mode>;
}

/// Primal types whose zero tangent can be built from the primal alone (owned types).
///
/// A borrowed slice `&[f64]` has no such zero: its tangent must borrow a buffer that someone
/// owns, so build it with `Dual::new(&x[..], &zeros[..])`.
#[diagnostic::on_unimplemented(
    message = "a constant `{Self}` meets differentiated values here, and fwdad cannot give it a zero tangent",
    label = "a constant `{Self}` where a derivative flows",
    note = "a type of your own needs `#[derive(Differentiable)]`; a reference that a function without a rule returns into constant data cannot be promoted: copy the value out (`*f(..)`), or give the function a rule with `#[derive_frule]`"
)]
pub trait ZeroTangent: Differentiable {
    /// The zero tangent, sized from `self` (a `Vec` of the same length, ...).
    fn zero_tangent(&self) -> Self::Tangent;
    /// The zero tangent under mode `S`.
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S>;
}

macro_rules! non_differentiable {
    ($($t:ty),* $(,)?) => {$(
        impl Differentiable for $t {
            type Tangent = NoTangent;
            type TangentIn<S: Mode> = NoTangent;
        }
        impl ZeroTangent for $t {
            #[inline(always)]
            fn zero_tangent(&self) -> NoTangent {
                NoTangent
            }
            #[inline(always)]
            fn zero_tangent_in<S: Mode>(&self) -> NoTangent {
                NoTangent
            }
        }
    )*};
}
/// Calls `$m!` with every primal type that has no tangent (`NoTangent`): one list for
/// `Differentiable` here, `TestTangent` in `testing` and `LaneValue` in `traits`.
macro_rules! for_each_discrete_type {
    ($m:ident) => {
        $m!(
            (),
            bool,
            char,
            u8,
            u16,
            u32,
            u64,
            u128,
            usize,
            i8,
            i16,
            i32,
            i64,
            i128,
            isize,
            // A count that may not be zero (gauss-quad's rules hold their degree as one).
            core::num::NonZeroU8,
            core::num::NonZeroU16,
            core::num::NonZeroU32,
            core::num::NonZeroU64,
            core::num::NonZeroU128,
            core::num::NonZeroUsize,
            core::num::NonZeroI8,
            core::num::NonZeroI16,
            core::num::NonZeroI32,
            core::num::NonZeroI64,
            core::num::NonZeroI128,
            core::num::NonZeroIsize,
            &str,
            NoTangent
        );
    };
}
pub(crate) use for_each_discrete_type;

for_each_discrete_type!(non_differentiable);

macro_rules! non_zero_get {
    ($($nz:ty => $int:ty),* $(,)?) => {$(
        /// `n.get()` of a never-zero count the macro could not see the type of (a field
        /// `self.degree` of the user's struct, as gauss-quad's rules read their degree): the
        /// integer, with no tangent.
        impl Dual<$nz, NoTangent> {
            #[inline(always)]
            pub fn get(&self) -> Dual<$int, NoTangent> {
                Dual::new(self.primal.get(), NoTangent)
            }
        }
        impl<'a> Dual<&'a $nz, &'a NoTangent> {
            #[inline(always)]
            pub fn get(&self) -> Dual<$int, NoTangent> {
                Dual::new(self.primal.get(), NoTangent)
            }
        }
    )*};
}
non_zero_get!(
    core::num::NonZeroU8 => u8,
    core::num::NonZeroU16 => u16,
    core::num::NonZeroU32 => u32,
    core::num::NonZeroU64 => u64,
    core::num::NonZeroU128 => u128,
    core::num::NonZeroUsize => usize,
    core::num::NonZeroI8 => i8,
    core::num::NonZeroI16 => i16,
    core::num::NonZeroI32 => i32,
    core::num::NonZeroI64 => i64,
    core::num::NonZeroI128 => i128,
    core::num::NonZeroIsize => isize,
);
#[cfg(feature = "alloc")]
non_differentiable!(alloc::string::String);

impl Differentiable for f64 {
    type Tangent = f64;
    type TangentIn<S: Mode> = S;
}
impl ZeroTangent for f64 {
    #[inline(always)]
    fn zero_tangent(&self) -> f64 {
        0.0
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> S {
        S::zero()
    }
}

impl Differentiable for f32 {
    type Tangent = f32;
    type TangentIn<S: Mode> = S::Of<f32>;
}
impl ZeroTangent for f32 {
    #[inline(always)]
    fn zero_tangent(&self) -> f32 {
        0.0
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> S::Of<f32> {
        crate::tangent::ScalarTangent::zero()
    }
}

impl<T: Differentiable, const N: usize> Differentiable for [T; N] {
    type Tangent = [T::Tangent; N];
    type TangentIn<S: Mode> = [T::TangentIn<S>; N];
}
impl<T: ZeroTangent, const N: usize> ZeroTangent for [T; N] {
    fn zero_tangent(&self) -> Self::Tangent {
        core::array::from_fn(|i| self[i].zero_tangent())
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        core::array::from_fn(|i| self[i].zero_tangent_in::<S>())
    }
}

#[cfg(feature = "alloc")]
impl<T: Differentiable> Differentiable for Vec<T> {
    type Tangent = Vec<T::Tangent>;
    type TangentIn<S: Mode> = Vec<T::TangentIn<S>>;
}
#[cfg(feature = "alloc")]
impl<T: ZeroTangent> ZeroTangent for Vec<T> {
    fn zero_tangent(&self) -> Self::Tangent {
        self.iter().map(ZeroTangent::zero_tangent).collect()
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        self.iter().map(ZeroTangent::zero_tangent_in::<S>).collect()
    }
}

impl<T: Differentiable> Differentiable for Option<T> {
    type Tangent = Option<T::Tangent>;
    type TangentIn<S: Mode> = Option<T::TangentIn<S>>;
}
impl<T: ZeroTangent> ZeroTangent for Option<T> {
    fn zero_tangent(&self) -> Self::Tangent {
        self.as_ref().map(ZeroTangent::zero_tangent)
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        self.as_ref().map(ZeroTangent::zero_tangent_in::<S>)
    }
}

/// A range of floats (`t0..t1` passed to a curve's `subsegment`): its ends' tangents.
impl<T: Differentiable> Differentiable for core::ops::Range<T> {
    type Tangent = core::ops::Range<T::Tangent>;
    type TangentIn<S: Mode> = core::ops::Range<T::TangentIn<S>>;
}
impl<T: ZeroTangent> ZeroTangent for core::ops::Range<T> {
    fn zero_tangent(&self) -> Self::Tangent {
        self.start.zero_tangent()..self.end.zero_tangent()
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        self.start.zero_tangent_in::<S>()..self.end.zero_tangent_in::<S>()
    }
}

/// The error of a `Result` carries no tangent: a dual `Err(e)` is `e` unchanged.
impl<T: Differentiable, E> Differentiable for Result<T, E> {
    type Tangent = Result<T::Tangent, NoTangent>;
    type TangentIn<S: Mode> = Result<T::TangentIn<S>, NoTangent>;
}
impl<T: ZeroTangent, E> ZeroTangent for Result<T, E> {
    fn zero_tangent(&self) -> Self::Tangent {
        match self {
            Ok(t) => Ok(t.zero_tangent()),
            Err(_) => Err(NoTangent),
        }
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        match self {
            Ok(t) => Ok(t.zero_tangent_in::<S>()),
            Err(_) => Err(NoTangent),
        }
    }
}

#[cfg(feature = "alloc")]
impl<T: Differentiable + ?Sized> Differentiable for Box<T> {
    type Tangent = Box<T::Tangent>;
    type TangentIn<S: Mode> = Box<T::TangentIn<S>>;
}
#[cfg(feature = "alloc")]
impl<T: ZeroTangent + ?Sized> ZeroTangent for Box<T> {
    fn zero_tangent(&self) -> Self::Tangent {
        Box::new((**self).zero_tangent())
    }
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        Box::new((**self).zero_tangent_in::<S>())
    }
}

impl<'a, T: Differentiable + 'a> Differentiable for &'a [T] {
    type Tangent = &'a [T::Tangent];
    type TangentIn<S: Mode> = &'a [T::TangentIn<S>];
}
impl<'a, T: Differentiable + 'a> Differentiable for &'a mut [T] {
    type Tangent = &'a mut [T::Tangent];
    type TangentIn<S: Mode> = &'a mut [T::TangentIn<S>];
}
impl<'a, T: Differentiable + ?Sized + 'a> Differentiable for &'a T {
    type Tangent = &'a T::Tangent;
    type TangentIn<S: Mode> = &'a T::TangentIn<S>;
}
impl<'a, T: Differentiable + ?Sized + 'a> Differentiable for &'a mut T {
    type Tangent = &'a mut T::Tangent;
    type TangentIn<S: Mode> = &'a mut T::TangentIn<S>;
}

macro_rules! differentiable_tuple {
    ($($T:ident $_pair:ident $i:tt),+) => {
        impl<$($T: Differentiable),+> Differentiable for ($($T,)+) {
            type Tangent = ($($T::Tangent,)+);
            type TangentIn<S: Mode> = ($($T::TangentIn<S>,)+);
        }
        impl<$($T: ZeroTangent),+> ZeroTangent for ($($T,)+) {
            fn zero_tangent(&self) -> Self::Tangent {
                ($(self.$i.zero_tangent(),)+)
            }
            fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
                ($(self.$i.zero_tangent_in::<S>(),)+)
            }
        }
    };
}
crate::for_tuples!(differentiable_tuple);

/// Primal types whose tangent is zero-sized in every mode, with that tangent built from
/// nothing: integers, `bool`, `char`, `()` and arrays of them. It lets a constant borrowed
/// slice or array of them (`&[[usize; 3]]`, a mesh's index triangles read from a field of
/// constant data) take a zero tangent when passed to a rule, which for a `&[f64]` would
/// need a buffer of zeros someone owns.
pub trait DiscreteTangent: Differentiable + Sized {
    /// The zero tangent (one direction).
    fn discrete_zero() -> Self::Tangent;
    /// The zero tangent under mode `S`.
    fn discrete_zero_in<S: Mode>() -> Self::TangentIn<S>;
}

macro_rules! discrete_tangent {
    ($($t:ty),* $(,)?) => {$(
        impl DiscreteTangent for $t {
            #[inline(always)]
            fn discrete_zero() -> NoTangent {
                NoTangent
            }
            #[inline(always)]
            fn discrete_zero_in<S: Mode>() -> NoTangent {
                NoTangent
            }
        }
    )*};
}
for_each_discrete_type!(discrete_tangent);

impl<T: DiscreteTangent, const N: usize> DiscreteTangent for [T; N] {
    #[inline(always)]
    fn discrete_zero() -> Self::Tangent {
        core::array::from_fn(|_| T::discrete_zero())
    }
    #[inline(always)]
    fn discrete_zero_in<S: Mode>() -> Self::TangentIn<S> {
        core::array::from_fn(|_| T::discrete_zero_in::<S>())
    }
}

// The zero-sized tangents in no memory (`constant::zero_sized_slice`); the zero built
// from nothing shows the type has a value, as a slice of them claims.
#[diagnostic::do_not_recommend]
impl<'a, T: DiscreteTangent + 'a> ZeroTangent for &'a [T] {
    #[inline(always)]
    fn zero_tangent(&self) -> Self::Tangent {
        let _ = T::discrete_zero();
        crate::constant::zero_sized_slice(self.len())
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        let _ = T::discrete_zero_in::<S>();
        crate::constant::zero_sized_slice(self.len())
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T: DiscreteTangent + 'a> ZeroTangent for &'a T {
    #[inline(always)]
    fn zero_tangent(&self) -> Self::Tangent {
        let _ = T::discrete_zero();
        &crate::constant::zero_sized_slice(1)[0]
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> Self::TangentIn<S> {
        let _ = T::discrete_zero_in::<S>();
        &crate::constant::zero_sized_slice(1)[0]
    }
}

/// A tangent that holds no float: what a `#[non_differentiable]` function may write through
/// a `&mut` argument, since the caller's tangent of it then has nothing to go stale.
#[diagnostic::on_unimplemented(
    message = "`#[non_differentiable]` functions must not write floats through their arguments: the tangent of what this argument points to holds `{Self}`",
    label = "its floats' tangents would be left describing the old values",
    note = "return the values instead, or write a full rule with `#[primitive(rule = ..)]`; a type of your own whose tangent holds no float can implement `fwdad::HoldsNoFloat` for its tangent"
)]
pub trait HoldsNoFloat {}

impl HoldsNoFloat for NoTangent {}
impl<T: HoldsNoFloat> HoldsNoFloat for [T] {}
impl<T: HoldsNoFloat, const N: usize> HoldsNoFloat for [T; N] {}
#[cfg(feature = "alloc")]
impl<T: HoldsNoFloat> HoldsNoFloat for Vec<T> {}
impl<T: HoldsNoFloat> HoldsNoFloat for Option<T> {}
#[cfg(feature = "alloc")]
impl<T: HoldsNoFloat + ?Sized> HoldsNoFloat for Box<T> {}
impl<T: HoldsNoFloat + ?Sized> HoldsNoFloat for &T {}
impl<T: HoldsNoFloat + ?Sized> HoldsNoFloat for &mut T {}
impl<T: HoldsNoFloat, E: HoldsNoFloat> HoldsNoFloat for Result<T, E> {}

macro_rules! holds_no_float_tuple {
    ($($T:ident $t:ident $i:tt),+) => {
        impl<$($T: HoldsNoFloat),+> HoldsNoFloat for ($($T,)+) {}
    };
}
crate::for_tuples!(holds_no_float_tuple);

/// Checks at compile time that tangent `T` holds no float (see [`HoldsNoFloat`]); the
/// `Option` only carries the type.
#[inline(always)]
#[doc(hidden)]
pub fn holds_no_float<T: HoldsNoFloat + ?Sized>(_: Option<&T>) {}
