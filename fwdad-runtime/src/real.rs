//! `Real`: the floating-point scalars that carry tangents.
//!
//! Rules are written once, generic over `F: Real`, and instantiated for `f32` and `f64`.
//! Primal results go through `num_traits::Float`, which forwards to the inherent `f64`/`f32`
//! methods, so a rule's primal output is bit-identical to the plain function's.

use crate::differentiable::Differentiable;
use crate::dual::Dual;
use crate::rules::{BinaryDef, UnaryDef};
use crate::tangent::{Mode, ScalarTangent};
use core::fmt::{Debug, Display};
use core::ops::{AddAssign, DivAssign, MulAssign, SubAssign};

/// A real floating-point scalar: `f32` or `f64`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a float type (`f32` or `f64`)",
    label = "a float is expected here",
    note = "every type parameter of a `#[derive_frule]` function is taken to be a float type (`T: Float`); other type parameters (an integer, a type with a trait of yours) are not supported yet: use the concrete type, or keep the generic code in a plain helper called with its result",
    note = "a value whose type `#[derive_frule]` cannot see (what a function returned, bound by `let` without a type; a `.sum()`) is taken for a float in arithmetic: write its type (`let d: Vec3 = f(x);`)"
)]
pub trait Real:
    num_traits::Float
    + num_traits::FloatConst
    + num_traits::FromPrimitive
    // A real's tangent is a real of the same type, so generic code (`fn f<T: Float>`) can
    // rely on `Dual<T> == Dual<T, T::TangentIn<f64>> == Dual<T, T>`.
    + Differentiable<Tangent = Self, TangentIn<f64> = Self>
    + crate::differentiable::ZeroTangent
    // The rows of `a + b` on values the macro took for a user type (`user_ops`).
    + crate::user_ops::FloatOperators
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + Debug
    + Display
    + Default
    + Send
    + Sync
    + 'static
{
    /// Converts an `f64` constant (a literal in a rule) to this type, rounding if needed.
    fn cst(x: f64) -> Self;
    /// Widens (or keeps) the value as an `f64`, for inner products and tolerances.
    fn to_f64_lossless(self) -> f64;

    /// `f64::round_ties_even` (not a method of `num_traits::Float`).
    #[doc(hidden)]
    fn __round_ties_even(self) -> Self;
    /// `f64::midpoint`, bit for bit (`std`'s is stable only since Rust 1.85, after this
    /// crate's minimum version).
    #[doc(hidden)]
    fn __midpoint(self, other: Self) -> Self;

    /// `acc + c·t`, lane by lane (the linearised chains' tangent update).
    #[doc(hidden)]
    #[inline(always)]
    fn __lanes_axpy<const N: usize>(acc: [Self; N], c: Self, t: [Self; N]) -> [Self; N] {
        core::array::from_fn(|i| acc[i] + c * t[i])
    }

    /// `acc + c·t`, lane by lane, fused where the type has a fused multiply-add (what
    /// [`Fused`](crate::tangent::Fused) tangents use).
    #[doc(hidden)]
    #[inline(always)]
    fn __lanes_axpy_fused<const N: usize>(acc: [Self; N], c: Self, t: [Self; N]) -> [Self; N] {
        Self::__lanes_axpy(acc, c, t)
    }

    /// Whether every lane is `±0` (a tangent a linearised chain may skip).
    #[doc(hidden)]
    #[inline(always)]
    fn __lanes_zero<const N: usize>(t: &[Self; N]) -> bool {
        t.iter().all(|x| *x == Self::zero())
    }

    /// This type's tangent under `S` seen as `S::Of<Self>` (they are the same type, which
    /// generic code cannot see): the way into [`Mode::cast`] for `x as G` of a generic `F`.
    #[doc(hidden)]
    fn __tangent_to_of<S: Mode>(t: Self::TangentIn<S>) -> S::Of<Self>;
    /// The inverse of [`Real::__tangent_to_of`].
    #[doc(hidden)]
    fn __tangent_from_of<S: Mode>(t: S::Of<Self>) -> Self::TangentIn<S>;

    #[doc(hidden)]
    fn __d_unary<R: UnaryDef>(x: Self, y: Self) -> Self;
    #[doc(hidden)]
    fn __d_dual_unary<R: UnaryDef, T: ScalarTangent<Self>>(
        x: Dual<Self, T>,
        y: Dual<Self, T>,
    ) -> Dual<Self, T>;
    #[doc(hidden)]
    fn __d_binary<R: BinaryDef>(a: Self, b: Self, y: Self) -> (Self, Self);
    #[doc(hidden)]
    #[allow(clippy::type_complexity)]
    fn __d_dual_binary<R: BinaryDef, T: ScalarTangent<Self>>(
        a: Dual<Self, T>,
        b: Dual<Self, T>,
        y: Dual<Self, T>,
    ) -> (Dual<Self, T>, Dual<Self, T>);
    #[doc(hidden)]
    fn __d1_dual_binary<R: BinaryDef, T: ScalarTangent<Self>>(
        a: Dual<Self, T>,
        b: Self,
        y: Dual<Self, T>,
    ) -> Dual<Self, T>;
    #[doc(hidden)]
    fn __d2_dual_binary<R: BinaryDef, T: ScalarTangent<Self>>(
        a: Self,
        b: Dual<Self, T>,
        y: Dual<Self, T>,
    ) -> Dual<Self, T>;
}

