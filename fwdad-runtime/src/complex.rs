//! `num_complex::Complex<f64>` in derived bodies (feature `num-complex`).
//!
//! num-complex is generic over its scalar (`Complex<T>` with `T: Clone + Num` for the
//! arithmetic, `T: Float` for `exp`, `norm`, `arg`, `from_polar`, ...), and a scalar dual
//! is a `Float` ([`crate::num`]). So an active complex value in a `#[derive_frule]` body is
//! a `Complex<Dual<f64, S>>`, and num-complex's own code computes its tangents. This
//! module gives `Complex<f64>` its tangent type (`Complex<f64>`; `Complex<S>` in mode
//! `S`), its [`lift`](crate::lift) into that form, and the arithmetic with a dual scalar
//! on the left (`k * z`, `k / z`, `k + z`, `k - z`), which num-complex defines for its
//! primitive scalars only.
//!
//! ```
//! use fwdad_runtime::Dual;
//! use num_complex::Complex;
//!
//! // d/dω |1 / (1 + iω)| = −ω / (1 + ω²)^{3/2}
//! let w: Dual<f64> = Dual::new(2.0, 1.0);
//! let one: Dual<f64> = Dual::constant(1.0);
//! let h = one / Complex::new(one, w);
//! let m = h.norm();
//! assert!((m.primal - 1.0 / 5f64.sqrt()).abs() < 1e-15);
//! assert!((m.tangent + 2.0 / 5f64.powf(1.5)).abs() < 1e-15);
//! ```

use crate::differentiable::{Differentiable, ZeroTangent};
use crate::dual::Dual;
use crate::lift::{Lift, Unlift};
use crate::real::Real;
use crate::tangent::{Mode, ScalarTangent};
use core::ops::{Add, Div, Mul, Sub};
/// The generic type, for `Complex64::new(..)` with dual arguments in a rule.
pub use num_complex::Complex;

// Generic over the float type (`Complex<f64>`, `Complex<f32>`, and `Complex<T>` in a
// function generic over `T: Float`, whose rule has `T` a float type).
impl<F: Real> Differentiable for Complex<F> {
    type Tangent = Complex<F>;
    type TangentIn<S: Mode> = Complex<F::TangentIn<S>>;
}
impl<F: Real> crate::traits::UserValue for Complex<F> {}

/// Through a `dyn` call: the parts' lanes.
impl<F: Real + crate::traits::LaneValue> crate::traits::LaneValue for Complex<F> {
    #[inline]
    fn lane1<S: Mode>(t: &Complex<F::TangentIn<S>>, k: usize) -> Complex<F::TangentIn<f64>> {
        Complex::new(F::lane1::<S>(&t.re, k), F::lane1::<S>(&t.im, k))
    }
    #[inline]
    fn lane2<S: Mode>(
        t: &Complex<F::TangentIn<S>>,
        k: usize,
    ) -> Complex<F::TangentIn<crate::Hyper<f64, f64>>> {
        Complex::new(F::lane2::<S>(&t.re, k), F::lane2::<S>(&t.im, k))
    }
    #[inline]
    fn set_lane1<S: Mode>(
        t: &mut Complex<F::TangentIn<S>>,
        k: usize,
        v: &Complex<F::TangentIn<f64>>,
    ) {
        F::set_lane1::<S>(&mut t.re, k, &v.re);
        F::set_lane1::<S>(&mut t.im, k, &v.im);
    }
    #[inline]
    fn set_lane2<S: Mode>(
        t: &mut Complex<F::TangentIn<S>>,
        k: usize,
        v: &Complex<F::TangentIn<crate::Hyper<f64, f64>>>,
    ) {
        F::set_lane2::<S>(&mut t.re, k, &v.re);
        F::set_lane2::<S>(&mut t.im, k, &v.im);
    }
}

impl<F: Real> ZeroTangent for Complex<F> {
    #[inline(always)]
    fn zero_tangent(&self) -> Complex<F> {
        Complex::new(F::zero(), F::zero())
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> Complex<F::TangentIn<S>> {
        Complex::new(
            self.re.zero_tangent_in::<S>(),
            self.im.zero_tangent_in::<S>(),
        )
    }
}

/// `Complex<F>` over duals in mode `S`.
type DualComplex<F, S> = Complex<Dual<F, <F as Differentiable>::TangentIn<S>>>;

impl<S: Mode, F: Real> Unlift<S> for DualComplex<F, S> {
    type Output = Dual<Complex<F>, Complex<F::TangentIn<S>>>;
    #[inline(always)]
    fn unlift(self) -> Self::Output {
        Dual::new(
            Complex::new(self.re.primal, self.im.primal),
            Complex::new(self.re.tangent, self.im.tangent),
        )
    }
}
impl<S: Mode, F: Real> Unlift<S> for &DualComplex<F, S>
where
    F::TangentIn<S>: Copy,
{
    type Output = Dual<Complex<F>, Complex<F::TangentIn<S>>>;
    #[inline(always)]
    fn unlift(self) -> Self::Output {
        Unlift::<S>::unlift(*self)
    }
}
/// A constant.
impl<S: Mode, F: Real> Lift<S> for Complex<F> {
    type Output = DualComplex<F, S>;
    #[inline(always)]
    fn lift(self) -> DualComplex<F, S> {
        Complex::new(Lift::<S>::lift(self.re), Lift::<S>::lift(self.im))
    }
}
/// A constant.
impl<S: Mode, F: Real> Lift<S> for &Complex<F> {
    type Output = DualComplex<F, S>;
    #[inline(always)]
    fn lift(self) -> DualComplex<F, S> {
        Lift::<S>::lift(*self)
    }
}
impl<S: Mode, F: Real> Lift<S> for DualComplex<F, S> {
    type Output = Self;
    #[inline(always)]
    fn lift(self) -> Self {
        self
    }
}
impl<'r, S: Mode, F: Real> Lift<S> for &'r DualComplex<F, S> {
    type Output = &'r DualComplex<F, S>;
    #[inline(always)]
    fn lift(self) -> &'r DualComplex<F, S> {
        self
    }
}
/// A parameter taken by value.
impl<S: Mode, F: Real> Lift<S> for Dual<Complex<F>, Complex<F::TangentIn<S>>> {
    type Output = DualComplex<F, S>;
    #[inline(always)]
    fn lift(self) -> DualComplex<F, S> {
        let (p, t) = (self.primal, self.tangent);
        Complex::new(Dual::new(p.re, t.re), Dual::new(p.im, t.im))
    }
}
/// A parameter taken by reference.
impl<'a, S: Mode, F: Real> Lift<S> for Dual<&'a Complex<F>, &'a Complex<F::TangentIn<S>>>
where
    F::TangentIn<S>: Copy,
{
    type Output = DualComplex<F, S>;
    #[inline(always)]
    fn lift(self) -> DualComplex<F, S> {
        let (p, t) = (*self.primal, *self.tangent);
        Complex::new(Dual::new(p.re, t.re), Dual::new(p.im, t.im))
    }
}

