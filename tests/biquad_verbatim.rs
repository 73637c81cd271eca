//! biquad 0.6.0 (MIT OR Apache-2.0, Copyright (c) 2018 Emil Fresk,
//! <https://github.com/korken89/biquad-rs>): second order IIR filters, their coefficients
//! generic over `C: Float` (the Audio EQ Cookbook's ten filter types, three carrying a gain
//! in dB in the generic enum `Type<DBGain>`, returned in a `Result`), frequencies as the
//! tuple struct `Hertz<T: Float>(T)` built from `hz: impl Into<T>`, and the filters
//! `DirectForm1<C, T = C>` and `DirectForm2Transposed<C, T = C>`, whose sample type `T` is
//! bounded by `Add`, `Sub`, `Zero` and `ConstZero`, run by the generic trait
//! `Biquad<C, T = C>`'s `run(&mut self, input: T) -> T`. The crate's `src/lib.rs` is copied
//! here as this file's root, its two modules inline (`pub mod coefficients { .. }`,
//! `pub mod frequency { .. }`, which `rustfmt` skips to leave them as the crate formats
//! them), with `#[fwdad::derive_frule]` on `impl<C> Coefficients<C> where C: Float` and on
//! `impl<T: Float> Hertz<T>` and on the filters' `impl<C, T> DirectForm1<C, T>` and
//! `DirectForm2Transposed` (their `const fn new`, whose sample type `T` appears only in
//! `Self`), and `fwdad::Differentiable` added to the derive lists of
//! `Coefficients`, `Type`, `Hertz`, `DirectForm1` and `DirectForm2Transposed`; left out:
//! `#![no_std]` and the crate's tests.
//!
//! Left plain, each an entry of `docs/limits.md`: the trait `Biquad<C, T = C>` and its two
//! `impl`s (a generic trait); the blanket
//! `impl<T: Float, X: NumCast> ToHertz<T> for X` (`1.khz()` of a constant works in derived
//! bodies, `f.hz()` of a differentiated `f` has no rule: write `Hertz::from_hz(f)`). The
//! checks therefore run the two filters' recursions as `run` writes them, and compare them
//! bit for bit with the published crate's `run`.
//!
//! Checked: every filter type's coefficients (`jacobian`, one direction) against central
//! differences of the published crate, the first-order lowpass, a peaking filter's gain
//! at its centre (and its Hessian) and a notch against closed forms, a lowpass in hertz
//! through `Hertz` and `from_params`, a peaking filter run in every mode (its derivative
//! along the samples against the published filter's impulse response), a band from its two
//! edges, the `Err` arms, and the `f32` coefficients; every primal bit for bit against the
//! published crate.

mod common;

// ---- biquad 0.6.0, src/lib.rs (its crate documentation is kept as comments) ----

// # biquad
//
// `biquad` is a library for creating second order IIR filters for signal processing based on
// [Biquads](https://en.wikipedia.org/wiki/Digital_biquad_filter). Both a
// Direct Form 1 (DF1) and Direct Form 2 Transposed (DF2T) implementation is
// available, where the DF1 is better used when the filter needs retuning
// online, as it has the property to introduce minimal artifacts under retuning,
// while the DF2T is best used for static filters as it has the least
// computational complexity and best numerical stability.
//
// # Examples
//
// ```
// use biquad::*;
//
// // Cutoff and sampling frequencies
// let f0 = 10.hz();
// let fs = 1.khz();
//
// // Create coefficients for the biquads
// let coeffs = Coefficients::<f32>::from_params(Type::LowPass, fs, f0, Q_BUTTERWORTH_F32).unwrap();
//
// // Create two different biquads
// let mut biquad1 = DirectForm1::<f32>::new(coeffs);
// let mut biquad2 = DirectForm2Transposed::<f32>::new(coeffs);
//
// let input_vec = vec![0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
// let mut output_vec1 = Vec::new();
// let mut output_vec2 = Vec::new();
//
// // Run for all the inputs
// for elem in input_vec {
//     output_vec1.push(biquad1.run(elem));
//     output_vec2.push(biquad2.run(elem));
// }
// ```
//
// # Errors
//
// `Coefficients::from_params(...)` can error if the cutoff frequency does not adhere to the
// [Nyquist Frequency](https://en.wikipedia.org/wiki/Nyquist_frequency), or if the Q value is
// negative.
//
// `Hertz::from_hz(...)` and `Hertz::from_dt(...)` will error if the frequency is negative.
//
// # Panics
//
// `x.hz()`, `x.khz()`, `x.mhz()`, `x.dt()` will panic for `f32`/`f64` if they are negative.
//

// #![no_std] (crate-level, left out)

use core::ops::{Add, Mul, Sub};

use num_traits::ConstZero;
use num_traits::Zero;

pub use crate::coefficients::*;
pub use crate::frequency::*;

/// The required functions of a biquad implementation
pub trait Biquad<C, T = C> {
    /// A single iteration of a biquad, applying the filtering on the input
    fn run(&mut self, input: T) -> T;

