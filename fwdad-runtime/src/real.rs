//! `Real`: the floating-point scalars that carry tangents.
//!
//! Rules are written once, generic over `F: Real`, and instantiated for `f32` and `f64`.
//! Primal results go through `num_traits::Float`, which forwards to the inherent `f64`/`f32`
//! methods, so a rule's primal output is bit-identical to the plain function's.

use crate::differentiable::Differentiable;
use crate::dual::Dual;
use crate::rules::{BinaryDef, UnaryDef};
use crate::tangent::ScalarTangent;
use core::fmt::{Debug, Display};
use core::ops::{AddAssign, DivAssign, MulAssign, SubAssign};

/// A real floating-point scalar: `f32` or `f64`.
pub trait Real:
    num_traits::Float
    + num_traits::FloatConst
    + num_traits::FromPrimitive
    // A real's tangent is a real of the same type, so generic code (`fn f<T: Float>`) can
    // rely on `Dual<T> == Dual<T, T::TangentIn<f64>> == Dual<T, T>`.
    + Differentiable<Tangent = Self, TangentIn<f64> = Self>
    + crate::differentiable::ZeroTangent
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
}

/// Routes the generic rule interface to the concrete-typed rule definitions.
macro_rules! dispatch {
    ($d:ident, $dd:ident) => {
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
    dispatch!(d_f64, d_dual_f64);
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
    dispatch!(d_f32, d_dual_f32);
}