/// `x.round_ties_even()`: `std`'s inherent method, which `core` lacks; without `std`,
/// [`round_ties_even_by_round`].
macro_rules! round_ties_even_fn {
    ($($F:ty),*) => {$(
        impl RoundTiesEven for $F {
            #[cfg(feature = "std")]
            #[inline(always)]
            fn round_ties_even_(self) -> Self {
                <$F>::round_ties_even(self)
            }
            #[cfg(not(feature = "std"))]
            #[inline(always)]
            fn round_ties_even_(self) -> Self {
                round_ties_even_by_round(self)
            }
        }
    )*};
}

trait RoundTiesEven {
    fn round_ties_even_(self) -> Self;
}
round_ties_even_fn!(f32, f64);

#[inline(always)]
fn round_ties_even<F: RoundTiesEven>(x: F) -> F {
    x.round_ties_even_()
}

/// Ties to even from `round` (ties away from zero): at a tie (`|x - round(x)| = 1/2`,
/// exact for every float with a fraction) an odd result steps one back towards zero, and
/// keeps `x`'s sign (`-0.5` gives `-0.0`, as `std`).
#[cfg_attr(feature = "std", allow(dead_code))]
fn round_ties_even_by_round<F: num_traits::Float>(x: F) -> F {
    let r = x.round();
    let two = F::one() + F::one();
    let half = F::one() / two;
    if (r - x).abs() == half && r % two != F::zero() {
        (r - r.signum()).copysign(x)
    } else {
        r
    }
}

/// Routes the generic rule interface to the concrete-typed rule definitions.
macro_rules! dispatch {
    ($d:ident, $dd:ident, $d1:ident, $d2:ident) => {
        #[inline(always)]
        fn __d_unary<R: UnaryDef>(x: Self, y: Self) -> Self {
            R::$d(x, y)
        }
        #[inline(always)]
        fn __d_dual_unary<R: UnaryDef, T: ScalarTangent<Self>>(
            x: Dual<Self, T>,
            y: Dual<Self, T>,
        ) -> Dual<Self, T> {
            R::$dd(x, y)
        }
        #[inline(always)]
        fn __d_binary<R: BinaryDef>(a: Self, b: Self, y: Self) -> (Self, Self) {
            R::$d(a, b, y)
        }
        #[inline(always)]
        fn __d_dual_binary<R: BinaryDef, T: ScalarTangent<Self>>(
            a: Dual<Self, T>,
            b: Dual<Self, T>,
            y: Dual<Self, T>,
        ) -> (Dual<Self, T>, Dual<Self, T>) {
            R::$dd(a, b, y)
        }
        #[inline(always)]
        fn __d1_dual_binary<R: BinaryDef, T: ScalarTangent<Self>>(
            a: Dual<Self, T>,
            b: Self,
            y: Dual<Self, T>,
        ) -> Dual<Self, T> {
            R::$d1(a, b, y)
        }
        #[inline(always)]
        fn __d2_dual_binary<R: BinaryDef, T: ScalarTangent<Self>>(
            a: Self,
            b: Dual<Self, T>,
            y: Dual<Self, T>,
        ) -> Dual<Self, T> {
            R::$d2(a, b, y)
        }
    };
}

