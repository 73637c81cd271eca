//! `Dual<f64, T>` and `Dual<f32, T>` as nalgebra scalars (feature `nalgebra`).
//!
//! With this feature a scalar dual implements simba's `RealField` (hence `ComplexField`,
//! `Field`, `SimdValue`, `SubsetOf`/`SupersetOf` of `f32`/`f64`) and approx's `AbsDiffEq`,
//! `RelativeEq` and `UlpsEq`, in every mode (one direction, `Batch`, `Hyper`). So
//! `Vector3<Dual<f64, T>>`, `Matrix3<Dual<f64, T>>`, `DMatrix<Dual<f64, T>>` are nalgebra
//! matrices, and nalgebra's own generic code (`norm`, `dot`, `cross`, `m * v`,
//! `transpose`, `lu().solve(..)`, `cholesky()`, `try_inverse()`, quaternions, ...)
//! computes their tangents by instantiation, as num-dual's duals do.
//!
//! Every method calls the `num_traits::Float` method of the dual (see [`crate::num`]),
//! which calls the rule `#[derive_frule]` code calls for the same operation: there is no
//! second copy of any derivative here. The conventions are [`crate::num`]'s: comparisons
//! and the approx traits read primals, so generic code takes the branches it takes on
//! floats (a pivot search, `try_inverse`'s singularity test); `floor`, `round`, `signum`
//! have zero tangents. A dual is a real number: `imaginary` and `argument` are zero,
//! `conjugate` is the identity.
//!
//! ```
//! use fwdad_runtime::Dual;
//! use nalgebra::{Matrix2, Vector2};
//!
//! // d/dt of |A(t)⁻¹ b| with A(t) = [[2 + t, 1], [1, 3]], b = (1, 2), at t = 0.
//! let t: Dual<f64> = Dual::new(0.0, 1.0);
//! let one: Dual<f64> = Dual::constant(1.0);
//! let a = Matrix2::new(t + 2.0, one, one, one * 3.0);
//! let b = Vector2::new(one, one * 2.0);
//! let x = a.lu().solve(&b).unwrap();
//! // By hand: A⁻¹ = [[3, -1], [-1, 2]] / 5, x = (1/5, 3/5), dx = -A⁻¹ (dA) x = -A⁻¹ (1/5, 0) = (-3/25, 1/25).
//! assert!((x[0].primal - 0.2).abs() < 1e-15 && (x[1].primal - 0.6).abs() < 1e-15);
//! assert!((x[0].tangent + 3.0 / 25.0).abs() < 1e-15);
//! assert!((x[1].tangent - 1.0 / 25.0).abs() < 1e-15);
//! ```

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
use approx::{AbsDiffEq, RelativeEq, UlpsEq};
use core::ops::Mul;
use nalgebra::allocator::Allocator;
use nalgebra::{ArrayStorage, DefaultAllocator, Dim, Matrix, OMatrix, SMatrix, Storage};
use num_traits::{Float, FloatConst};
use simba::scalar::{ComplexField, Field, RealField, SubsetOf};
use simba::simd::SimdValue;

/// `f64` and `f32` as subsets of the duals over any float type `F`: a plain float is a
/// constant dual; a dual converted to a float keeps its primal.
macro_rules! plain_subset {
    ($($P:ty),*) => {$(
        impl<F: Real + RealField, T: ScalarTangent<F>> SubsetOf<Dual<F, T>> for $P {
            #[inline(always)]
            fn to_superset(&self) -> Dual<F, T> {
                Dual::new(F::cst(*self as f64), T::zero())
            }
            #[inline(always)]
            fn from_superset_unchecked(element: &Dual<F, T>) -> $P {
                element.primal.to_f64_lossless() as $P
            }
            #[inline(always)]
            fn is_in_subset(_: &Dual<F, T>) -> bool {
                true
            }
        }
    )*};
}

plain_subset!(f64, f32);

