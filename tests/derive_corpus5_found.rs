//! Constructs the fifth verbatim corpus (`tests/biquad_verbatim.rs`) found, each in a small
//! program written the way biquad 0.6.0 writes it, against closed forms, primals bit for
//! bit: a constructor taking `hz: impl Into<T>` that converts it into a local of the same
//! name (`let hz = hz.into();`, biquad's `Hertz::from_hz`), which had no rule ("no rule for
//! the method `into`"); and a type parameter bounded by num_traits' `ConstZero` or
//! `ConstOne` (biquad's `impl<C, T> DirectForm1<C, T> where T: ConstZero`), which was read
//! as a trait of the user's without rules; a `NonZeroU32` parameter (gauss-quad's rules
//! hold their degree as one), which had no tangent type and could not be bound.

use fwdad::prelude::*;
use num_traits::{ConstOne, ConstZero, Float};
use std::ops::{Add, Mul};

#[derive(Debug, PartialEq)]
pub enum FreqError {
    NotPositive,
}

/// A frequency in hertz, as biquad's `Hertz<T: Float>(T)`.
#[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
pub struct Freq<T: Float>(T);

#[derive_frule]
impl<T: Float> Freq<T> {
    pub fn from_hz(hz: impl Into<T>) -> Result<Self, FreqError> {
        let hz = hz.into();
        if hz > T::zero() {
            Ok(Freq(hz))
        } else {
            Err(FreqError::NotPositive)
        }
    }

    /// The conversion shadowed, then the new local read and shadowed again.
    pub fn from_period(dt: impl Into<T>) -> Result<Self, FreqError> {
        let dt = dt.into();
        let dt = dt.abs();
        if dt > T::zero() {
            Ok(Freq(T::one() / dt))
        } else {
            Err(FreqError::NotPositive)
        }
    }

    pub fn hz(self) -> T {
        self.0
    }
}

/// `ω = 2π f`, of a frequency made from `f` and from its period `1 / f`.
#[derive_frule]
fn angular(f: f64) -> f64 {
    let a = Freq::<f64>::from_hz(f).unwrap();
    let b = Freq::<f64>::from_period(1.0 / f).unwrap();
    std::f64::consts::PI * (a.hz() + b.hz())
}

#[test]
fn shadowed_into_of_a_constructor_argument() {
    for f in [0.5, 3.0, 440.0] {
        let (w, d) = derivative(angular {}, f);
        assert_eq!(w.to_bits(), angular(f).to_bits());
        // `1 / (1 / f)` is `f` to within an ulp: the derivative is 2π to within rounding.
        assert!(
            (d - 2.0 * std::f64::consts::PI).abs() < 1e-12,
            "{d} against 2π"
        );
    }
    assert_eq!(Freq::<f64>::from_hz(-1.0), Err(FreqError::NotPositive));
}

/// A running sum and product over a slice of samples, generic over a sample type with
/// `ConstZero` and `ConstOne` as biquad's filter state is.
#[derive_frule]
fn sum_and_product<T>(xs: &[T]) -> (T, T)
where
    T: Copy + Add<T, Output = T> + Mul<T, Output = T> + ConstZero + ConstOne,
{
    let (mut s, mut p) = (T::ZERO, T::ONE);
    for &x in xs {
        s = s + x;
        p = p * x;
    }
    (s, p)
}

#[derive_frule]
fn moments(x: &[f64]) -> f64 {
    let (s, p) = sum_and_product(x);
    s * s + p
}

#[test]
fn const_zero_and_const_one_bounds_read_as_a_float_type() {
    let x = [0.5, -2.0, 3.0];
    let (v, g) = gradient(moments {}, &x);
    assert_eq!(v.to_bits(), moments(&x).to_bits());
    // ∂/∂xᵢ (Σx)² + Πx = 2 Σx + Π_{j≠i} xⱼ.
    let s: f64 = x.iter().sum();
    let want = [
        2.0 * s + x[1] * x[2],
        2.0 * s + x[0] * x[2],
        2.0 * s + x[0] * x[1],
    ];
    assert_eq!(g, want);
}

/// The trapezoid rule on `n` panels, its panel count a `NonZeroU32` as gauss-quad holds its
/// degree.
#[derive_frule]
fn trapezoid(k: f64, n: std::num::NonZeroU32) -> f64 {
    let panels = n.get();
    let h = 1.0 / f64::from(panels);
    let mut sum = 0.5 * ((0.0 * k).exp() + k.exp());
    for i in 1..panels {
        sum += (f64::from(i) * h * k).exp();
    }
    sum * h
}

#[test]
fn non_zero_count_parameter() {
    let n = std::num::NonZeroU32::new(8).unwrap();
    let (v, d) = derivative(bind(trapezoid {}, (Wrt, n)), 1.5);
    assert_eq!(v.to_bits(), trapezoid(1.5, n).to_bits());
    // d/dk of the rule is the same rule on x e^{kx}.
    let h = 1.0 / 8.0;
    let mut want = 0.5 * 1.5f64.exp();
    for i in 1..8 {
        let x = f64::from(i) * h;
        want += x * (x * 1.5).exp();
    }
    want *= h;
    assert!((d - want).abs() < 1e-13, "{d} against {want}");
}
