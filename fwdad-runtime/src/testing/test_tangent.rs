//! [`TestTangent`]: the tangent-space operations that testing needs beyond
//! [`TangentSpace`](crate::TangentSpace) (Mooncake's `randn_tangent`, `_add_to_primal`,
//! `_diff`), for every owned primal type.
//!
//! Invariant kept by every impl: the tangents it builds have the *shape* of the primal they
//! come from (same `Vec` lengths, same `Option` variants), so inner products between them
//! are always defined.

use super::Rng;
use crate::differentiable::Differentiable;
use crate::tangent::{Batch, NoTangent};
#[cfg(all(feature = "alloc", not(feature = "std")))]
use alloc::{boxed::Box, vec::Vec};
use core::fmt::Debug;
#[cfg(not(feature = "std"))]
use num_traits::Float as _;

/// How finely a type's differentiable leaves resolve real numbers; it picks the default
/// finite-difference steps and tolerances of [`TestConfig`](super::TestConfig).
///
/// Ordered from finest to coarsest; a composite type has the coarsest precision of its
/// leaves (a tuple `(f64, f32)` tests like `f32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Precision {
    /// No real leaves (integers, `bool`, ...): the tangent is [`NoTangent`].
    Discrete,
    /// `f64` leaves.
    F64,
    /// Some `f32` leaf.
    F32,
}

impl Precision {
    /// The coarser of `self` and `other` (usable in constants, where `Ord::max` is not).
    pub const fn coarser(self, other: Precision) -> Precision {
        if (self as u8) >= (other as u8) {
            self
        } else {
            other
        }
    }
}

/// Testing operations on an owned primal type and its tangent.
///
/// `Self` is what [`test_frule`](super::test_frule) owns and clones: the primal *state*
/// (a `Vec<f64>` where the function under test borrows a `&[f64]`).
///
/// ```
/// use fwdad_runtime::testing::TestTangent;
/// use rand::SeedableRng;
///
/// let x = (vec![1.0_f64, 2.0], 3_usize);
/// let mut rng = rand::rngs::StdRng::seed_from_u64(0);
/// let t = x.randn_tangent(&mut rng); // (Vec<f64>, NoTangent), standard normal entries
/// let y = x.add_to_primal(&t, 0.5); // x + 0.5·t; the integer is unchanged
/// assert_eq!(y.1, 3);
/// let d = y.diff(&x); // 0.5·t, as a tangent
/// assert!((d.0[1] - 0.5 * t.0[1]).abs() < 1e-15);
/// ```
pub trait TestTangent: Differentiable + Clone + Debug {
    /// The coarsest floating-point precision among the differentiable leaves.
    const PRECISION: Precision;

    /// A random tangent of the shape of `self`, with independent standard normal entries.
    fn randn_tangent<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Tangent;

    /// `self + eps · t` (non-differentiable leaves unchanged). `t` must have the shape of
    /// `self`; leaves without a matching tangent are left unchanged.
    fn add_to_primal(&self, t: &Self::Tangent, eps: f64) -> Self;

    /// `self - other` as a tangent of `self`'s shape (zero where the shapes differ).
    fn diff(&self, other: &Self) -> Self::Tangent;

    /// Whether the primal states are identical: floats compare by bit pattern (so a NaN
    /// equals the same NaN, and `-0.0 != 0.0`), everything else by `==`.
    fn bitwise_eq(&self, other: &Self) -> bool;

    /// Whether `t` has the shape of a tangent of `self` (same lengths, same `Option`
    /// variants), so that it can be compared with tangents drawn from `self`.
    fn matches_tangent(&self, t: &Self::Tangent) -> bool;

    /// Packs `N` single-direction tangents into one batched tangent: lane `k` of every
    /// scalar leaf is that leaf of `ts[k]`. All `ts` must have the same shape.
    fn batch_tangent<const N: usize>(ts: [&Self::Tangent; N]) -> Self::TangentIn<Batch<f64, N>>;

    /// The single-direction tangent held in lane `k` of a batched tangent.
    ///
    /// # Panics
    /// If `k >= N`.
    fn lane<const N: usize>(t: &Self::TangentIn<Batch<f64, N>>, k: usize) -> Self::Tangent;
}

/// A standard normal draw (Box–Muller on two uniform draws), so that testing needs nothing
/// beyond `rand`'s uniform generator.
pub fn randn<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    // `1 - u` lies in (0, 1], so the logarithm is finite.
    let u1 = 1.0 - uniform(rng);
    let u2 = uniform(rng);
    (-2.0 * u1.ln()).sqrt() * (core::f64::consts::TAU * u2).cos()
}

/// A uniform draw from `[0, 1)`.
#[cfg(feature = "testing")]
fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    rng.random::<f64>()
}

/// A uniform draw from `[0, 1)`.
#[cfg(not(feature = "testing"))]
fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    rng.uniform()
}