/// The scalar traits of `Dual<$F, T>`, written once over a float type parameter `$F`
/// bounded by `$b`: `f64` and `f32`, and a function's `T: RealField` (whose rule has
/// `T: Real`), so that nalgebra values over `T` are nalgebra's generic code on `Dual<T, ..>`.
macro_rules! nalgebra_scalar {
    ($F:ident: $($b:tt)*) => {
        impl<$F: $($b)*, T: ScalarTangent<$F>> SimdValue for Dual<$F, T> {
            const LANES: usize = 1;
            type Element = Self;
            type SimdBool = bool;

            #[inline(always)]
            fn splat(val: Self) -> Self {
                val
            }
            #[inline(always)]
            fn extract(&self, _: usize) -> Self {
                *self
            }
            #[inline(always)]
            unsafe fn extract_unchecked(&self, _: usize) -> Self {
                *self
            }
            #[inline(always)]
            fn replace(&mut self, _: usize, val: Self) {
                *self = val
            }
            #[inline(always)]
            unsafe fn replace_unchecked(&mut self, _: usize, val: Self) {
                *self = val
            }
            #[inline(always)]
            fn select(self, cond: bool, other: Self) -> Self {
                if cond {
                    self
                } else {
                    other
                }
            }
        }

        impl<$F: $($b)*, T: ScalarTangent<$F>> Field for Dual<$F, T> {}

        /// The identity: a dual is a subset of itself.
        impl<$F: $($b)*, T: ScalarTangent<$F>> SubsetOf<Dual<$F, T>> for Dual<$F, T> {
            #[inline(always)]
            fn to_superset(&self) -> Self {
                *self
            }
            #[inline(always)]
            fn from_superset_unchecked(element: &Self) -> Self {
                *element
            }
            #[inline(always)]
            fn is_in_subset(_: &Self) -> bool {
                true
            }
        }

        /// Compares primals, as `==` does.
        impl<$F: $($b)*, T: ScalarTangent<$F>> AbsDiffEq for Dual<$F, T> {
            type Epsilon = Self;
            #[inline]
            fn default_epsilon() -> Self {
                Dual::new(<$F as AbsDiffEq>::default_epsilon(), T::zero())
            }
            #[inline]
            fn abs_diff_eq(&self, other: &Self, epsilon: Self) -> bool {
                self.primal.abs_diff_eq(&other.primal, epsilon.primal)
            }
        }

        /// Compares primals, as `==` does.
        impl<$F: $($b)*, T: ScalarTangent<$F>> RelativeEq for Dual<$F, T> {
            #[inline]
            fn default_max_relative() -> Self {
                Dual::new(<$F as RelativeEq>::default_max_relative(), T::zero())
            }
            #[inline]
            fn relative_eq(&self, other: &Self, epsilon: Self, max_relative: Self) -> bool {
                self.primal
                    .relative_eq(&other.primal, epsilon.primal, max_relative.primal)
            }
        }

        /// Compares primals, as `==` does.
        impl<$F: $($b)*, T: ScalarTangent<$F>> UlpsEq for Dual<$F, T> {
            #[inline]
            fn default_max_ulps() -> u32 {
                <$F as UlpsEq>::default_max_ulps()
            }
            #[inline]
            fn ulps_eq(&self, other: &Self, epsilon: Self, max_ulps: u32) -> bool {
                self.primal.ulps_eq(&other.primal, epsilon.primal, max_ulps)
            }
        }

        impl<$F: $($b)*, T: ScalarTangent<$F>> ComplexField for Dual<$F, T> {
            type RealField = Self;

            #[inline(always)]
            fn from_real(re: Self) -> Self {
                re
            }
            #[inline(always)]
            fn real(self) -> Self {
                self
            }
            #[inline(always)]
            fn imaginary(self) -> Self {
                Dual::new($F::zero(), T::zero())
            }
            #[inline(always)]
            fn modulus(self) -> Self {
                Float::abs(self)
            }
            #[inline(always)]
            fn modulus_squared(self) -> Self {
                self * self
            }
            #[inline(always)]
            fn argument(self) -> Self {
                // `f64::argument` is 0 for x >= 0 and π for x < 0: a constant either way.
                Dual::new(ComplexField::argument(self.primal), T::zero())
            }
            #[inline(always)]
            fn norm1(self) -> Self {
                Float::abs(self)
            }
            #[inline(always)]
            fn scale(self, factor: Self) -> Self {
                self * factor
            }
            #[inline(always)]
            fn unscale(self, factor: Self) -> Self {
                self / factor
            }
            #[inline(always)]
            fn floor(self) -> Self {
                Float::floor(self)
            }
            #[inline(always)]
            fn ceil(self) -> Self {
                Float::ceil(self)
            }
            #[inline(always)]
            fn round(self) -> Self {
                Float::round(self)
            }
            #[inline(always)]
            fn trunc(self) -> Self {
                Float::trunc(self)
            }
            #[inline(always)]
            fn fract(self) -> Self {
                Float::fract(self)
            }
            #[inline(always)]
            fn mul_add(self, a: Self, b: Self) -> Self {
                Float::mul_add(self, a, b)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                Float::abs(self)
            }
            #[inline(always)]
            fn hypot(self, other: Self) -> Self {
                Float::hypot(self, other)
            }
            #[inline(always)]
            fn recip(self) -> Self {
                Float::recip(self)
            }
            #[inline(always)]
            fn conjugate(self) -> Self {
                self
            }
            #[inline(always)]
            fn sin(self) -> Self {
                Float::sin(self)
            }
            #[inline(always)]
            fn cos(self) -> Self {
                Float::cos(self)
            }
            #[inline(always)]
            fn sin_cos(self) -> (Self, Self) {
                Float::sin_cos(self)
            }
            #[inline(always)]
            fn tan(self) -> Self {
                Float::tan(self)
            }
            #[inline(always)]
            fn asin(self) -> Self {
                Float::asin(self)
            }
            #[inline(always)]
            fn acos(self) -> Self {
                Float::acos(self)
            }
            #[inline(always)]
            fn atan(self) -> Self {
                Float::atan(self)
            }
            #[inline(always)]
            fn sinh(self) -> Self {
                Float::sinh(self)
            }
            #[inline(always)]
            fn cosh(self) -> Self {
                Float::cosh(self)
            }
            #[inline(always)]
            fn tanh(self) -> Self {
                Float::tanh(self)
            }
            #[inline(always)]
            fn asinh(self) -> Self {
                Float::asinh(self)
            }
            #[inline(always)]
            fn acosh(self) -> Self {
                Float::acosh(self)
            }
            #[inline(always)]
            fn atanh(self) -> Self {
                Float::atanh(self)
            }
            #[inline(always)]
            fn log(self, base: Self) -> Self {
                Float::log(self, base)
            }
            #[inline(always)]
            fn log2(self) -> Self {
                Float::log2(self)
            }
            #[inline(always)]
            fn log10(self) -> Self {
                Float::log10(self)
            }
            #[inline(always)]
            fn ln(self) -> Self {
                Float::ln(self)
            }
            #[inline(always)]
            fn ln_1p(self) -> Self {
                Float::ln_1p(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                Float::sqrt(self)
            }
            #[inline(always)]
            fn exp(self) -> Self {
                Float::exp(self)
            }
            #[inline(always)]
            fn exp2(self) -> Self {
                Float::exp2(self)
            }
            #[inline(always)]
            fn exp_m1(self) -> Self {
                Float::exp_m1(self)
            }
            #[inline(always)]
            fn powi(self, n: i32) -> Self {
                Float::powi(self, n)
            }
            #[inline(always)]
            fn powf(self, n: Self) -> Self {
                Float::powf(self, n)
            }
            #[inline(always)]
            fn powc(self, n: Self) -> Self {
                Float::powf(self, n)
            }
            #[inline(always)]
            fn cbrt(self) -> Self {
                Float::cbrt(self)
            }
            #[inline(always)]
            fn is_finite(&self) -> bool {
                Float::is_finite(self.primal)
            }
            #[inline(always)]
            fn try_sqrt(self) -> Option<Self> {
                (self.primal >= $F::zero()).then(|| Float::sqrt(self))
            }
        }

        impl<$F: $($b)*, T: ScalarTangent<$F>> RealField for Dual<$F, T> {
            #[inline(always)]
            fn is_sign_positive(&self) -> bool {
                Float::is_sign_positive(self.primal)
            }
            #[inline(always)]
            fn is_sign_negative(&self) -> bool {
                Float::is_sign_negative(self.primal)
            }
            #[inline(always)]
            fn copysign(self, sign: Self) -> Self {
                // |x| with the sign of `sign`: ±abs(x), whose tangent is ±abs'(x)·dx.
                if Float::is_sign_negative(sign.primal) {
                    -Float::abs(self)
                } else {
                    Float::abs(self)
                }
            }
            #[inline(always)]
            fn max(self, other: Self) -> Self {
                Float::max(self, other)
            }
            #[inline(always)]
            fn min(self, other: Self) -> Self {
                Float::min(self, other)
            }
            #[inline(always)]
            fn clamp(self, min: Self, max: Self) -> Self {
                Float::min(Float::max(self, min), max)
            }
            #[inline(always)]
            fn atan2(self, other: Self) -> Self {
                Float::atan2(self, other)
            }
            #[inline(always)]
            fn min_value() -> Option<Self> {
                Some(Float::min_value())
            }
            #[inline(always)]
            fn max_value() -> Option<Self> {
                Some(Float::max_value())
            }
            #[inline(always)]
            fn pi() -> Self {
                FloatConst::PI()
            }
            #[inline(always)]
            fn two_pi() -> Self {
                FloatConst::TAU()
            }
            #[inline(always)]
            fn frac_pi_2() -> Self {
                FloatConst::FRAC_PI_2()
            }
            #[inline(always)]
            fn frac_pi_3() -> Self {
                FloatConst::FRAC_PI_3()
            }
            #[inline(always)]
            fn frac_pi_4() -> Self {
                FloatConst::FRAC_PI_4()
            }
            #[inline(always)]
            fn frac_pi_6() -> Self {
                FloatConst::FRAC_PI_6()
            }
            #[inline(always)]
            fn frac_pi_8() -> Self {
                FloatConst::FRAC_PI_8()
            }
            #[inline(always)]
            fn frac_1_pi() -> Self {
                FloatConst::FRAC_1_PI()
            }
            #[inline(always)]
            fn frac_2_pi() -> Self {
                FloatConst::FRAC_2_PI()
            }
            #[inline(always)]
            fn frac_2_sqrt_pi() -> Self {
                FloatConst::FRAC_2_SQRT_PI()
            }
            #[inline(always)]
            fn e() -> Self {
                FloatConst::E()
            }
            #[inline(always)]
            fn log2_e() -> Self {
                FloatConst::LOG2_E()
            }
            #[inline(always)]
            fn log10_e() -> Self {
                FloatConst::LOG10_E()
            }
            #[inline(always)]
            fn ln_2() -> Self {
                FloatConst::LN_2()
            }
            #[inline(always)]
            fn ln_10() -> Self {
                FloatConst::LN_10()
            }
        }
    };
}

nalgebra_scalar!(F: Real + RealField);

// ---------------------------------------------------------------------------------------
// Fixed-size matrices in derived bodies: their tangent type, and their form over duals.
// ---------------------------------------------------------------------------------------

/// A fixed-size matrix's tangent is a matrix of the same shape: `Vector3<f64>` has tangent
/// `Vector3<f64>`, and `Vector3<S>` in mode `S` (a batch of directions per component).
/// Generic over the float type: `SVector<T, N>` in a function generic over `T: RealField`
/// has tangent `SVector<T::TangentIn<S>, N>`, which is `SVector<S, N>` at `T = f64`.
impl<F: Real, const R: usize, const C: usize> Differentiable for SMatrix<F, R, C> {
    type Tangent = SMatrix<F, R, C>;
    type TangentIn<S: Mode> = SMatrix<F::TangentIn<S>, R, C>;
}
impl<F: Real, const R: usize, const C: usize> crate::traits::UserValue for SMatrix<F, R, C> {}

/// `Dual::constant(&m)` of a borrowed matrix: the zero tangent is built by the rule's entry
/// (`RefTangent`), as for a borrowed struct of the user's.
impl<'a, F: Real, const R: usize, const C: usize> crate::constant::Constant
    for &'a SMatrix<F, R, C>
{
    type Primal = &'a SMatrix<F, R, C>;
    type Zero = crate::constant::ConstTangent;
    #[inline(always)]
    fn constant(self) -> Dual<&'a SMatrix<F, R, C>, crate::constant::ConstTangent> {
        Dual::new(self, crate::constant::ConstTangent)
    }
}

