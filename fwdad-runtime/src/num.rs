//! `Dual<F, T>` as a number: `num_traits::Float` and its companions for scalar duals.
//!
//! `Dual<f32, T>` and `Dual<f64, T>` implement `num_traits::Float` (hence
//! `num_traits::real::Real`), `FloatConst`, `Num`, `NumCast`, `ToPrimitive`, `FromPrimitive`,
//! `Zero`, `One`, `Signed`, `PartialOrd`, `Sum` and `Product`, for every tangent
//! representation `T: ScalarTangent<F>`: one direction (`T = F`), a batch
//! (`T = Batch<F, N>`) and second order (`T = Hyper<F, _>`). Each method calls the rule that
//! `#[derive_frule]` code calls for the same operation (`Float::sin` is
//! [`ops::sin`](crate::ops::sin()), `Float::max` is [`ops::max`](crate::ops::max), ...): there
//! is no second copy of any derivative here, and the primal is computed by the same
//! `f32`/`f64` method, bit for bit. The `std::ops` operators (`+ - * / %`, unary `-`, the
//! `*Assign` forms, with a plain `f32`/`f64` on either side) live with the arithmetic rules
//! in [`rules::arith`](crate::rules::arith).
//!
//! So generic code written for `T: Float`, which `#[derive_frule]` never saw (a library's,
//! or your own), differentiates by *instantiation*: call it with duals.
//!
//! ```
//! use fwdad_runtime::{Batch, Dual};
//! use num_traits::{Float, FromPrimitive};
//! use std::iter::Sum;
//!
//! // Generic library code, as written for floats (argmin_testfunctions' style).
//! fn rosenbrock<T: Float + FromPrimitive + Sum>(x: &[T]) -> T {
//!     let (a, b) = (T::one(), T::from_f64(100.0).unwrap());
//!     x.windows(2)
//!         .map(|w| (a - w[0]).powi(2) + b * (w[1] - w[0] * w[0]).powi(2))
//!         .sum()
//! }
//!
//! let x = [0.5, 1.5];
//! // One direction: seed the tangent of x[0].
//! let xd = [Dual::new(x[0], 1.0), Dual::new(x[1], 0.0)];
//! let y = rosenbrock(&xd);
//! assert_eq!(y.primal, rosenbrock(&x)); // the plain function's value, bit for bit
//! let dfdx0 = -2.0 * (1.0 - x[0]) - 400.0 * x[0] * (x[1] - x[0] * x[0]);
//! assert!((y.tangent - dfdx0).abs() < 1e-12);
//!
//! // The whole gradient in one pass: a batch of two directions.
//! let xb = [Dual::new(x[0], Batch([1.0, 0.0])), Dual::new(x[1], Batch([0.0, 1.0]))];
//! let g = rosenbrock(&xb).tangent.0;
//! assert!((g[0] - dfdx0).abs() < 1e-12);
//! assert!((g[1] - 200.0 * (x[1] - x[0] * x[0])).abs() < 1e-12);
//! ```
//!
//! **From a `#[derive_frule]` body**, a generic library function has no rule of its own
//! (the macro never saw it). Wrap it once in a `#[primitive(rule = ..)]` whose rule
//! instantiates it at duals; the rule is generic over the tangent type, so it serves one
//! direction, batches and second order (tested in `tests/num_library_calls.rs`):
//!
//! ```ignore
//! #[primitive(rule = rosenbrock_rule)]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     argmin_testfunctions::rosenbrock(x)
//! }
//!
//! fn rosenbrock_rule<T: ScalarTangent<f64>>(x: Dual<&[f64], &[T]>) -> Dual<f64, T> {
//!     let xd: Vec<Dual<f64, T>> = (0..x.len()).map(|i| x.at(i).copied()).collect();
//!     argmin_testfunctions::rosenbrock(&xd)
//! }
//! ```
//!
//! Library code that leaves `T` for `f64` computes that part of its value without
//! derivatives. `Dual` does not implement `Into<f64>`, so a `T: Into<f64>` bound is a
//! compile error; `to_f64()` and `NumCast` are part of `Float` and read the primal (see
//! the conventions below): check that the code you instantiate does not go through them
//! on values that depend on the inputs.
//!
//! Conventions, where a dual is not simply "a float with a derivative":
//!
//! * **Comparisons read primals** (`==`, `<`, `partial_cmp`, `is_zero`, `is_nan`,
//!   `is_sign_negative`, ...), as the rules' comparisons do, so generic code takes the
//!   branches it takes on floats and its value is the float instantiation's. Two duals
//!   with the same primal are equal whatever their tangents.
//! * **Conversions to other numbers drop the tangent**: `ToPrimitive` (`to_f64`,
//!   `to_i32`), and hence `NumCast::from(dual)` and `T::from(dual)`, read the primal.
//!   Conversions *into* a dual (`T::from(2.0)`, `T::from_f64(..)`, `T::one()`) give a
//!   constant, which is right for the literals generic code builds this way; a
//!   computed value converted to another float type loses its derivative.
//! * `Float::epsilon`, `max_value`, `nan`, ... are constants (zero tangent);
//!   `integer_decode` and `classify` describe the primal.
//! * Kinks follow the rules' conventions ([`rules::nondiff`](crate::rules::nondiff)):
//!   `abs'(0) = 0`, ties of `max`/`min` split the tangent, `floor`, `round`, `signum`
//!   have a zero tangent. `abs_sub(a, b)` is `max(a - b, 0)`, a tie split as `max`'s.