macro_rules! scalar_left {
    ($Op:ident $op:ident) => {
        /// A dual scalar on the left of a complex dual, as num-complex's `f64 ∘ Complex<f64>`.
        impl<F: Real, T: ScalarTangent<F>> $Op<Complex<Dual<F, T>>> for Dual<F, T> {
            type Output = Complex<Dual<F, T>>;
            #[inline(always)]
            fn $op(self, z: Complex<Dual<F, T>>) -> Complex<Dual<F, T>> {
                Complex::new(self, Dual::new(F::zero(), T::zero())).$op(z)
            }
        }
    };
}
scalar_left!(Add add);
scalar_left!(Sub sub);
scalar_left!(Mul mul);
scalar_left!(Div div);

/// The methods of a `Complex<f64>` whose form the macro cannot see (the result of a
/// derived function, an element of a `Vec<Complex<f64>>`, a field of a struct), which a
/// rule calls as a user type's (`(&z.primal).norm_forward_rule()`): each is num-complex's
/// own method on the value over duals, taken from and returned to the dual of the whole
/// value. Brought into scope by every rule with the feature.
#[doc(hidden)]
pub mod methods {
    use super::*;
    use crate::frule::Frule;

    /// A method of `Complex<f64>` as a rule marker.
    #[derive(Clone, Copy, Debug)]
    pub struct Method<const M: u8>;

    macro_rules! complex_methods {
        ($(($m:ident, $id:literal, |$z:ident $(, $a:ident: $A:ty)*| $body:expr)),* $(,)?) => {
            /// The dispatch generated code calls on a `Complex<f64>` primal.
            pub trait ComplexRules {
                $(
                    #[doc(hidden)]
                    fn $m(&self) -> Method<$id>;
                )*
            }
            impl ComplexRules for Complex<f64> {
                $(
                    #[inline(always)]
                    fn $m(&self) -> Method<$id> {
                        Method
                    }
                )*
            }
            $(
                impl<'a, S: Mode> Frule<(Dual<&'a Complex<f64>, &'a Complex<S>>, $(Dual<$A, S>,)*), S> for Method<$id> {
                    type Output = <ResultOf<S> as Pick<$id>>::Out;
                    #[inline(always)]
                    #[allow(unused_parens)]
                    fn frule(&self, (z, $($a,)*): (Dual<&'a Complex<f64>, &'a Complex<S>>, $(Dual<$A, S>,)*)) -> Self::Output {
                        let $z: Complex<Dual<f64, S>> = Lift::<S>::lift(z);
                        Unlift::<S>::unlift($body)
                    }
                }
            )*
        };
    }

    /// The result type of each method (a scalar or a complex dual), by its number.
    pub struct ResultOf<S>(core::marker::PhantomData<S>);
    /// See [`ResultOf`].
    pub trait Pick<const M: u8> {
        /// The dual of the result.
        type Out;
    }
    macro_rules! picks {
        ($($id:literal => $out:ident),*) => {$(
            impl<S: Mode> Pick<$id> for ResultOf<S> {
                type Out = picks!(@ $out S);
            }
        )*};
        (@ scalar $S:ident) => { Dual<f64, $S> };
        (@ complex $S:ident) => { Dual<Complex<f64>, Complex<$S>> };
    }
    picks!(0 => scalar, 1 => scalar, 2 => scalar, 3 => scalar, 4 => complex, 5 => complex,
        6 => complex, 7 => complex, 8 => complex, 9 => complex, 10 => complex, 11 => complex);

    complex_methods!(
        (norm_forward_rule, 0, |z| z.norm()),
        (norm_sqr_forward_rule, 1, |z| z.norm_sqr()),
        (arg_forward_rule, 2, |z| z.arg()),
        (l1_norm_forward_rule, 3, |z| z.l1_norm()),
        (conj_forward_rule, 4, |z| z.conj()),
        (exp_forward_rule, 5, |z| z.exp()),
        (ln_forward_rule, 6, |z| z.ln()),
        (sqrt_forward_rule, 7, |z| z.sqrt()),
        (inv_forward_rule, 8, |z| z.inv()),
        (powf_forward_rule, 9, |z, p: f64| z.powf(p)),
        (scale_forward_rule, 10, |z, k: f64| z.scale(k)),
        (unscale_forward_rule, 11, |z, k: f64| z.unscale(k)),
    );
}