impl<F: Real, const R: usize, const C: usize> ZeroTangent for SMatrix<F, R, C> {
    #[inline(always)]
    fn zero_tangent(&self) -> SMatrix<F, R, C> {
        SMatrix::from_data(ArrayStorage([[F::zero(); R]; C]))
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> SMatrix<F::TangentIn<S>, R, C> {
        // Built from its storage: a generic float's tangent is not known to be a `Scalar`.
        SMatrix::from_data(ArrayStorage(core::array::from_fn(|_| {
            core::array::from_fn(|_| F::zero().zero_tangent_in::<S>())
        })))
    }
}

/// A matrix passed to or returned from a method called on a `dyn` trait object: its lanes
/// are its components' lanes.
impl<const R: usize, const C: usize> crate::traits::LaneValue for SMatrix<f64, R, C> {
    #[inline]
    fn lane1<S: Mode>(t: &SMatrix<S, R, C>, k: usize) -> SMatrix<f64, R, C> {
        t.map(|s| crate::traits::DynLanes::lane1(&s, k))
    }
    #[inline]
    fn lane2<S: Mode>(t: &SMatrix<S, R, C>, k: usize) -> SMatrix<crate::Hyper<f64, f64>, R, C> {
        t.map(|s| crate::traits::DynLanes::lane2(&s, k))
    }
    #[inline]
    fn set_lane1<S: Mode>(t: &mut SMatrix<S, R, C>, k: usize, v: &SMatrix<f64, R, C>) {
        for (t, v) in t.iter_mut().zip(v.iter()) {
            crate::traits::DynLanes::set_lane1(t, k, *v);
        }
    }
    #[inline]
    fn set_lane2<S: Mode>(
        t: &mut SMatrix<S, R, C>,
        k: usize,
        v: &SMatrix<crate::Hyper<f64, f64>, R, C>,
    ) {
        for (t, v) in t.iter_mut().zip(v.iter()) {
            crate::traits::DynLanes::set_lane2(t, k, *v);
        }
    }
}

pub(crate) use crate::lift::DualIn;

/// Implements `Lift` and `Unlift` for a `Copy` nalgebra type `$ty` over a float type `F`
/// (generic over `$g`, which declares `F`), whose tangent in mode `S` is `$tan` and whose form over
/// duals is `$dual`: `$zip(p, t)` pairs primal and tangent, `$constant(c)` makes constant
/// duals, `$unzip(d)` splits the dual form. Written once for `f64`, `f32` and a generic
/// float type (`SVector<T, N>` in `fn f<T: RealField>`), as `Complex<F>`'s lifts are.
macro_rules! lift_generic_float_type {
    ([$($g:tt)*] $ty:ty, $tan:ty, $dual:ty, |$p:ident, $t:ident| $zip:expr, |$c:ident| $constant:expr, |$d:ident| $unzip:expr) => {
        impl<S: Mode, $($g)*> crate::lift::Unlift<S> for $dual
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = Dual<$ty, $tan>;
            #[inline(always)]
            fn unlift(self) -> Dual<$ty, $tan> {
                let $d = self;
                $unzip
            }
        }
        impl<S: Mode, $($g)*> crate::lift::Unlift<S> for &$dual
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = Dual<$ty, $tan>;
            #[inline(always)]
            fn unlift(self) -> Dual<$ty, $tan> {
                let $d = *self;
                $unzip
            }
        }
        /// A constant.
        impl<S: Mode, $($g)*> crate::lift::Lift<S> for $ty
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let $c = self;
                $constant
            }
        }
        /// A constant.
        impl<S: Mode, $($g)*> crate::lift::Lift<S> for &$ty
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let $c = *self;
                $constant
            }
        }
        impl<S: Mode, $($g)*> crate::lift::Lift<S> for $dual
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                self
            }
        }
        impl<'r, S: Mode, $($g)*> crate::lift::Lift<S> for &'r $dual
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = &'r $dual;
            #[inline(always)]
            fn lift(self) -> &'r $dual {
                self
            }
        }
        /// A parameter taken by value.
        impl<S: Mode, $($g)*> crate::lift::Lift<S> for Dual<$ty, $tan>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let ($p, $t) = (self.primal, self.tangent);
                $zip
            }
        }
        /// A parameter taken by reference.
        impl<'a, S: Mode, $($g)*> crate::lift::Lift<S> for Dual<&'a $ty, &'a $tan>
        where
            F::TangentIn<S>: ScalarTangent<F>,
        {
            type Output = $dual;
            #[inline(always)]
            fn lift(self) -> $dual {
                let ($p, $t) = (*self.primal, *self.tangent);
                $zip
            }
        }
    };
}
pub(crate) use lift_generic_float_type;