use crate::dual::Dual;
use crate::real::Real;
use crate::rules::{arith, exp_log, hyperbolic, nondiff, trig};
use crate::tangent::ScalarTangent;
use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::num::FpCategory;
use num_traits::{Float, FloatConst, FromPrimitive, Num, NumCast, One, Signed, ToPrimitive, Zero};

/// A dual with a zero tangent: a value that does not vary.
#[inline(always)]
fn constant<F: Real, T: ScalarTangent<F>>(x: F) -> Dual<F, T> {
    Dual::new(x, T::zero())
}

/// Equal primals: the comparison generic code branches on, as the float instantiation does
/// (see the [module docs](self)). Tangents are compared by reading `.tangent`.
impl<F: Real, T: ScalarTangent<F>> PartialEq for Dual<F, T> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.primal == other.primal
    }
}

/// Ordered by primals.
impl<F: Real, T: ScalarTangent<F>> PartialOrd for Dual<F, T> {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.primal.partial_cmp(&other.primal)
    }
}

impl<F: Real, T: ScalarTangent<F>> Zero for Dual<F, T> {
    #[inline(always)]
    fn zero() -> Self {
        constant(F::zero())
    }
    /// Whether the primal is zero.
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.primal.is_zero()
    }
}

impl<F: Real, T: ScalarTangent<F>> One for Dual<F, T> {
    #[inline(always)]
    fn one() -> Self {
        constant(F::one())
    }
}

impl<F: Real, T: ScalarTangent<F>> Num for Dual<F, T> {
    type FromStrRadixErr = F::FromStrRadixErr;
    /// A constant parsed as `F` parses it.
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
        F::from_str_radix(s, radix).map(constant)
    }
}

/// The primal's conversions: the tangent is dropped (see the [module docs](self)).
impl<F: Real, T: ScalarTangent<F>> ToPrimitive for Dual<F, T> {
    #[inline]
    fn to_i64(&self) -> Option<i64> {
        self.primal.to_i64()
    }
    #[inline]
    fn to_u64(&self) -> Option<u64> {
        self.primal.to_u64()
    }
    #[inline]
    fn to_i128(&self) -> Option<i128> {
        self.primal.to_i128()
    }
    #[inline]
    fn to_u128(&self) -> Option<u128> {
        self.primal.to_u128()
    }
    #[inline]
    fn to_f32(&self) -> Option<f32> {
        self.primal.to_f32()
    }
    #[inline]
    fn to_f64(&self) -> Option<f64> {
        self.primal.to_f64()
    }
}

/// A constant converted as `F` converts it.
impl<F: Real, T: ScalarTangent<F>> NumCast for Dual<F, T> {
    #[inline]
    fn from<N: ToPrimitive>(n: N) -> Option<Self> {
        <F as NumCast>::from(n).map(constant)
    }
}

/// A constant converted as `F` converts it.
impl<F: Real, T: ScalarTangent<F>> FromPrimitive for Dual<F, T> {
    #[inline]
    fn from_i64(n: i64) -> Option<Self> {
        F::from_i64(n).map(constant)
    }
    #[inline]
    fn from_u64(n: u64) -> Option<Self> {
        F::from_u64(n).map(constant)
    }
    #[inline]
    fn from_i128(n: i128) -> Option<Self> {
        F::from_i128(n).map(constant)
    }
    #[inline]
    fn from_u128(n: u128) -> Option<Self> {
        F::from_u128(n).map(constant)
    }
    #[inline]
    fn from_f32(n: f32) -> Option<Self> {
        F::from_f32(n).map(constant)
    }
    #[inline]
    fn from_f64(n: f64) -> Option<Self> {
        F::from_f64(n).map(constant)
    }
}

/// `|a - b|`-style helpers of `Float` and `Signed`: `0` where `a <= b` (the primal `F`
/// computes, tangent zero), else `a - b`'s rule.
#[inline(always)]
fn abs_sub<F: Real, T: ScalarTangent<F>>(a: Dual<F, T>, b: Dual<F, T>) -> Dual<F, T> {
    nondiff::abs_sub(a, b)
}

impl<F: Real, T: ScalarTangent<F>> Signed for Dual<F, T> {
    #[inline(always)]
    fn abs(&self) -> Self {
        nondiff::abs(*self)
    }
    #[inline(always)]
    fn abs_sub(&self, other: &Self) -> Self {
        abs_sub(*self, *other)
    }
    #[inline(always)]
    fn signum(&self) -> Self {
        nondiff::signum(*self)
    }
    /// The primal's sign bit is clear (`+0.0` included), as for floats.
    #[inline(always)]
    fn is_positive(&self) -> bool {
        self.primal.is_sign_positive()
    }
    /// The primal's sign bit is set (`-0.0` included), as for floats.
    #[inline(always)]
    fn is_negative(&self) -> bool {
        self.primal.is_sign_negative()
    }
}