impl Real for f64 {
    #[inline(always)]
    fn cst(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn to_f64_lossless(self) -> f64 {
        self
    }
    #[inline(always)]
    fn __round_ties_even(self) -> Self {
        round_ties_even(self)
    }
    /// `std`'s algorithm: halve before adding only where the sum could overflow, and
    /// never halve an operand that would lose bits by it.
    #[inline(always)]
    fn __midpoint(self, other: Self) -> Self {
        const LO: f64 = f64::MIN_POSITIVE * 2.0;
        const HI: f64 = f64::MAX / 2.0;
        let (a, b) = (self, other);
        let (abs_a, abs_b) = (num_traits::Float::abs(a), num_traits::Float::abs(b));
        if abs_a <= HI && abs_b <= HI {
            (a + b) / 2.0
        } else if abs_a < LO {
            a + b / 2.0
        } else if abs_b < LO {
            a / 2.0 + b
        } else {
            a / 2.0 + b / 2.0
        }
    }
    dispatch!(d_f64, d_dual_f64, d1_dual_f64, d2_dual_f64);
    #[inline(always)]
    fn __tangent_to_of<S: Mode>(t: S) -> S::Of<f64> {
        S::from_own(t)
    }
    #[inline(always)]
    fn __tangent_from_of<S: Mode>(t: S::Of<f64>) -> S {
        S::widen::<f64>(t)
    }

    /// Without branches: the lanes' bits, sign dropped, or-ed together.
    #[inline(always)]
    fn __lanes_zero<const N: usize>(t: &[f64; N]) -> bool {
        t.iter().fold(0u64, |a, x| a | x.to_bits()) << 1 == 0
    }

    /// `f64::mul_add` lane by lane: `llvm.fma`, which code compiled with FMA (a function
    /// with `#[target_feature(enable = "fma")]` the rule is inlined into) vectorises into
    /// fused multiply-adds, and default `x86-64` code calls libm for. Without `std` the
    /// unfused update.
    #[cfg(feature = "std")]
    #[inline(always)]
    fn __lanes_axpy_fused<const N: usize>(acc: [f64; N], c: f64, t: [f64; N]) -> [f64; N] {
        core::array::from_fn(|i| c.mul_add(t[i], acc[i]))
    }

    /// Four lanes per fused multiply-add where the crate is compiled with AVX and FMA
    /// (`-C target-cpu=native` on most machines): a quarter of SSE2's instructions, and
    /// one rounding per lane instead of two (tangents need not be bit-identical).
    #[cfg(all(target_arch = "x86_64", target_feature = "avx", target_feature = "fma"))]
    #[inline(always)]
    fn __lanes_axpy<const N: usize>(acc: [f64; N], c: f64, t: [f64; N]) -> [f64; N] {
        use core::arch::x86_64::{
            _mm256_fmadd_pd, _mm256_loadu_pd, _mm256_set1_pd, _mm256_storeu_pd, _mm_cvtsd_f64,
            _mm_fmadd_pd, _mm_fmadd_sd, _mm_loadu_pd, _mm_set1_pd, _mm_set_sd, _mm_storeu_pd,
        };
        if N == 1 {
            // One lane is one direction: `f64`'s unfused update, so the two agree bit for
            // bit (`Mode::LINEARIZE_SINGLE_ROOT`).
            return core::array::from_fn(|i| acc[i] + c * t[i]);
        }
        let mut out = acc;
        // SAFETY: AVX and FMA are enabled for the whole crate (the `cfg` above); every
        // access is within `[f64; N]`, unaligned loads and stores.
        unsafe {
            let c4 = _mm256_set1_pd(c);
            let mut i = 0;
            while i + 4 <= N {
                let a = _mm256_loadu_pd(out.as_ptr().add(i));
                let b = _mm256_loadu_pd(t.as_ptr().add(i));
                _mm256_storeu_pd(out.as_mut_ptr().add(i), _mm256_fmadd_pd(c4, b, a));
                i += 4;
            }
            if i + 2 <= N {
                let a = _mm_loadu_pd(out.as_ptr().add(i));
                let b = _mm_loadu_pd(t.as_ptr().add(i));
                _mm_storeu_pd(out.as_mut_ptr().add(i), _mm_fmadd_pd(_mm_set1_pd(c), b, a));
                i += 2;
            }
            if i < N {
                out[i] = _mm_cvtsd_f64(_mm_fmadd_sd(
                    _mm_set_sd(c),
                    _mm_set_sd(t[i]),
                    _mm_set_sd(out[i]),
                ));
            }
        }
        out
    }

    /// Two lanes per SSE2 operation, so that the SLP vectorizer cannot pair lanes of two
    /// different updates that share `t` (which it does for the plain loop, packing a lane of
    /// one accumulator with the same lane of another, and shuffling every iteration).
    #[cfg(all(
        target_arch = "x86_64",
        not(all(target_feature = "avx", target_feature = "fma"))
    ))]
    #[inline(always)]
    fn __lanes_axpy<const N: usize>(acc: [f64; N], c: f64, t: [f64; N]) -> [f64; N] {
        use core::arch::x86_64::{
            _mm_add_pd, _mm_loadu_pd, _mm_mul_pd, _mm_set1_pd, _mm_storeu_pd,
        };
        let mut out = acc;
        // SAFETY: SSE2 is part of x86_64; every access is within `[f64; N]` (pairs below
        // `N - N % 2`), unaligned loads and stores.
        unsafe {
            let cv = _mm_set1_pd(c);
            let mut i = 0;
            while i + 2 <= N {
                let a = _mm_loadu_pd(out.as_ptr().add(i));
                let b = _mm_loadu_pd(t.as_ptr().add(i));
                _mm_storeu_pd(out.as_mut_ptr().add(i), _mm_add_pd(a, _mm_mul_pd(cv, b)));
                i += 2;
            }
        }
        if N % 2 == 1 {
            out[N - 1] += c * t[N - 1];
        }
        out
    }
}