lift_generic_float_type!(
    [F: Real, const R: usize, const C: usize]
    SMatrix<F, R, C>,
    SMatrix<F::TangentIn<S>, R, C>,
    SMatrix<DualIn<F, S>, R, C>,
    |p, t| p.zip_map(&t, Dual::new),
    |c| c.map(|x| Dual::new(x, x.zero_tangent_in::<S>())),
    |d| Dual::new(d.map(|x| x.primal), d.map(|x| x.tangent))
);

/// `k * m` with a dual scalar on the left, as `m * k` (nalgebra defines the left product
/// for its primitive scalars only).
impl<F, T, R, C, St> Mul<Matrix<Dual<F, T>, R, C, St>> for Dual<F, T>
where
    F: Real,
    T: ScalarTangent<F>,
    R: Dim,
    C: Dim,
    St: Storage<Dual<F, T>, R, C>,
    DefaultAllocator: Allocator<R, C>,
{
    type Output = OMatrix<Dual<F, T>, R, C>;
    #[inline]
    fn mul(self, m: Matrix<Dual<F, T>, R, C, St>) -> Self::Output {
        m * self
    }
}

/// `k * &m`.
impl<'m, F, T, R, C, St> Mul<&'m Matrix<Dual<F, T>, R, C, St>> for Dual<F, T>
where
    F: Real,
    T: ScalarTangent<F>,
    R: Dim,
    C: Dim,
    St: Storage<Dual<F, T>, R, C>,
    DefaultAllocator: Allocator<R, C>,
{
    type Output = OMatrix<Dual<F, T>, R, C>;
    #[inline]
    fn mul(self, m: &'m Matrix<Dual<F, T>, R, C, St>) -> Self::Output {
        m * self
    }
}