/// Summed from `-0.0`, as `Sum for f64` starts, so the primal is the float sum's, bit for
/// bit (an empty sum is `-0.0`).
impl<F: Real, T: ScalarTangent<F>> Sum for Dual<F, T> {
    #[inline]
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(constant(F::neg_zero()), arith::add)
    }
}

impl<'a, F: Real, T: ScalarTangent<F>> Sum<&'a Dual<F, T>> for Dual<F, T> {
    #[inline]
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().sum()
    }
}

/// Multiplied from `1.0`, as `Product for f64` starts.
impl<F: Real, T: ScalarTangent<F>> Product for Dual<F, T> {
    #[inline]
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(constant(F::one()), arith::mul)
    }
}

impl<'a, F: Real, T: ScalarTangent<F>> Product<&'a Dual<F, T>> for Dual<F, T> {
    #[inline]
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().product()
    }
}

/// Forwards `Float` methods to the runtime's rules, one line each.
macro_rules! forward {
    ($($module:ident :: $name:ident ($($arg:ident),*);)*) => {$(
        #[inline(always)]
        fn $name(self $(, $arg: Self)*) -> Self {
            $module::$name(self $(, $arg)*)
        }
    )*};
}

/// A constant's `Float` constructor.
macro_rules! constants {
    ($($name:ident),*) => {$(
        #[inline(always)]
        fn $name() -> Self {
            constant(F::$name())
        }
    )*};
}

/// A predicate on the primal.
macro_rules! predicates {
    ($($name:ident),*) => {$(
        #[inline(always)]
        fn $name(self) -> bool {
            self.primal.$name()
        }
    )*};
}

impl<F: Real, T: ScalarTangent<F>> Float for Dual<F, T> {
    constants!(
        nan,
        infinity,
        neg_infinity,
        neg_zero,
        min_value,
        min_positive_value,
        epsilon,
        max_value
    );
    predicates!(
        is_nan,
        is_infinite,
        is_finite,
        is_normal,
        is_subnormal,
        is_sign_positive,
        is_sign_negative
    );

    forward! {
        nondiff::floor();
        nondiff::ceil();
        nondiff::round();
        nondiff::trunc();
        nondiff::fract();
        nondiff::abs();
        nondiff::signum();
        nondiff::max(other);
        nondiff::min(other);
        nondiff::copysign(sign);
        arith::mul_add(a, b);
        arith::recip();
        exp_log::powf(n);
        exp_log::sqrt();
        exp_log::exp();
        exp_log::exp2();
        exp_log::ln();
        exp_log::log(base);
        exp_log::log2();
        exp_log::log10();
        exp_log::cbrt();
        exp_log::hypot(other);
        exp_log::exp_m1();
        exp_log::ln_1p();
        trig::to_degrees();
        trig::to_radians();
        trig::sin();
        trig::cos();
        trig::tan();
        trig::asin();
        trig::acos();
        trig::atan();
        trig::atan2(other);
        hyperbolic::sinh();
        hyperbolic::cosh();
        hyperbolic::tanh();
        hyperbolic::asinh();
        hyperbolic::acosh();
        hyperbolic::atanh();
    }

    #[inline(always)]
    fn classify(self) -> FpCategory {
        self.primal.classify()
    }
    #[inline(always)]
    fn powi(self, n: i32) -> Self {
        exp_log::powi(self, n)
    }
    #[inline(always)]
    fn clamp(self, min: Self, max: Self) -> Self {
        nondiff::clamp(self, min, max)
    }
    #[inline(always)]
    fn abs_sub(self, other: Self) -> Self {
        abs_sub(self, other)
    }
    #[inline(always)]
    fn sin_cos(self) -> (Self, Self) {
        trig::sin_cos(self)
    }
    #[inline(always)]
    fn integer_decode(self) -> (u64, i16, i8) {
        self.primal.integer_decode()
    }
}

/// The constants, with zero tangents.
macro_rules! float_const {
    ($($name:ident),*) => {
        impl<F: Real, T: ScalarTangent<F>> FloatConst for Dual<F, T> {$(
            #[inline(always)]
            fn $name() -> Self {
                constant(F::$name())
            }
        )*}
    };
}
float_const!(
    E,
    FRAC_1_PI,
    FRAC_1_SQRT_2,
    FRAC_2_PI,
    FRAC_2_SQRT_PI,
    FRAC_PI_2,
    FRAC_PI_3,
    FRAC_PI_4,
    FRAC_PI_6,
    FRAC_PI_8,
    LN_10,
    LN_2,
    LOG10_E,
    LOG2_E,
    PI,
    SQRT_2,
    TAU,
    LOG10_2,
    LOG2_10
);