    /// Updating of coefficients
    fn update_coefficients(&mut self, new_coefficients: Coefficients<C>);

    /// Updating coefficients and returning the old ones. This is useful to avoid deallocating on the audio thread, since
    /// the `Coefficients` can then be sent to another thread for deallocation.
    fn replace_coefficients(&mut self, new_coefficients: Coefficients<C>) -> Coefficients<C>;

    /// Set the internal state of the biquad to 0 without allocation.
    fn reset_state(&mut self);
}

/// Possible errors
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Errors {
    OutsideNyquist,
    NegativeQ,
    NegativeFrequency,
}

/// Internal states and coefficients of the Direct Form 1 form
#[derive(Copy, Clone, Debug, fwdad::Differentiable)]
pub struct DirectForm1<C, T = C> {
    y1: T,
    y2: T,
    x1: T,
    x2: T,
    coeffs: Coefficients<C>,
}

/// Internal states and coefficients of the Direct Form 2 Transposed form
#[derive(Copy, Clone, Debug, fwdad::Differentiable)]
pub struct DirectForm2Transposed<C, T = C> {
    pub s1: T,
    pub s2: T,
    coeffs: Coefficients<C>,
}

#[fwdad::derive_frule]
impl<C, T> DirectForm1<C, T>
where
    T: ConstZero,
{
    /// Creates a Direct Form 1 biquad from a set of filter coefficients
    pub const fn new(coefficients: Coefficients<C>) -> Self {
        DirectForm1 {
            y1: T::ZERO,
            y2: T::ZERO,
            x1: T::ZERO,
            x2: T::ZERO,
            coeffs: coefficients,
        }
    }
}

impl<C, T> Biquad<C, T> for DirectForm1<C, T>
where
    T: Copy + Add<T, Output = T> + Sub<T, Output = T> + Zero,
    C: Copy + Mul<T, Output = T>,
{
    fn run(&mut self, input: T) -> T {
        let out = self.coeffs.b0 * input + self.coeffs.b1 * self.x1 + self.coeffs.b2 * self.x2
            - self.coeffs.a1 * self.y1
            - self.coeffs.a2 * self.y2;

        self.x2 = self.x1;
        self.x1 = input;
        self.y2 = self.y1;
        self.y1 = out;

        out
    }

    fn update_coefficients(&mut self, new_coefficients: Coefficients<C>) {
        self.coeffs = new_coefficients;
    }

    fn replace_coefficients(&mut self, new_coefficients: Coefficients<C>) -> Coefficients<C> {
        core::mem::replace(&mut self.coeffs, new_coefficients)
    }

    fn reset_state(&mut self) {
        self.x1 = T::zero();
        self.x2 = T::zero();
        self.y1 = T::zero();
        self.y2 = T::zero();
    }
}

#[fwdad::derive_frule]
impl<C, T> DirectForm2Transposed<C, T>
where
    T: ConstZero,
{
    /// Creates a Direct Form 2 Transposed biquad from a set of filter coefficients
    pub const fn new(coefficients: Coefficients<C>) -> Self {
        DirectForm2Transposed {
            s1: T::ZERO,
            s2: T::ZERO,
            coeffs: coefficients,
        }
    }
}

impl<C, T> Biquad<C, T> for DirectForm2Transposed<C, T>
where
    T: Copy + Add<T, Output = T> + Sub<T, Output = T> + Zero,
    C: Copy + Mul<T, Output = T>,
{
    fn run(&mut self, input: T) -> T {
        let out = self.s1 + self.coeffs.b0 * input;
        self.s1 = self.s2 + self.coeffs.b1 * input - self.coeffs.a1 * out;
        self.s2 = self.coeffs.b2 * input - self.coeffs.a2 * out;

        out
    }

    fn update_coefficients(&mut self, new_coefficients: Coefficients<C>) {
        self.coeffs = new_coefficients;
    }

    fn replace_coefficients(&mut self, new_coefficients: Coefficients<C>) -> Coefficients<C> {
        core::mem::replace(&mut self.coeffs, new_coefficients)
    }

    fn reset_state(&mut self) {
        self.s1 = T::zero();
        self.s2 = T::zero();
    }
}

// ---- biquad 0.6.0, src/coefficients.rs ----

#[rustfmt::skip]
pub mod coefficients {
    // # coefficients
    //
    // Module for generating filter coefficients for second order IIR biquads, where the coefficients
    // form the following Z-domain transfer function:
    // ```text
    //         b0 + b1 * z^-1 + b2 * z^-2
    // H(z) =  --------------------------
    //          1 + a1 * z^-1 + a2 * z^-2
    // ```
    //
    // The second orders filter are based on the
    // [Audio EQ Cookbook](https://webaudio.github.io/Audio-EQ-Cookbook/audio-eq-cookbook.html), while the first order
    // low pass filter is based on the following
    // [Wikipedia article](https://en.wikipedia.org/wiki/Low-pass_filter#Discrete-time_realization).
    //
    //
    // # Examples
    //
    // ```
    // use biquad::*;
    //
    // // Cutoff frequency
    // let f0 = 10.hz();
    //
    // // Sampling frequency
    // let fs = 1.khz();
    //
    // // Create coefficients
    // let coeffs = Coefficients::<f32>::from_params(Type::LowPass, fs, f0, Q_BUTTERWORTH_F32);
    // ```
    //
    // # Errors
    //
    // `Coefficients::from_params(...)` can error if the cutoff frequency does not adhere to the
    // [Nyquist Frequency](https://en.wikipedia.org/wiki/Nyquist_frequency), or if the Q value is
    // negative.