/// A constant Cholesky factorisation (of a matrix the body does not differentiate, such
/// as an `inactive` covariance) solving for an active right-hand side: the same
/// factorisation without `dA` (see [`crate::nalgebra_linalg`]), so that `chol.solve(&b)`
/// substitutes only the tangents of `b` through the `f64` factor (`dx = L⁻ᵀ L⁻¹ db`).
impl<S: Mode, D: Dim> crate::lift::Lift<S> for nalgebra::Cholesky<f64, D>
where
    DefaultAllocator: Allocator<D, D>,
{
    type Output = crate::nalgebra_linalg::DualCholesky<S, D>;
    #[inline(always)]
    fn lift(self) -> Self::Output {
        crate::nalgebra_linalg::DualCholesky {
            chol: self,
            a: None,
            mode: core::marker::PhantomData,
        }
    }
}

/// [`Lift`](crate::lift::Lift) of a borrowed constant Cholesky factorisation.
impl<S: Mode, D: Dim> crate::lift::Lift<S> for &nalgebra::Cholesky<f64, D>
where
    DefaultAllocator: Allocator<D, D>,
{
    type Output = crate::nalgebra_linalg::DualCholesky<S, D>;
    #[inline(always)]
    fn lift(self) -> Self::Output {
        crate::nalgebra_linalg::DualCholesky {
            chol: self.clone(),
            a: None,
            mode: core::marker::PhantomData,
        }
    }
}