/// What [`TestTangent::randn_tangent`] takes without the `testing` feature, in place of
/// `rand::Rng`: the trait then exists in every build (`#[derive(Differentiable)]`
/// implements it), but no type implements `NoRng` (it is sealed), so no random tangent can
/// be drawn.
#[cfg(not(feature = "testing"))]
pub trait NoRng: sealed::Sealed {
    /// A uniform draw from `[0, 1)`.
    fn uniform(&mut self) -> f64;
}

#[cfg(not(feature = "testing"))]
mod sealed {
    pub trait Sealed {}
}

macro_rules! test_tangent_float {
    ($($f:ident $prec:ident),*) => {$(
        impl TestTangent for $f {
            const PRECISION: Precision = Precision::$prec;
            #[inline]
            fn randn_tangent<R: Rng + ?Sized>(&self, rng: &mut R) -> $f {
                randn(rng) as $f
            }
            #[inline]
            fn add_to_primal(&self, t: &$f, eps: f64) -> $f {
                // In f64, then rounded once, so that an f32 step is as exact as it can be.
                (f64::from(*self) + eps * f64::from(*t)) as $f
            }
            #[inline]
            fn diff(&self, other: &$f) -> $f {
                self - other
            }
            #[inline]
            fn bitwise_eq(&self, other: &$f) -> bool {
                self.to_bits() == other.to_bits()
            }
            #[inline]
            fn matches_tangent(&self, _: &$f) -> bool {
                true
            }
            #[inline]
            fn batch_tangent<const N: usize>(ts: [&$f; N]) -> Batch<$f, N> {
                Batch(ts.map(|t| *t))
            }
            #[inline]
            fn lane<const N: usize>(t: &Batch<$f, N>, k: usize) -> $f {
                t.0[k]
            }
        }
    )*};
}
test_tangent_float!(f32 F32, f64 F64);

macro_rules! test_tangent_discrete {
    ($($t:ty),* $(,)?) => {$(
        impl TestTangent for $t {
            const PRECISION: Precision = Precision::Discrete;
            #[inline]
            fn randn_tangent<R: Rng + ?Sized>(&self, _: &mut R) -> NoTangent {
                NoTangent
            }
            #[inline]
            fn add_to_primal(&self, _: &NoTangent, _: f64) -> Self {
                self.clone()
            }
            #[inline]
            fn diff(&self, _: &Self) -> NoTangent {
                NoTangent
            }
            #[inline]
            fn bitwise_eq(&self, other: &Self) -> bool {
                self == other
            }
            #[inline]
            fn matches_tangent(&self, _: &NoTangent) -> bool {
                true
            }
            #[inline]
            fn batch_tangent<const N: usize>(_: [&NoTangent; N]) -> NoTangent {
                NoTangent
            }
            #[inline]
            fn lane<const N: usize>(_: &NoTangent, _: usize) -> NoTangent {
                NoTangent
            }
        }
    )*};
}
crate::differentiable::for_each_discrete_type!(test_tangent_discrete);
#[cfg(feature = "alloc")]
test_tangent_discrete!(alloc::string::String);

impl<T: TestTangent, const L: usize> TestTangent for [T; L] {
    const PRECISION: Precision = T::PRECISION;
    fn randn_tangent<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Tangent {
        core::array::from_fn(|i| self[i].randn_tangent(rng))
    }
    fn add_to_primal(&self, t: &Self::Tangent, eps: f64) -> Self {
        core::array::from_fn(|i| self[i].add_to_primal(&t[i], eps))
    }
    fn diff(&self, other: &Self) -> Self::Tangent {
        core::array::from_fn(|i| self[i].diff(&other[i]))
    }
    fn bitwise_eq(&self, other: &Self) -> bool {
        self.iter().zip(other).all(|(a, b)| a.bitwise_eq(b))
    }
    fn matches_tangent(&self, t: &Self::Tangent) -> bool {
        self.iter().zip(t).all(|(p, t)| p.matches_tangent(t))
    }
    fn batch_tangent<const N: usize>(ts: [&Self::Tangent; N]) -> Self::TangentIn<Batch<f64, N>> {
        core::array::from_fn(|i| T::batch_tangent(ts.map(|t| &t[i])))
    }
    fn lane<const N: usize>(t: &Self::TangentIn<Batch<f64, N>>, k: usize) -> Self::Tangent {
        core::array::from_fn(|i| T::lane(&t[i], k))
    }
}

#[cfg(feature = "alloc")]
impl<T: TestTangent> TestTangent for Vec<T> {
    const PRECISION: Precision = T::PRECISION;
    fn randn_tangent<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Tangent {
        self.iter().map(|x| x.randn_tangent(rng)).collect()
    }
    fn add_to_primal(&self, t: &Self::Tangent, eps: f64) -> Self {
        self.iter()
            .enumerate()
            .map(|(i, x)| match t.get(i) {
                Some(ti) => x.add_to_primal(ti, eps),
                None => x.clone(),
            })
            .collect()
    }
    fn diff(&self, other: &Self) -> Self::Tangent {
        self.iter()
            .enumerate()
            .map(|(i, x)| x.diff(other.get(i).unwrap_or(x)))
            .collect()
    }
    fn bitwise_eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.bitwise_eq(b))
    }
    fn matches_tangent(&self, t: &Self::Tangent) -> bool {
        self.len() == t.len() && self.iter().zip(t).all(|(p, t)| p.matches_tangent(t))
    }
    fn batch_tangent<const N: usize>(ts: [&Self::Tangent; N]) -> Self::TangentIn<Batch<f64, N>> {
        let len = ts.iter().map(|t| t.len()).min().unwrap_or(0);
        (0..len)
            .map(|i| T::batch_tangent(ts.map(|t| &t[i])))
            .collect()
    }
    fn lane<const N: usize>(t: &Self::TangentIn<Batch<f64, N>>, k: usize) -> Self::Tangent {
        t.iter().map(|e| T::lane(e, k)).collect()
    }
}