    use crate::{frequency::Hertz, Errors};

    use num_traits::Float;
    /// Common Q value of the Butterworth low-pass filter
    pub const Q_BUTTERWORTH_F32: f32 = core::f32::consts::FRAC_1_SQRT_2;
    pub const Q_BUTTERWORTH_F64: f64 = core::f64::consts::FRAC_1_SQRT_2;

    /// The supported types of biquad coefficients. Note that single pole low pass filters are faster to
    /// retune, as all other filter types require evaluations of sin/cos functions
    /// The `LowShelf`, `HighShelf`, and `PeakingEQ` all have a gain value for its
    /// field, and represents the gain, in decibels, that the filter provides.
    #[derive(Clone, Copy, Debug, PartialEq, fwdad::Differentiable)]
    pub enum Type<DBGain> {
        SinglePoleLowPassApprox,
        SinglePoleLowPass,
        LowPass,
        HighPass,
        BandPass,
        Notch,
        AllPass,
        LowShelf(DBGain),
        HighShelf(DBGain),
        PeakingEQ(DBGain),
    }

    /// Holder of the biquad coefficients, utilizes normalized form
    #[derive(Clone, Copy, Debug, fwdad::Differentiable)]
    pub struct Coefficients<C> {
        // Denominator coefficients
        pub a1: C,
        pub a2: C,

        // Numerator coefficients
        pub b0: C,
        pub b1: C,
        pub b2: C,
    }