/// A constant LU factorisation solving for an active right-hand side, as a constant
/// Cholesky factorisation (`dx = U⁻¹ L⁻¹ P db`).
impl<S: Mode, D: nalgebra::DimMin<D, Output = D>> crate::lift::Lift<S> for nalgebra::LU<f64, D, D>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    type Output = crate::nalgebra_linalg::DualLu<S, D>;
    #[inline(always)]
    fn lift(self) -> Self::Output {
        crate::nalgebra_linalg::DualLu::new(self, None)
    }
}

/// A constant QR factorisation solving for an active right-hand side (`dx = R⁻¹ Qᵀ db`).
impl<S: Mode, D: nalgebra::DimMin<D, Output = D>> crate::lift::Lift<S> for nalgebra::QR<f64, D, D>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    type Output = crate::nalgebra_linalg::DualQr<S, D>;
    #[inline(always)]
    fn lift(self) -> Self::Output {
        crate::nalgebra_linalg::DualQr::new(self)
    }
}

/// [`Lift`](crate::lift::Lift) of a borrowed constant QR factorisation.
impl<S: Mode, D: nalgebra::DimMin<D, Output = D>> crate::lift::Lift<S> for &nalgebra::QR<f64, D, D>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    type Output = crate::nalgebra_linalg::DualQr<S, D>;
    #[inline(always)]
    fn lift(self) -> Self::Output {
        crate::nalgebra_linalg::DualQr::new(self.clone())
    }
}