impl Real for f32 {
    #[inline(always)]
    fn cst(x: f64) -> Self {
        x as f32
    }
    #[inline(always)]
    fn to_f64_lossless(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn __round_ties_even(self) -> Self {
        round_ties_even(self)
    }
    /// `std`'s: the sum in `f64` is exact, so one rounding to `f32`.
    #[inline(always)]
    fn __midpoint(self, other: Self) -> Self {
        ((self as f64 + other as f64) / 2.0) as f32
    }
    dispatch!(d_f32, d_dual_f32, d1_dual_f32, d2_dual_f32);
    #[inline(always)]
    fn __tangent_to_of<S: Mode>(t: S::Of<f32>) -> S::Of<f32> {
        t
    }
    #[inline(always)]
    fn __tangent_from_of<S: Mode>(t: S::Of<f32>) -> S::Of<f32> {
        t
    }
}

#[cfg(test)]
mod tests {
    /// The fallback without `std` is `std`'s bit for bit, at ties, signed zeros, beyond
    /// 2⁵² and at the specials.
    #[test]
    fn round_ties_even_by_round_is_std() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            3.7,
            -3.2,
            4503599627370495.5,
            -4503599627370495.5,
            4503599627370497.0,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        xs.extend((-40..40).map(|k| k as f64 * 0.25));
        for x in xs {
            let want = x.round_ties_even();
            assert_eq!(
                super::round_ties_even_by_round(x).to_bits(),
                want.to_bits(),
                "{x}"
            );
            let x = x as f32;
            let got = super::round_ties_even_by_round(x);
            assert_eq!(got.to_bits(), x.round_ties_even().to_bits(), "{x}");
        }
        assert!(super::round_ties_even_by_round(f64::NAN).is_nan());
    }
}