    #[fwdad::derive_frule]
    impl<C> Coefficients<C> where C: Float {
        /// Creates coefficients based on the biquad filter type, normalized cutoff frequency, and Q
        /// value. Note that the cutoff frequency must be smaller than 1 and that Q may not be negative,
        ///  this will result in an `Err()`.
        /// * `filter_type` - Type of filter desired
        /// * `normalized_f0` - Cutoff frequency divided by two times sampling frequency (0 < F_cut < 1 respects the Shannon condition)
        /// * `q_value` - Quality factor of the filter
        pub fn from_normalized_params(
            filter_type: Type<C>,
            normalized_f0: C,
            q_value: C,
        ) -> Result<Coefficients<C>, Errors> {
            #[allow(non_snake_case)]
            let TWO: C = C::from(2).unwrap();
            #[allow(non_snake_case)]
            let PI: C = C::from(core::f64::consts::PI).unwrap();
            #[allow(non_snake_case)]
            let FORTY: C = C::from(40).unwrap();
            if normalized_f0 >= C::one() || normalized_f0 < C::zero() {
                return Err(Errors::OutsideNyquist);
            }
            if q_value <= C::zero() {
                return Err(Errors::NegativeQ);
            }
            let omega = PI * normalized_f0;

            // The code for omega_s/c and alpha is hidden behind a condition due to the single pole
            // low pass filter not needing it and when creating coefficients are commonly
            // assumed to be of low computational complexity.
            let (omega_s, omega_c, alpha) = match filter_type {
                Type::SinglePoleLowPassApprox | Type::SinglePoleLowPass => {
                    (C::nan(), C::nan(), C::nan())
                }
                _ => {
                    let omega_s = omega.sin();
                    (omega_s, omega.cos(), omega_s / (TWO * q_value))
                }
            };
            match filter_type {
                Type::SinglePoleLowPassApprox => {
                    let alpha = omega / (omega + C::one());

                    Ok(Coefficients {
                        a1: alpha - C::one(),
                        a2: C::zero(),
                        b0: alpha,
                        b1: C::zero(),
                        b2: C::zero(),
                    })
                }
                Type::SinglePoleLowPass => {
                    let omega_t = (omega / TWO).tan();
                    let a0 = C::one() + omega_t;

                    Ok(Coefficients {
                        a1: (omega_t - C::one()) / a0,
                        a2: C::zero(),
                        b0: omega_t / a0,
                        b1: omega_t / a0,
                        b2: C::zero(),
                    })
                }
                Type::LowPass => {
                    let b0 = (C::one() - omega_c) / TWO;
                    let b1 = C::one() - omega_c;
                    let b2 = (C::one() - omega_c) / TWO;
                    let a0 = C::one() + alpha;
                    let a1 = -TWO * omega_c;
                    let a2 = C::one() - alpha;

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
                Type::HighPass => {
                    let b0 = (C::one() + omega_c) / TWO;
                    let b1 = -(C::one() + omega_c);
                    let b2 = (C::one() + omega_c) / TWO;
                    let a0 = C::one() + alpha;
                    let a1 = -TWO * omega_c;
                    let a2 = C::one() - alpha;

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
                Type::BandPass => {
                    let b0 = omega_s / TWO;
                    let b1 = C::zero();
                    let b2 = -(omega_s / TWO);
                    let a0 = C::one() + alpha;
                    let a1 = -TWO * omega_c;
                    let a2 = C::one() - alpha;

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
                Type::Notch => {
                    let b0 = C::one();
                    let b1 = -TWO * omega_c;
                    let b2 = C::one();
                    let a0 = C::one() + alpha;
                    let a1 = -TWO * omega_c;
                    let a2 = C::one() - alpha;

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
                Type::AllPass => {
                    let b0 = C::one() - alpha;
                    let b1 = -TWO * omega_c;
                    let b2 = C::one() + alpha;
                    let a0 = C::one() + alpha;
                    let a1 = -TWO * omega_c;
                    let a2 = C::one() - alpha;

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
                Type::LowShelf(db_gain) => {
                    let a = C::from(C::from(10).unwrap().powf(db_gain / FORTY)).unwrap();
                    let b0 = a * ((a + C::one()) - (a - C::one()) * omega_c + TWO * alpha * a.sqrt());
                    let b1 = TWO * a * ((a - C::one()) - (a + C::one()) * omega_c);
                    let b2 = a * ((a + C::one()) - (a - C::one()) * omega_c - TWO * alpha * a.sqrt());
                    let a0 = (a + C::one()) + (a - C::one()) * omega_c + TWO * alpha * a.sqrt();
                    let a1 = -TWO * ((a - C::one()) + (a + C::one()) * omega_c);
                    let a2 = (a + C::one()) + (a - C::one()) * omega_c - TWO * alpha * a.sqrt();

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
                Type::HighShelf(db_gain) => {
                    let a = C::from(C::from(10).unwrap().powf(db_gain / FORTY)).unwrap();

                    let b0 = a * ((a + C::one()) + (a - C::one()) * omega_c + TWO * alpha * a.sqrt());
                    let b1 = -TWO * a * ((a - C::one()) + (a + C::one()) * omega_c);
                    let b2 = a * ((a + C::one()) + (a - C::one()) * omega_c - TWO * alpha * a.sqrt());
                    let a0 = (a + C::one()) - (a - C::one()) * omega_c + TWO * alpha * a.sqrt();
                    let a1 = TWO * ((a - C::one()) - (a + C::one()) * omega_c);
                    let a2 = (a + C::one()) - (a - C::one()) * omega_c - TWO * alpha * a.sqrt();

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
                Type::PeakingEQ(db_gain) => {
                    let a = C::from(C::from(10).unwrap().powf(db_gain / FORTY)).unwrap();

                    let b0 = C::one() + alpha * a;
                    let b1 = -TWO * omega_c;
                    let b2 = C::one() - alpha * a;
                    let a0 = C::one() + alpha / a;
                    let a1 = -TWO * omega_c;
                    let a2 = C::one() - alpha / a;

                    let div = C::one() / a0;

                    Ok(Coefficients {
                        a1: a1 * div,
                        a2: a2 * div,
                        b0: b0 * div,
                        b1: b1 * div,
                        b2: b2 * div,
                    })
                }
            }
        }
        /// Creates coefficients based on the biquad filter type, sampling and cutoff frequency, and Q
        /// value. Note that the cutoff frequency must be smaller than half the sampling frequency and
        /// that Q may not be negative, this will result in an `Err()`.
        pub fn from_params(
            filter: Type<C>,
            fs: Hertz<C>,
            f0: Hertz<C>,
            q_value: C,
        ) -> Result<Coefficients<C>, Errors> {
            let normalized_f0 = f0.hz() / (fs.hz() / C::from(2).unwrap());
            Self::from_normalized_params(filter, normalized_f0, q_value)
        }

        pub fn band_0db_from_cutting_frequencies(
            filter_type: Type<C>,
            normalized_f01: C,
            normalized_f02: C,
        ) -> Result<Coefficients<C>, Errors> {
            if normalized_f01 < C::zero()
                || normalized_f02 < C::zero()
                || normalized_f01 > C::one()
                || normalized_f02 > C::one()
                || normalized_f01 > normalized_f02
            {
                return Err(Errors::OutsideNyquist);
            }
            #[allow(non_snake_case)]
            let TWO: C = C::from(2).unwrap();
            assert!(filter_type == Type::<_>::BandPass || filter_type == Type::<_>::Notch);
            let frac_freq: C = normalized_f02 / normalized_f01;
            let bw_in_octaves = frac_freq.log2();
            let normalized_f0 = TWO.powf(normalized_f01.log2() + bw_in_octaves / TWO);
            Self::from_normalized_params(filter_type, normalized_f0, C::one())
        }
    }
}

// ---- biquad 0.6.0, src/frequency.rs ----

#[rustfmt::skip]
pub mod frequency {
    // # frequency
    //
    // A helper module for creating type-safe frequencies, while also allowing to create frequencies
    // from float and integer literals.
    //
    // # Examples
    //
    // ```ignore
    // fn main() {
    //     use biquad::frequency::*;
    //
    //     // Integer literals
    //     let one_hz = 1.hz();
    //     let one_khz = 1.khz();
    //     let one_mhz = 1.mhz();
    //
    //     // Float literals
    //     let one_hz = 1.0.dt();
    //     let ten_hz = 0.1.dt();
    // }
    // ```
    //
    // # Errors
    //
    // `Hertz::from_hz(...)` will error if the frequency is negative.
    //
    // # Panics
    //
    // `x.hz()`, `x.khz()`, `x.mhz()`, `x.dt()` will panic for `f32`/`f64` if they are negative.
    //

    use num_traits::Float;

    use crate::Errors;

    /// Base type for frequency, everything is based on Hertz
    #[derive(PartialOrd, PartialEq, Debug, Copy, Clone, fwdad::Differentiable)]
    pub struct Hertz<T: Float>(T);

    /// Used to implement conversions to the Hertz struct
    pub trait ToHertz<T: Float> {
        /// From hertz
        fn hz(self) -> Hertz<T>;

        /// From kilohertz
        fn khz(self) -> Hertz<T>;

        /// From megahertz
        fn mhz(self) -> Hertz<T>;

        /// From delta time (in seconds)
        fn dt(self) -> Hertz<T>;
    }

    // -----------------------------------------------
    // generic implementation
    // -----------------------------------------------
    use num_traits::NumCast;
    impl<T: Float, X: NumCast> ToHertz<T> for X {
        fn hz(self) -> Hertz<T> {
            Hertz::<T>::from_hz(T::from(self).unwrap()).unwrap()
        }

        fn khz(self) -> Hertz<T> {
            Hertz::<T>::from_hz(T::from(self).unwrap() * T::from(1_000).unwrap()).unwrap()
        }

        fn mhz(self) -> Hertz<T> {
            Hertz::<T>::from_hz(T::from(self).unwrap() * T::from(1_000_000).unwrap()).unwrap()
        }

        fn dt(self) -> Hertz<T> {
            Hertz::<T>::from_hz(T::one() / T::from(self).unwrap()).unwrap()
        }
    }

    #[fwdad::derive_frule]
    impl<T: Float> Hertz<T> {
        pub fn from_hz(hz: impl Into<T>) -> Result<Self, Errors> {
            let hz = hz.into();
            if hz > T::zero() {
                Ok(Hertz(hz))
            } else {
                Err(Errors::NegativeFrequency)
            }
        }

        pub fn from_dt(dt: impl Into<T>) -> Result<Self, Errors> {
            let dt = dt.into();
            if dt > T::zero() {
                Ok(Hertz(T::one() / dt))
            } else {
                Err(Errors::NegativeFrequency)
            }
        }

        pub fn hz(self) -> T {
            self.0
        }
    }
}

// ---- the checks ----

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::PI;
    use fwdad::drivers::Matrix;
    use fwdad::prelude::*;

    /// Central differences of every output of `f`.
    fn fd_jacobian(f: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
        let cols: Vec<Vec<f64>> = (0..x.len())
            .map(|k| {
                let h = 1e-6 * x[k].abs().max(1.0);
                let (mut p, mut m) = (x.to_vec(), x.to_vec());
                p[k] += h;
                m[k] -= h;
                f(&p)
                    .iter()
                    .zip(f(&m))
                    .map(|(a, b)| (a - b) / (2.0 * h))
                    .collect()
            })
            .collect();
        (0..cols[0].len())
            .map(|i| cols.iter().map(|c| c[i]).collect())
            .collect()
    }

    fn assert_jacobian(got: &Matrix, want: &[Vec<f64>], tol: f64, what: &str) {
        assert_eq!(got.nrows(), want.len(), "{what}: rows");
        for (i, row) in want.iter().enumerate() {
            for (k, w) in row.iter().enumerate() {
                let g = got[(i, k)];
                assert!(
                    (g - w).abs() <= tol * (1.0 + w.abs()),
                    "{what}: ∂y{i}/∂p{k} = {g}, central differences {w}"
                );
            }
        }
    }

    // ---- the cookbook's coefficients, every filter type ----

    /// The coefficients `[b0, b1, b2, a1, a2]` of each of the ten filter types at the
    /// normalised cutoff `p[0]`, the quality `p[1]` and the shelf or peak gain `p[2]` dB.
    #[derive_frule]
    fn cookbook(p: &[f64]) -> Vec<f64> {
        let types = [
            Type::SinglePoleLowPassApprox,
            Type::SinglePoleLowPass,
            Type::LowPass,
            Type::HighPass,
            Type::BandPass,
            Type::Notch,
            Type::AllPass,
            Type::LowShelf(p[2]),
            Type::HighShelf(p[2]),
            Type::PeakingEQ(p[2]),
        ];
        let mut out = Vec::new();
        for filter in types {
            let c = Coefficients::from_normalized_params(filter, p[0], p[1]).unwrap();
            out.extend([c.b0, c.b1, c.b2, c.a1, c.a2]);
        }
        out
    }

    fn published_cookbook(p: &[f64]) -> Vec<f64> {
        use ::biquad::Type;
        let types = [
            Type::SinglePoleLowPassApprox,
            Type::SinglePoleLowPass,
            Type::LowPass,
            Type::HighPass,
            Type::BandPass,
            Type::Notch,
            Type::AllPass,
            Type::LowShelf(p[2]),
            Type::HighShelf(p[2]),
            Type::PeakingEQ(p[2]),
        ];
        let mut out = Vec::new();
        for filter in types {
            let c = ::biquad::Coefficients::from_normalized_params(filter, p[0], p[1]).unwrap();
            out.extend([c.b0, c.b1, c.b2, c.a1, c.a2]);
        }
        out
    }

    #[test]
    fn every_filter_type_against_the_published_crate() {
        for p in [[0.1, 0.7, 6.0], [0.45, 2.5, -9.0], [0.02, 0.3, 1.5]] {
            let want = published_cookbook(&p);
            assert_eq!(cookbook(&p), want);
            let (y, jac) = jacobian(cookbook {}, &p);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&y), bits(&want), "primals of the published crate");
            let fd = fd_jacobian(&published_cookbook, &p);
            assert_jacobian(&jac, &fd, 1e-6, "jacobian");
            // One direction at a time, the same columns.
            for k in 0..3 {
                let mut e = [0.0; 3];
                e[k] = 1.0;
                let (y1, d): (Vec<f64>, Vec<f64>) = jvp(cookbook {}, &p, &e);
                assert_eq!(bits(&y1), bits(&want), "one direction: primals");
                for (i, d) in d.iter().enumerate() {
                    let w = jac[(i, k)];
                    assert!(
                        (d - w).abs() <= 1e-13 * (1.0 + w.abs()),
                        "one direction: ∂y{i}/∂p{k} = {d}, jacobian {w}"
                    );
                }
            }
        }
    }

    /// The first-order lowpass by the bilinear transform, `b0 = t / (1 + t)` with
    /// `t = tan(π f / 2)`.
    #[derive_frule]
    fn single_pole_b0(f: f64) -> f64 {
        Coefficients::from_normalized_params(Type::SinglePoleLowPass, f, 1.0)
            .unwrap()
            .b0
    }

    #[test]
    fn single_pole_lowpass_against_its_closed_form() {
        for f in [0.01, 0.2, 0.6, 0.95] {
            let (b0, d) = derivative(single_pole_b0 {}, f);
            assert_eq!(
                b0.to_bits(),
                ::biquad::Coefficients::from_normalized_params(
                    ::biquad::Type::SinglePoleLowPass,
                    f,
                    1.0
                )
                .unwrap()
                .b0
                .to_bits()
            );
            let t = (PI * f / 2.0).tan();
            let want = PI / 2.0 * (1.0 + t * t) / ((1.0 + t) * (1.0 + t));
            assert!(
                (d - want).abs() <= 1e-13 * want,
                "d b0/df = {d}, closed form {want}"
            );
        }
    }

    /// `|H(e^{iθ})|²` of a peaking filter at its own centre `θ = π f₀`, where the cookbook
    /// puts the gain: `|H| = A² = 10^(dB / 20)`, whatever the cutoff and Q.
    #[derive_frule]
    fn peak_power(p: &[f64]) -> f64 {
        let c = Coefficients::from_normalized_params(Type::PeakingEQ(p[2]), p[0], p[1]).unwrap();
        let theta = PI * p[0];
        let (c1, s1, c2, s2) = (
            theta.cos(),
            theta.sin(),
            (2.0 * theta).cos(),
            (2.0 * theta).sin(),
        );
        let num = (c.b0 + c.b1 * c1 + c.b2 * c2).powi(2) + (c.b1 * s1 + c.b2 * s2).powi(2);
        let den = (1.0 + c.a1 * c1 + c.a2 * c2).powi(2) + (c.a1 * s1 + c.a2 * s2).powi(2);
        num / den
    }

    #[test]
    fn peaking_gain_against_the_cookbook_closed_form() {
        let k = 10f64.ln() / 10.0;
        for p in [[0.1, 0.7, 6.0], [0.3, 4.0, -12.0]] {
            let (v, g) = gradient(peak_power {}, &p);
            let power = 10f64.powf(p[2] / 10.0);
            assert!((v - power).abs() <= 1e-12 * power, "{v} against {power}");
            let want = [0.0, 0.0, k * power];
            for i in 0..3 {
                assert!(
                    (g[i] - want[i]).abs() <= 1e-9 * power,
                    "∂/∂p{i}: {} against {}",
                    g[i],
                    want[i]
                );
            }
            let (_, _, h) = hessian(peak_power {}, &p);
            assert!((h[(2, 2)] - k * k * power).abs() <= 1e-9 * power, "∂²/∂dB²");
            for i in 0..3 {
                for j in 0..3 {
                    if (i, j) != (2, 2) {
                        assert!(
                            h[(i, j)].abs() <= 1e-8 * power,
                            "∂²/∂p{i}∂p{j} = {}",
                            h[(i, j)]
                        );
                    }
                }
            }
        }
        crate::check_modes!(peak_power {}, peak_power, [0.15, 1.2, 3.0]);
    }

    // ---- a filter run: cutoff and Q in hertz through `Hertz` ----

    const FS: f64 = 48_000.0;

    fn chirp(n: usize) -> f64 {
        let t = n as f64 / FS;
        (2.0 * PI * (200.0 + 40_000.0 * t) * t).sin()
    }

    /// The energy of a chirp through a lowpass at the cutoff `p[0]` Hz and quality `p[1]`,
    /// filtered by the recursion of biquad 0.6.0's `DirectForm2Transposed::run`.
    #[derive_frule]
    fn lowpass_chirp_energy(p: &[f64]) -> f64 {
        let fs = Hertz::<f64>::from_hz(FS).unwrap();
        let f0 = Hertz::from_hz(p[0]).unwrap();
        let coeffs = Coefficients::from_params(Type::LowPass, fs, f0, p[1]).unwrap();
        let (mut s1, mut s2) = (0.0, 0.0);
        let mut energy = 0.0;
        for n in 0..200 {
            let input = chirp(n);
            let out = s1 + coeffs.b0 * input;
            s1 = s2 + coeffs.b1 * input - coeffs.a1 * out;
            s2 = coeffs.b2 * input - coeffs.a2 * out;
            energy += out * out;
        }
        energy
    }

    fn published_lowpass_chirp_energy(p: &[f64]) -> f64 {
        use ::biquad::Biquad;
        let fs = ::biquad::Hertz::<f64>::from_hz(FS).unwrap();
        let f0 = ::biquad::Hertz::from_hz(p[0]).unwrap();
        let coeffs =
            ::biquad::Coefficients::from_params(::biquad::Type::LowPass, fs, f0, p[1]).unwrap();
        let mut filter = ::biquad::DirectForm2Transposed::<f64>::new(coeffs);
        let mut energy = 0.0;
        for n in 0..200 {
            let out = filter.run(chirp(n));
            energy += out * out;
        }
        energy
    }

    #[test]
    fn lowpass_response_against_the_published_filter() {
        for p in [[1_000.0, 0.707], [4_000.0, 2.0], [300.0, 0.5]] {
            assert_eq!(
                lowpass_chirp_energy(&p).to_bits(),
                published_lowpass_chirp_energy(&p).to_bits(),
                "the published crate's filter"
            );
            let want = common::modes::fd_gradient(&published_lowpass_chirp_energy, &p);
            crate::check_first_order!(lowpass_chirp_energy {}, lowpass_chirp_energy, p, want);
        }
    }

    // ---- a band from its two edges, and the errors ----

    /// A band-pass filter between the normalised edges `e[0]` and `e[1]`, centred on their
    /// geometric mean, and its coefficients.
    #[derive_frule]
    fn band_from_edges(e: &[f64]) -> [f64; 5] {
        let c =
            Coefficients::band_0db_from_cutting_frequencies(Type::BandPass, e[0], e[1]).unwrap();
        [c.b0, c.b1, c.b2, c.a1, c.a2]
    }

    fn published_band_from_edges(e: &[f64]) -> Vec<f64> {
        let c = ::biquad::Coefficients::band_0db_from_cutting_frequencies(
            ::biquad::Type::BandPass,
            e[0],
            e[1],
        )
        .unwrap();
        vec![c.b0, c.b1, c.b2, c.a1, c.a2]
    }

    #[test]
    fn band_edges_against_the_published_crate() {
        for e in [[0.05, 0.2], [0.3, 0.35], [0.01, 0.9]] {
            let (y, jac) = jacobian(band_from_edges {}, &e);
            let want = published_band_from_edges(&e);
            for i in 0..5 {
                assert_eq!(y[i].to_bits(), want[i].to_bits(), "primal {i}");
            }
            assert_jacobian(
                &jac,
                &fd_jacobian(&published_band_from_edges, &e),
                1e-6,
                "band",
            );
        }
    }

    /// A notch's `b1 = -2 cos ω / (1 + α)`, or a fallback outside the Nyquist band or at a
    /// non-positive Q, through the crate's `Result` and its error enum.
    #[derive_frule]
    fn guarded_notch(p: &[f64]) -> f64 {
        match Coefficients::from_normalized_params(Type::Notch, p[0], p[1]) {
            Ok(c) => c.b1,
            Err(Errors::OutsideNyquist) => p[1] * 10.0,
            Err(_) => -1.0,
        }
    }

    #[test]
    fn notch_and_its_errors() {
        let (v, g) = gradient(guarded_notch {}, &[0.25, 0.8]);
        let (w, q) = (PI * 0.25, 0.8);
        let alpha = w.sin() / (2.0 * q);
        assert!((v - (-2.0 * w.cos() / (1.0 + alpha))).abs() < 1e-15);
        // ∂b1/∂f = π (2 sin ω (1 + α) + 2 cos ω · cos ω / 2q) / (1 + α)², ∂b1/∂q = 2 cos ω · (−α / q) / (1 + α)².
        let dw = (2.0 * w.sin() * (1.0 + alpha) + 2.0 * w.cos() * w.cos() / (2.0 * q))
            / (1.0 + alpha).powi(2);
        let dq = 2.0 * w.cos() * (-alpha / q) / (1.0 + alpha).powi(2);
        assert!(
            (g[0] - PI * dw).abs() < 1e-13,
            "{} against {}",
            g[0],
            PI * dw
        );
        assert!((g[1] - dq).abs() < 1e-13, "{} against {dq}", g[1]);
        assert_eq!(gradient(guarded_notch {}, &[1.5, 0.8]), (8.0, [0.0, 10.0]));
        assert_eq!(gradient(guarded_notch {}, &[0.5, -0.8]), (-1.0, [0.0, 0.0]));
    }

    // ---- a peaking equaliser run by Direct Form 1, and the f32 coefficients ----

    /// The last output of a peaking filter (normalised centre `p[0]`, quality `p[1]`, gain
    /// `p[2]` dB) driven by the eight samples `p[3..]`, by the recursion of biquad 0.6.0's
    /// `DirectForm1::run`.
    #[derive_frule]
    fn peaking_last_output(p: &[f64]) -> f64 {
        let coeffs =
            Coefficients::from_normalized_params(Type::PeakingEQ(p[2]), p[0], p[1]).unwrap();
        let (mut x1, mut x2, mut y1, mut y2) = (0.0, 0.0, 0.0, 0.0);
        let mut last = 0.0;
        for &input in &p[3..] {
            let out = coeffs.b0 * input + coeffs.b1 * x1 + coeffs.b2 * x2
                - coeffs.a1 * y1
                - coeffs.a2 * y2;
            x2 = x1;
            x1 = input;
            y2 = y1;
            y1 = out;
            last = out;
        }
        last
    }

    fn published_peaking_last_output(p: &[f64]) -> f64 {
        use ::biquad::Biquad;
        let coeffs = ::biquad::Coefficients::from_normalized_params(
            ::biquad::Type::PeakingEQ(p[2]),
            p[0],
            p[1],
        )
        .unwrap();
        let mut filter = ::biquad::DirectForm1::<f64>::new(coeffs);
        let mut last = 0.0;
        for &input in &p[3..] {
            last = filter.run(input);
        }
        last
    }

    #[test]
    fn peaking_filter_in_every_mode() {
        let p = [0.12, 1.5, 4.0, 1.0, 0.5, -0.25, 0.8, 0.0, -1.0, 0.3, 0.6];
        assert_eq!(
            peaking_last_output(&p).to_bits(),
            published_peaking_last_output(&p).to_bits(),
            "the published crate's filter"
        );
        crate::check_modes!(peaking_last_output {}, published_peaking_last_output, p);
        // The output is linear in the samples: its derivative along them is the impulse
        // response, which the published filter gives by running on an impulse.
        let (_, g) = gradient(peaking_last_output {}, &p);
        let mut impulse = p;
        impulse[3..].fill(0.0);
        for k in 0..8 {
            impulse[3 + k] = 1.0;
            let h = published_peaking_last_output(&impulse);
            impulse[3 + k] = 0.0;
            assert!(
                (g[3 + k] - h).abs() <= 1e-14,
                "∂y/∂x{k} = {}, h = {h}",
                g[3 + k]
            );
        }
    }

    /// The lowpass's `b0` in `f32`, at the Butterworth Q, as the crate's own example builds it.
    #[derive_frule]
    fn butterworth_b0_f32(f: f64) -> f64 {
        let coeffs =
            Coefficients::<f32>::from_normalized_params(Type::LowPass, f as f32, Q_BUTTERWORTH_F32)
                .unwrap();
        coeffs.b0 as f64
    }

    #[test]
    fn f32_coefficients_against_the_closed_form() {
        for f in [0.05, 0.2, 0.5] {
            let (b0, d) = derivative(butterworth_b0_f32 {}, f);
            let published = ::biquad::Coefficients::<f32>::from_normalized_params(
                ::biquad::Type::LowPass,
                f as f32,
                ::biquad::Q_BUTTERWORTH_F32,
            )
            .unwrap()
            .b0;
            assert_eq!(b0.to_bits(), (published as f64).to_bits());
            // b0 = (1 − cos ω) / 2 / (1 + α), α = sin ω / 2Q, ω = π f.
            let (w, q) = (PI * f, core::f64::consts::FRAC_1_SQRT_2);
            let alpha = w.sin() / (2.0 * q);
            let want = PI
                * (w.sin() / 2.0 * (1.0 + alpha) - (1.0 - w.cos()) / 2.0 * w.cos() / (2.0 * q))
                / (1.0 + alpha).powi(2);
            assert!((d - want).abs() <= 1e-5 * want.abs(), "{d} against {want}");
        }
    }
}