/// [`Lift`](crate::lift::Lift) of a borrowed constant LU factorisation.
impl<S: Mode, D: nalgebra::DimMin<D, Output = D>> crate::lift::Lift<S> for &nalgebra::LU<f64, D, D>
where
    DefaultAllocator: Allocator<D, D> + Allocator<D>,
{
    type Output = crate::nalgebra_linalg::DualLu<S, D>;
    #[inline(always)]
    fn lift(self) -> Self::Output {
        crate::nalgebra_linalg::DualLu::new(self.clone(), None)
    }
}

/// A constant SVD (of a matrix built from constants) used with active data (`svd.solve(&b,
/// eps)` for an active `b`, `svd.u`): its factors over constant duals, for nalgebra's own
/// code over duals.
impl<S: Mode, R: nalgebra::DimMin<C>, C: Dim> crate::lift::Lift<S> for nalgebra::SVD<f64, R, C>
where
    DefaultAllocator: Allocator<R, nalgebra::DimMinimum<R, C>>
        + Allocator<nalgebra::DimMinimum<R, C>, C>
        + Allocator<nalgebra::DimMinimum<R, C>>,
{
    type Output = nalgebra::SVD<Dual<f64, S>, R, C>;
    fn lift(self) -> Self::Output {
        let c = |x: f64| Dual::new(x, S::zero());
        nalgebra::SVD {
            u: self.u.map(|u| u.map(c)),
            v_t: self.v_t.map(|v| v.map(c)),
            singular_values: self.singular_values.map(c),
        }
    }
}

/// [`Lift`](crate::lift::Lift) of a borrowed constant SVD.
impl<S: Mode, R: nalgebra::DimMin<C>, C: Dim> crate::lift::Lift<S> for &nalgebra::SVD<f64, R, C>
where
    DefaultAllocator: Allocator<R, nalgebra::DimMinimum<R, C>>
        + Allocator<nalgebra::DimMinimum<R, C>, C>
        + Allocator<nalgebra::DimMinimum<R, C>>,
{
    type Output = nalgebra::SVD<Dual<f64, S>, R, C>;
    fn lift(self) -> Self::Output {
        crate::lift::Lift::<S>::lift(self.clone())
    }
}

/// The methods simba's `ComplexField` gives a real scalar (`modulus`, `argument`,
/// `conjugate`, `real`, `imaginary`, ...), as rules a derived body calls on a float.
///
/// In a function generic over `T: ComplexField` (nalgebra's scalar-generic code) the rule
/// runs at the real float types, where these are real formulas: `x.modulus()` is `|x|`,
/// `x.argument()` is 0 or π (a constant), `x.conjugate()` and `x.real()` are `x`,
/// `x.imaginary()` is 0. A derived body dispatches `x.modulus()` on a float as a method of
/// a trait implemented for floats (`x.modulus_forward_rule()`), which [`FieldRules`] is,
/// in scope in every rule with the feature. Each rule is the dual's `Float` arithmetic
/// (`abs`, `*`, `/`: the rules every derived body calls, no second copy of a derivative)
/// or a constant, its primal simba's formula for the float, bit for bit. Over any `F:
/// Real`, not only `RealField`: the rule of a function over `T: ComplexField` knows `T:
/// Real` only.
pub mod complex_field {
    use super::*;
    use crate::frule::Frule;

    /// A method of `ComplexField` on a real scalar of type `F`, as a rule marker (`F`
    /// fixes the rule's argument types, which the call infers from it).
    #[derive(Clone, Copy, Debug)]
    pub struct Method<const M: u8, F: ?Sized>(core::marker::PhantomData<fn() -> *const F>);

    /// The dual a receiver `x` of type `F` is passed as.
    type Recv<'a, F, S> = Dual<&'a F, &'a <F as Differentiable>::TangentIn<S>>;
    /// An owned scalar dual of `F` in mode `S`.
    type Scalar<F, S> = Dual<F, <F as Differentiable>::TangentIn<S>>;

