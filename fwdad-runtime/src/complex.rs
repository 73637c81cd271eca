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
use crate::tangent::{Mode, ScalarTangent};
use core::ops::{Add, Div, Mul, Sub};
/// The generic type, for `Complex64::new(..)` with dual arguments in a rule.
pub use num_complex::Complex;

impl Differentiable for Complex<f64> {
    type Tangent = Complex<f64>;
    type TangentIn<S: Mode> = Complex<S>;
}
impl crate::traits::UserValue for Complex<f64> {}

impl ZeroTangent for Complex<f64> {
    #[inline(always)]
    fn zero_tangent(&self) -> Complex<f64> {
        Complex::new(0.0, 0.0)
    }
    #[inline(always)]
    fn zero_tangent_in<S: Mode>(&self) -> Complex<S> {
        Complex::new(S::zero(), S::zero())
    }
}

crate::lift::lift_library_type!(
    []
    Complex<f64>,
    Complex<S>,
    Complex<Dual<f64, S>>,
    |p, t| Complex::new(Dual::new(p.re, t.re), Dual::new(p.im, t.im)),
    |c| Complex::new(Dual::new(c.re, S::zero()), Dual::new(c.im, S::zero())),
    |d| Dual::new(
        Complex::new(d.re.primal, d.im.primal),
        Complex::new(d.re.tangent, d.im.tangent)
    )
);

macro_rules! scalar_left {
    ($Op:ident $op:ident) => {
        /// A dual scalar on the left of a complex dual, as num-complex's `f64 ∘ Complex<f64>`.
        impl<T: ScalarTangent<f64>> $Op<Complex<Dual<f64, T>>> for Dual<f64, T> {
            type Output = Complex<Dual<f64, T>>;
            #[inline(always)]
            fn $op(self, z: Complex<Dual<f64, T>>) -> Complex<Dual<f64, T>> {
                Complex::new(self, Dual::new(0.0, T::zero())).$op(z)
            }
        }
    };
}
scalar_left!(Add add);
scalar_left!(Sub sub);
scalar_left!(Mul mul);
scalar_left!(Div div);