impl<T: TestTangent> TestTangent for Option<T> {
    const PRECISION: Precision = T::PRECISION;
    fn randn_tangent<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Tangent {
        self.as_ref().map(|x| x.randn_tangent(rng))
    }
    fn add_to_primal(&self, t: &Self::Tangent, eps: f64) -> Self {
        match (self, t) {
            (Some(x), Some(t)) => Some(x.add_to_primal(t, eps)),
            _ => self.clone(),
        }
    }
    fn diff(&self, other: &Self) -> Self::Tangent {
        self.as_ref().map(|x| x.diff(other.as_ref().unwrap_or(x)))
    }
    fn bitwise_eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Some(a), Some(b)) => a.bitwise_eq(b),
            (None, None) => true,
            _ => false,
        }
    }
    fn matches_tangent(&self, t: &Self::Tangent) -> bool {
        match (self, t) {
            (Some(p), Some(t)) => p.matches_tangent(t),
            (None, None) => true,
            _ => false,
        }
    }
    fn batch_tangent<const N: usize>(ts: [&Self::Tangent; N]) -> Self::TangentIn<Batch<f64, N>> {
        // `None` unless every direction is `Some`.
        let every = ts.iter().all(|t| t.is_some());
        every.then(|| T::batch_tangent(ts.map(|t| t.as_ref().expect("every direction is `Some`"))))
    }
    fn lane<const N: usize>(t: &Self::TangentIn<Batch<f64, N>>, k: usize) -> Self::Tangent {
        t.as_ref().map(|t| T::lane(t, k))
    }
}

#[cfg(feature = "alloc")]
impl<T: TestTangent> TestTangent for Box<T> {
    const PRECISION: Precision = T::PRECISION;
    fn randn_tangent<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Tangent {
        Box::new((**self).randn_tangent(rng))
    }
    fn add_to_primal(&self, t: &Self::Tangent, eps: f64) -> Self {
        Box::new((**self).add_to_primal(t, eps))
    }
    fn diff(&self, other: &Self) -> Self::Tangent {
        Box::new((**self).diff(other))
    }
    fn bitwise_eq(&self, other: &Self) -> bool {
        (**self).bitwise_eq(other)
    }
    fn matches_tangent(&self, t: &Self::Tangent) -> bool {
        (**self).matches_tangent(t)
    }
    fn batch_tangent<const N: usize>(ts: [&Self::Tangent; N]) -> Self::TangentIn<Batch<f64, N>> {
        Box::new(T::batch_tangent(ts.map(|t| &**t)))
    }
    fn lane<const N: usize>(t: &Self::TangentIn<Batch<f64, N>>, k: usize) -> Self::Tangent {
        Box::new(T::lane(&**t, k))
    }
}

macro_rules! test_tangent_tuple {
    ($($T:ident $_pair:ident $i:tt),+) => {
        impl<$($T: TestTangent),+> TestTangent for ($($T,)+) {
            const PRECISION: Precision = Precision::Discrete $(.coarser($T::PRECISION))+;
            fn randn_tangent<Rn: Rng + ?Sized>(&self, rng: &mut Rn) -> Self::Tangent {
                ($(self.$i.randn_tangent(rng),)+)
            }
            fn add_to_primal(&self, t: &Self::Tangent, eps: f64) -> Self {
                ($(self.$i.add_to_primal(&t.$i, eps),)+)
            }
            fn diff(&self, other: &Self) -> Self::Tangent {
                ($(self.$i.diff(&other.$i),)+)
            }
            fn bitwise_eq(&self, other: &Self) -> bool {
                true $(&& self.$i.bitwise_eq(&other.$i))+
            }
            fn matches_tangent(&self, t: &Self::Tangent) -> bool {
                true $(&& self.$i.matches_tangent(&t.$i))+
            }
            fn batch_tangent<const N: usize>(
                ts: [&Self::Tangent; N],
            ) -> Self::TangentIn<Batch<f64, N>> {
                ($($T::batch_tangent(ts.map(|t| &t.$i)),)+)
            }
            fn lane<const N: usize>(
                t: &Self::TangentIn<Batch<f64, N>>,
                k: usize,
            ) -> Self::Tangent {
                ($($T::lane(&t.$i, k),)+)
            }
        }
    };
}
crate::for_tuples!(test_tangent_tuple);