    macro_rules! field_methods {
        ($(($m:ident, $id:literal, |$z:ident $(, $a:ident)*| -> $out:ty { $($body:tt)* })),* $(,)?) => {
            /// The dispatch generated code calls on a real scalar primal (`f64`, `f32`, a
            /// function's `T: ComplexField`).
            pub trait FieldRules {
                $(
                    #[doc(hidden)]
                    fn $m(self: &&Self) -> Method<$id, Self>;
                )*
            }
            impl<F: Real> FieldRules for F {
                $(
                    #[inline(always)]
                    fn $m(self: &&Self) -> Method<$id, Self> {
                        Method(core::marker::PhantomData)
                    }
                )*
            }
            $(
                impl<'a, F: Real, S: Mode> Frule<(Recv<'a, F, S>, $(field_methods!(@arg $a F S),)*), S> for Method<$id, F>
                where
                    <F as Differentiable>::TangentIn<S>: ScalarTangent<F>,
                {
                    type Output = $out;
                    #[inline(always)]
                    fn frule(&self, (z, $($a,)*): (Recv<'a, F, S>, $(field_methods!(@arg $a F S),)*)) -> $out {
                        let $z: Scalar<F, S> = Dual::new(*z.primal, z.tangent.clone());
                        $($body)*
                    }
                }
            )*
        };
        (@arg $a:ident $F:ident $S:ident) => { Scalar<$F, $S> };
    }

    field_methods!(
        (modulus_forward_rule, 0, |z| -> Scalar<F, S> {
            Float::abs(z)
        }),
        (modulus_squared_forward_rule, 1, |z| -> Scalar<F, S> {
            z * z
        }),
        (argument_forward_rule, 2, |z| -> Scalar<F, S> {
            argument::<F, S>(z)
        }),
        (norm1_forward_rule, 3, |z| -> Scalar<F, S> { Float::abs(z) }),
        (conjugate_forward_rule, 4, |z| -> Scalar<F, S> { z }),
        (real_forward_rule, 5, |z| -> Scalar<F, S> { z }),
        (imaginary_forward_rule, 6, |z| -> Scalar<F, S> {
            let _ = z;
            Dual::new(F::zero(), zero::<F, S>())
        }),
        (scale_forward_rule, 7, |z, k| -> Scalar<F, S> { z * k }),
        (unscale_forward_rule, 8, |z, k| -> Scalar<F, S> { z / k }),
        (
            to_polar_forward_rule,
            9,
            |z| -> Dual<
                (F, F),
                (
                    <F as Differentiable>::TangentIn<S>,
                    <F as Differentiable>::TangentIn<S>
                ),
            > { pair((Float::abs(z), argument::<F, S>(z))) }
        ),
        (
            to_exp_forward_rule,
            10,
            |z| -> Dual<
                (F, F),
                (
                    <F as Differentiable>::TangentIn<S>,
                    <F as Differentiable>::TangentIn<S>
                ),
            > {
                // As `f64`'s: `(x, 1)` for `x >= 0`, `(-x, -1)` below, the sign a constant.
                match z.primal >= F::zero() {
                    true => pair((z, Dual::new(F::one(), zero::<F, S>()))),
                    false => pair((-z, Dual::new(-F::one(), zero::<F, S>()))),
                }
            }
        ),
    );

    /// The zero tangent of `F` in mode `S`.
    #[inline(always)]
    fn zero<F: Real, S: Mode>() -> <F as Differentiable>::TangentIn<S>
    where
        <F as Differentiable>::TangentIn<S>: ScalarTangent<F>,
    {
        <<F as Differentiable>::TangentIn<S> as ScalarTangent<F>>::zero()
    }

    /// `f64`'s `argument`: 0 for `x >= 0`, π below (NaN: π), a constant either way.
    #[inline(always)]
    fn argument<F: Real, S: Mode>(z: Scalar<F, S>) -> Scalar<F, S>
    where
        <F as Differentiable>::TangentIn<S>: ScalarTangent<F>,
    {
        let a = match z.primal >= F::zero() {
            true => F::zero(),
            false => F::PI(),
        };
        Dual::new(a, zero::<F, S>())
    }

    /// A pair of scalar duals as the dual of the pair.
    #[inline(always)]
    fn pair<F: Differentiable, T>((a, b): (Dual<F, T>, Dual<F, T>)) -> Dual<(F, F), (T, T)> {
        Dual::new((a.primal, b.primal), (a.tangent, b.tangent))
    }
}
