//! sgp4 2.4.0 (MIT, <https://github.com/neuromorphicsystems/sgp4>, commit 66b6318): the SGP4
//! and SDP4 satellite propagators (near-earth, deep space with solar and lunar perturbations,
//! and the one-day and half-day resonance integrators), copied from the repository with
//! `#[fwdad::derive_frule]` on every free function and numeric `impl` block and
//! `fwdad::Differentiable` added to the derive list of each type holding floats (but the
//! error types'). The modules are inlined here (each under `#[rustfmt::skip]`), the crate
//! root's items after them; left out: the TLE and OMM parsers (`src/tle.rs` but its
//! `MinutesSinceEpoch`), `Constants::from_elements*` which take the parser's `Elements`, and
//! the crate-level attributes. Nothing else is added: `Prediction { .. }`, reached through
//! `pub use propagator::Prediction;`, builds its tangent by the path of `Prediction`'s
//! module, which the macro reads from the source (it used to need `use
//! propagator::PredictionTangent;`).
//!
//! What this found: `#[cfg(feature = "std")]` / `#[cfg(not(..))]` statement pairs made the
//! rule take the last (now one expansion per configuration, `tests/derive_cfg.rs`);
//! `self.initial_state().as_mut()`, `Euclid::rem_euclid(&theta, &m)` and a call of 16 and 20
//! arguments had no rule (`tests/derive_corpus_found.rs`).
//!
//! The position `t` minutes after epoch is differentiated with respect to `t` (against
//! central differences and the velocity SGP4 computes itself) and to the TLE elements, the
//! mean elements before Kepler's equation likewise, the sidereal times against their
//! polynomials; primals bit for bit against the plain functions.
//!
//! sgp4's licence:
//!
//! MIT License
//!
//! Copyright (c) 2020 International Centre for Neuromorphic Systems
//!
//! Permission is hereby granted, free of charge, to any person obtaining a copy
//! of this software and associated documentation files (the "Software"), to deal
//! in the Software without restriction, including without limitation the rights
//! to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
//! copies of the Software, and to permit persons to whom the Software is
//! furnished to do so, subject to the following conditions:
//!
//! The above copyright notice and this permission notice shall be included in all
//! copies or substantial portions of the Software.
//!
//! THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
//! IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
//! FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
//! AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
//! LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
//! OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
//! SOFTWARE.

// sgp4's `cfg(feature = "std" | "serde")`, features this crate does not have: it compiles as
// sgp4 does with `libm` (the `num_traits` branches).
#![allow(unexpected_cfgs)]

mod common;

/// `src/gp.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
mod gp {
/// Represents a propagation error caused by orbital elements divergence
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    OutOfRangeEccentricity {
        /// Eccentricity value (unitless)
        eccentricity: f64,

        /// Minutes since epoch
        t: f64,
    },

    OutOfRangePerturbedEccentricity {
        /// Eccentricity value (unitless)
        eccentricity: f64,

        /// Minutes since epoch
        t: f64,
    },

    NegativeSemiLatusRectum {
        /// Minutes since epoch
        t: f64,
    },
}

impl core::fmt::Display for Error {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::OutOfRangeEccentricity { eccentricity, t } => formatter.write_fmt(
                core::format_args!(
                    "The propagated eccentricity ({}) is outside the range [0, 1[ {} minutes after epoch (before adding third-body perturbations)",
                    eccentricity,
                    t,
                )
            ),
            Error::OutOfRangePerturbedEccentricity { eccentricity, t } => formatter.write_fmt(
                core::format_args!(
                    "The propagated eccentricity ({}) is outside the range [0, 1[ {} minutes after epoch (after adding third-body perturbations)",
                    eccentricity,
                    t,
                )
            ),
            Error::NegativeSemiLatusRectum { t } => formatter.write_fmt(
                core::format_args!("The propagated semi-latus rectum is negative {} minutes after epoch", t)
            )
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
}

/// `src/model.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
mod model {
#[cfg(not(feature = "std"))]
use num_traits::Float;

#[cfg(not(feature = "std"))]
use num_traits::Euclid;

/// Model of the Earth radius and gravitational field
#[derive(Debug, Clone, Copy, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Geopotential {
    /// Equatorial radius of the earth in km
    // aₑ
    pub ae: f64,

    /// square root of earth's gravitational parameter in earth radii³ min⁻²
    // kₑ
    pub ke: f64,

    /// un-normalised second zonal harmonic
    // J₂
    pub j2: f64,

    /// un-normalised third zonal harmonic
    // J₃
    pub j3: f64,

    /// un-normalised fourth zonal harmonic
    // J₄
    pub j4: f64,
}

/// The geopotential model recommended by the IAU
///
/// This model is recommended to propagate orbits.
pub const WGS84: Geopotential = Geopotential {
    ae: 6378.137,
    ke: 0.07436685316871385,
    j2: 0.00108262998905,
    j3: -0.00000253215306,
    j4: -0.00000161098761,
};

/// The geopotential model used in the AFSPC implementation
///
/// This model should be used if compatibility with the AFSPC implementation is needed.
pub const WGS72: Geopotential = Geopotential {
    ae: 6378.135,
    ke: 0.07436691613317342,
    j2: 0.001082616,
    j3: -0.00000253881,
    j4: -0.00000165597,
};

/// Converts an epoch to sidereal time using the IAU expression
///
/// This is the recommended method to calculate the sidereal time.
///
/// # Arguments
///
/// * `epoch` - Years since UTC 1 January 2000 12h00
#[fwdad::derive_frule]
pub fn iau_epoch_to_sidereal_time(epoch: f64) -> f64 {
    // c₂₀₀₀ = y₂₀₀₀ / 100
    let c2000 = epoch / 100.0;

    // θ₀ = ¹/₂₄₀ (π / 180) (- 6.2 × 10⁻⁶ c₂₀₀₀³ + 0.093104 c₂₀₀₀²
    //      + (876600 × 3600 + 8640184.812866) c₂₀₀₀ + 67310.54841) mod 2π
    let theta = (-6.2e-6 * c2000.powi(3)
        + 0.093104 * c2000.powi(2)
        + (876600.0 * 3600.0 + 8640184.812866) * c2000
        + 67310.54841)
        * (core::f64::consts::PI / 180.0)
        / 240.0;

    #[cfg(feature = "std")]
    {
        theta.rem_euclid(2.0 * core::f64::consts::PI)
    }
    #[cfg(not(feature = "std"))]
    {
        Euclid::rem_euclid(&theta, &(2.0 * core::f64::consts::PI))
    }
}

/// Converts an epoch to sidereal time using the AFSPC expression
///
/// This function should be used if compatibility with the AFSPC implementation is needed.
///
/// # Arguments
///
/// * `epoch` - Years since UTC 1 January 2000 12h00
#[fwdad::derive_frule]
pub fn afspc_epoch_to_sidereal_time(epoch: f64) -> f64 {
    // d₁₉₇₀ = 365.25 (y₂₀₀₀ + 30) + 1
    let d1970 = (epoch + 30.0) * 365.25 + 1.0;

    // θ₀ = 1.7321343856509374 + 1.72027916940703639 × 10⁻² ⌊t₁₉₇₀ + 10⁻⁸⌋
    //      + (1.72027916940703639 × 10⁻² + 2π) (t₁₉₇₀ - ⌊t₁₉₇₀ + 10⁻⁸⌋)
    //      + 5.07551419432269442 × 10⁻¹⁵ t₁₉₇₀² mod 2π
    #[allow(clippy::excessive_precision)]
    let theta = 1.7321343856509374
        + 1.72027916940703639e-2 * (d1970 + 1.0e-8).floor()
        + (1.72027916940703639e-2 + 2.0 * core::f64::consts::PI)
            * (d1970 - (d1970 + 1.0e-8).floor())
        + d1970.powi(2) * 5.07551419432269442e-15;

    #[cfg(feature = "std")]
    {
        theta.rem_euclid(2.0 * core::f64::consts::PI)
    }
    #[cfg(not(feature = "std"))]
    {
        Euclid::rem_euclid(&theta, &(2.0 * core::f64::consts::PI))
    }
}
}

/// `src/propagator.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
mod propagator {
use crate::model;
use crate::third_body;

/// Predicted satellite position and velocity after SGP4 propagation
///
/// The position and velocity are given in the True Equator, Mean Equinox (TEME) of epoch reference frame.
#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Prediction {
    /// The three position components (x, y, z) in km
    pub position: [f64; 3],

    /// The three velocity components (x, y, z) in km.s⁻¹
    pub velocity: [f64; 3],
}

/// The Brouwer orbital elements
#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Orbit {
    /// Angle between the equator and the orbit plane in rad
    pub inclination: f64,

    /// Angle between vernal equinox and the point where the orbit crosses the equatorial plane in rad
    pub right_ascension: f64,

    /// Shape of the orbit
    pub eccentricity: f64,

    /// Angle between the ascending node and the orbit's point of closest approach to the earth in rad
    pub argument_of_perigee: f64,

    /// Angle of the satellite location measured from perigee in rad
    pub mean_anomaly: f64,

    /// Mean number of orbits per day in rad.min⁻¹
    pub mean_motion: f64,
}

#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Elliptic {
    No {},
    Yes { k11: f64, k12: f64, k13: f64 },
}

#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum HighAltitude {
    No {},
    Yes {
        c5: f64,
        d2: f64,
        d3: f64,
        d4: f64,
        eta: f64,
        k7: f64,
        k8: f64,
        k9: f64,
        k10: f64,
        elliptic: Elliptic,
    },
}

#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Resonance {
    OneDay {
        dr1: f64,
        dr2: f64,
        dr3: f64,
    },
    HalfDay {
        d2201: f64,
        d2211: f64,
        d3210: f64,
        d3222: f64,
        d4410: f64,
        d4422: f64,
        d5220: f64,
        d5232: f64,
        d5421: f64,
        d5433: f64,
        k14: f64,
    },
}

#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Resonant {
    No {
        a0: f64,
    },
    Yes {
        lambda_0: f64,
        lambda_dot_0: f64,
        sidereal_time_0: f64,
        resonance: Resonance,
    },
}

#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Method {
    NearEarth {
        a0: f64,
        k2: f64,
        k3: f64,
        k4: f64,
        k5: f64,
        k6: f64,
        high_altitude: HighAltitude,
    },
    DeepSpace {
        eccentricity_dot: f64,
        inclination_dot: f64,
        solar_perturbations: third_body::Perturbations,
        lunar_perturbations: third_body::Perturbations,
        resonant: Resonant,
    },
}

/// Propagator variables calculated from epoch quantities and used during propagation
///
/// Constants can be initialized from general perturbation elements.
/// They are not mutated during propagation, which means they can
/// be used by different threads in parallel
/// (for example to generate predictions at different times).
#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Constants {
    pub(crate) geopotential: model::Geopotential,
    pub(crate) right_ascension_dot: f64,
    pub(crate) argument_of_perigee_dot: f64,
    pub(crate) mean_anomaly_dot: f64,
    pub(crate) c1: f64,
    pub(crate) c4: f64,
    pub(crate) k0: f64,
    pub(crate) k1: f64,
    pub(crate) method: Method,
    pub(crate) orbit_0: Orbit,
}
}

/// `src/near_earth.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
mod near_earth {
use crate::gp;
use crate::model;
use crate::propagator;

#[cfg(not(feature = "std"))]
use num_traits::Float;

#[allow(clippy::too_many_arguments)]
#[fwdad::derive_frule]
pub(crate) fn constants(
    geopotential: model::Geopotential,
    drag_term: f64,
    orbit_0: propagator::Orbit,
    p1: f64,
    a0: f64,
    s: f64,
    xi: f64,
    eta: f64,
    c1: f64,
    c4: f64,
    k0: f64,
    k1: f64,
    k6: f64,
    k14: f64,
    p2: f64,
    p3: f64,
    p7: f64,
    p9: f64,
    p14: f64,
    p15: f64,
) -> propagator::Constants {
    propagator::Constants {
        geopotential,

        // Ω̇ = p₁₄
        right_ascension_dot: p14,

        // ω̇ = k₁₄
        argument_of_perigee_dot: k14,

        // Ṁ = p₁₅
        mean_anomaly_dot: p15,
        c1,
        c4,
        k0,
        k1,
        method: propagator::Method::NearEarth {
            a0,

            //        1 J₃
            // k₂ = - - -- sin I₀
            //        2 J₂
            k2: -0.5 * (geopotential.j3 / geopotential.j2) * orbit_0.inclination.sin(),

            // k₃ = 1 - p₁²
            k3: 1.0 - p1.powi(2),

            // k₄ = 7 p₁² - 1
            k4: 7.0 * p1.powi(2) - 1.0,

            //      │   1 J₃        3 + 5 p₁
            // k₅ = │ - - -- sin I₀ --------    if |1 + p₁| > 1.5 × 10⁻¹²
            //      │   4 J₂         1 + p₁
            //      │   1 J₃         3 + 5 p₁
            //      │ - - -- sin I₀ ----------- otherwise
            //      │   4 J₂        1.5 × 10⁻¹²
            k5: if (1.0 + p1).abs() > 1.5e-12 {
                -0.25
                    * (geopotential.j3 / geopotential.j2)
                    * orbit_0.inclination.sin()
                    * (3.0 + 5.0 * p1)
                    / (1.0 + p1)
            } else {
                -0.25
                    * (geopotential.j3 / geopotential.j2)
                    * orbit_0.inclination.sin()
                    * (3.0 + 5.0 * p1)
                    / 1.5e-12
            },
            k6,

            // p₃ < 220 / (aₑ + 1)
            high_altitude: if p3 < 220.0 / geopotential.ae + 1.0 {
                propagator::HighAltitude::No {}
            } else {
                // D₂ = 4 a₀" ξ C₁²
                let d2 = 4.0 * a0 * xi * c1.powi(2);

                // p₁₆ = D₂ ξ C₁ / 3
                let p16 = d2 * xi * c1 / 3.0;

                // D₃ = (17 a + s) p₁₆
                let d3 = (17.0 * a0 + s) * p16;

                // D₄ = ¹/₂ p₁₆ a₀" ξ (221 a₀" + 31 s) C₁
                let d4 = 0.5 * p16 * a0 * xi * (221.0 * a0 + 31.0 * s) * c1;

                propagator::HighAltitude::Yes {
                    // C₅ = 2 B* p₉ a₀" p₂ (1 + 2.75 (η² + η e₀) + e₀ η³)
                    c5: drag_term
                        * (2.0
                            * p9
                            * a0
                            * p2
                            * (1.0
                                + 2.75 * (eta.powi(2) + eta * orbit_0.eccentricity)
                                + eta * orbit_0.eccentricity * eta.powi(2))),
                    d2,
                    d3,
                    d4,
                    eta,

                    // k₇ = sin M₀
                    k7: orbit_0.mean_anomaly.sin(),

                    // k₈ = D₂ + 2 C₁²
                    k8: d2 + 2.0 * c1.powi(2),

                    // k₉ = ¹/₄ (3 D₃ + C₁ (12 D₂ + 10 C₁²))
                    k9: 0.25 * (3.0 * d3 + c1 * (12.0 * d2 + 10.0 * c1.powi(2))),

                    // k₁₀ = ¹/₅ (3 D₄ + 12 C₁ D₃ + 6 D₂² + 15 C₁² (2 D₂ + C₁²))
                    k10: 0.2
                        * (3.0 * d4
                            + 12.0 * c1 * d3
                            + 6.0 * d2.powi(2)
                            + 15.0 * c1.powi(2) * (2.0 * d2 + c1.powi(2))),

                    elliptic: if orbit_0.eccentricity > 1.0e-4 {
                        propagator::Elliptic::Yes {
                            // k₁₁ = (1 + η cos M₀)³
                            k11: (1.0 + eta * orbit_0.mean_anomaly.cos()).powi(3),

                            //                     J₃ p₇ ξ  n₀" sin I₀
                            // k₁₂ = - 2 B* cos ω₀ -- ----------------
                            //                     J₂        e₀
                            k12: drag_term
                                * (-2.0
                                    * p7
                                    * xi
                                    * (geopotential.j3 / geopotential.j2)
                                    * orbit_0.mean_motion
                                    * orbit_0.inclination.sin()
                                    / orbit_0.eccentricity)
                                * orbit_0.argument_of_perigee.cos(),

                            //         2 p₇ B*
                            // k₁₃ = - - -----
                            //         3 e₀ η
                            k13: -2.0 / 3.0 * p7 * drag_term / (orbit_0.eccentricity * eta),
                        }
                    } else {
                        propagator::Elliptic::No {}
                    },
                }
            },
        },
        orbit_0,
    }
}

#[fwdad::derive_frule]
impl propagator::Constants {
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub(crate) fn near_earth_orbital_elements(
        &self,
        a0: f64,
        k2: f64,
        k3: f64,
        k4: f64,
        k5: f64,
        k6: f64,
        high_altitude: &propagator::HighAltitude,
        t: f64,
        p22: f64,
        p23: f64,
    ) -> core::result::Result<(propagator::Orbit, f64, f64, f64, f64, f64, f64), gp::Error> {
        // p₂₄ = M₀ + Ṁ t
        let p24 = self.orbit_0.mean_anomaly + self.mean_anomaly_dot * t;
        let (argument_of_perigee, mean_anomaly, a, p27) = match high_altitude {
            propagator::HighAltitude::No {} => (
                // ω = p₂₃
                p23,
                // M = p₂₄ + n₀" k₁ t²
                p24 + self.orbit_0.mean_motion * self.k1 * t.powi(2),
                // a = a₀" (1 - C₁ t)²
                a0 * (1.0 - self.c1 * t).powi(2),
                // p₂₇ = e₀ - C₄ t
                self.orbit_0.eccentricity - self.c4 * t,
            ),
            propagator::HighAltitude::Yes {
                c5,
                d2,
                d3,
                d4,
                eta,
                k7,
                k8,
                k9,
                k10,
                elliptic,
            } => {
                // ω = │ p₂₃ - p₂₅ if e₀ > 10⁻⁴
                //     │ p₂₃       otherwise
                // p₂₆ = │ p₂₄ + p₂₅ if e₀ > 10⁻⁴
                //       │ p₂₄       otherwise
                let (argument_of_perigee, p26) = match elliptic {
                    propagator::Elliptic::Yes { k11, k12, k13 } => {
                        // p₂₅ = k₁₃ ((1 + η cos p₂₄)³ - k₁₁) + k₁₂ t
                        let p25 = k13 * ((1.0 + eta * p24.cos()).powi(3) - k11) + k12 * t;
                        (p23 - p25, p24 + p25)
                    }
                    propagator::Elliptic::No {} => (p23, p24),
                };
                (
                    argument_of_perigee,
                    // M = p₂₆ + n₀" (k₁ t² + k₈ t³ + t⁴ (k₉ + t k₁₀)
                    p26 + self.orbit_0.mean_motion
                        * (self.k1 * t.powi(2) + k8 * t.powi(3) + t.powi(4) * (k9 + t * k10)),
                    // a = a₀" (1 - C₁ t - D₂ t² - D₃ t³ - D₄ t⁴)²
                    a0 * (1.0 - self.c1 * t - d2 * t.powi(2) - d3 * t.powi(3) - d4 * t.powi(4))
                        .powi(2),
                    // p₂₇ = e₀ - (C₄ t + C₅ (sin p₂₆ - k₇))
                    self.orbit_0.eccentricity - (self.c4 * t + c5 * (p26.sin() - k7)),
                )
            }
        };
        if !(-0.001..1.0).contains(&p27) {
            Err(gp::Error::OutOfRangeEccentricity {
                eccentricity: p27,
                t,
            })
        } else {
            // e = │ 10⁻⁶ if p₂₇ < 10⁻⁶
            //     │ p₂₇  otherwise
            let eccentricity = p27.max(1.0e-6);
            Ok((
                propagator::Orbit {
                    // I = I₀
                    inclination: self.orbit_0.inclination,

                    // Ω = p₂₂
                    right_ascension: p22,
                    eccentricity,
                    argument_of_perigee,
                    mean_anomaly,

                    // n = kₑ / a³ᐟ²
                    mean_motion: self.geopotential.ke / a.powf(1.5),
                },
                a,
                // p₃₂ = k₂
                k2,
                // p₃₃ = k₃
                k3,
                // p₃₄ = k₄
                k4,
                // p₃₅ = k₅
                k5,
                // p₃₆ = k₆
                k6,
            ))
        }
    }
}
}

/// `src/deep_space.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
mod deep_space {
use crate::gp;
use crate::model;
use crate::propagator;
use crate::third_body;
use core::cmp::Ordering;

#[cfg(not(feature = "std"))]
use num_traits::Float;

#[cfg(not(feature = "std"))]
use num_traits::Euclid;

// θ̇ = 4.37526908801129966 × 10⁻³ rad.min⁻¹
#[allow(clippy::excessive_precision)]
const SIDEREAL_SPEED: f64 = 4.37526908801129966e-3;

// eₛ = 0.01675
const SOLAR_ECCENTRICITY: f64 = 0.01675;

// eₗ = 0.05490
const LUNAR_ECCENTRICITY: f64 = 0.05490;

// nₛ = 1.19459 × 10⁻⁵ rad.min⁻¹
const SOLAR_MEAN_MOTION: f64 = 1.19459e-5;

// nₗ = 1.5835218 × 10⁻⁴ rad.min⁻¹
const LUNAR_MEAN_MOTION: f64 = 1.5835218e-4;

// Cₛ = 2.9864797 × 10⁻⁶ rad.min⁻¹
const SOLAR_PERTURBATION_COEFFICIENT: f64 = 2.9864797e-6;

// Cₗ = 4.7968065 × 10⁻⁷ rad.min⁻¹
const LUNAR_PERTURBATION_COEFFICIENT: f64 = 4.7968065e-7;

// |Δt| = 720 min
const DELTA_T: f64 = 720.0;

// λ₃₁ = 0.13130908
const LAMBDA31: f64 = 0.13130908;

// λ₂₂ = 2.8843198
const LAMBDA22: f64 = 2.8843198;

// λ₃₃ = 0.37448087
const LAMBDA33: f64 = 0.37448087;

// G₂₂ = 5.7686396
const G22: f64 = 5.7686396;

// G₃₂ = 0.95240898
const G32: f64 = 0.95240898;

// G₄₄ = 1.8014998
const G44: f64 = 1.8014998;

// G₅₂ = 1.0508330
const G52: f64 = 1.0508330;

// G₅₄ = 4.4108898
const G54: f64 = 4.4108898;

/// Represents the state of the deep space resonnance integrator
///
/// Use [Constants::initial_state](struct.Constants.html#method.initial_state) to initialize a resonance state.
#[derive(Copy, Clone, PartialEq, fwdad::Differentiable)]
pub struct ResonanceState {
    t: f64,
    mean_motion: f64,
    lambda: f64,
}

#[fwdad::derive_frule]
impl ResonanceState {
    pub(crate) fn new(mean_motion_0: f64, lambda_0: f64) -> ResonanceState {
        ResonanceState {
            t: 0.0,
            mean_motion: mean_motion_0,
            lambda: lambda_0,
        }
    }

    /// Returns the integrator's time in minutes since epoch
    ///
    /// The integrator time changes monotonically in Δt = 720 min increments
    /// or Δt = -720 min decrements, depending on the propagation time sign.
    pub fn t(&self) -> f64 {
        self.t
    }

    #[allow(clippy::too_many_arguments)]
    fn integrate(
        &mut self,
        geopotential: &model::Geopotential,
        argument_of_perigee_0: f64,
        lambda_dot_0: f64,
        resonance: &propagator::Resonance,
        sidereal_time_0: f64,
        t: f64,
        p22: f64,
        p23: f64,
    ) -> (f64, f64) {
        if (self.t != 0.0 && self.t.is_sign_positive() != t.is_sign_positive())
            || t.abs() < self.t.abs()
        {
            panic!("the resonance integration state must be manually reset if the target times are non-monotonic");
        }
        // θ = θ₀ + 4.37526908801129966 × 10⁻³ t rem 2π
        #[allow(clippy::excessive_precision)]
        let sidereal_time =
            (sidereal_time_0 + t * 4.37526908801129966e-3) % (2.0 * core::f64::consts::PI);
        let (delta_t, ordering) = if t > 0.0 {
            (DELTA_T, Ordering::Less)
        } else {
            (-DELTA_T, Ordering::Greater)
        };
        loop {
            // λ̇ᵢ = nᵢ + λ̇₀
            let lambda_dot = self.mean_motion + lambda_dot_0;
            let (ni_dot, ni_ddot) = match resonance {
                propagator::Resonance::OneDay { dr1, dr2, dr3 } => (
                    // ṅᵢ = 𝛿ᵣ₁ sin(λᵢ - λ₃₁) + 𝛿ᵣ₂ sin(2 (λᵢ - λ₂₂)) + 𝛿ᵣ₃ sin(3 (λᵢ - λ₃₃))
                    dr1 * (self.lambda - LAMBDA31).sin()
                        + dr2 * (2.0 * (self.lambda - LAMBDA22)).sin()
                        + dr3 * (3.0 * (self.lambda - LAMBDA33)).sin(),
                    // n̈ᵢ = (𝛿ᵣ₁ cos(λᵢ - λ₃₁) + 𝛿ᵣ₂ cos(2 (λᵢ - λ₂₂)) + 𝛿ᵣ₃ cos(3 (λᵢ - λ₃₃))) λ̇ᵢ
                    (dr1 * (self.lambda - LAMBDA31).cos()
                        + 2.0 * dr2 * (2.0 * (self.lambda - LAMBDA22)).cos()
                        + 3.0 * dr3 * (3.0 * (self.lambda - LAMBDA33)).cos())
                        * lambda_dot,
                ),
                propagator::Resonance::HalfDay {
                    d2201,
                    d2211,
                    d3210,
                    d3222,
                    d4410,
                    d4422,
                    d5220,
                    d5232,
                    d5421,
                    d5433,
                    k14,
                } => {
                    // ωᵢ = ω₀ + ω̇ tᵢ
                    let argument_of_perigee_i = argument_of_perigee_0 + k14 * self.t;
                    (
                        // ṅᵢ = Σ₍ₗₘₚₖ₎ Dₗₘₚₖ sin((l - 2 p) ωᵢ + m / 2 λᵢ - Gₗₘ)
                        // (l, m, p, k) ∈ {(2, 2, 0, -1), (2, 2, 1, 1), (3, 2, 1, 0),
                        //     (3, 2, 2, 2), (4, 4, 1, 0), (4, 4, 2, 2), (5, 2, 2, 0),
                        //     (5, 2, 3, 2), (5, 4, 2, 1), (5, 4, 3, 3)}
                        d2201 * (2.0 * argument_of_perigee_i + self.lambda - G22).sin()
                            + d2211 * (self.lambda - G22).sin()
                            + d3210 * (argument_of_perigee_i + self.lambda - G32).sin()
                            + d3222 * (-argument_of_perigee_i + self.lambda - G32).sin()
                            + d4410 * (2.0 * argument_of_perigee_i + 2.0 * self.lambda - G44).sin()
                            + d4422 * (2.0 * self.lambda - G44).sin()
                            + d5220 * (argument_of_perigee_i + self.lambda - G52).sin()
                            + d5232 * (-argument_of_perigee_i + self.lambda - G52).sin()
                            + d5421 * (argument_of_perigee_i + 2.0 * self.lambda - G54).sin()
                            + d5433 * (-argument_of_perigee_i + 2.0 * self.lambda - G54).sin(),
                        // n̈ᵢ = (Σ₍ₗₘₚₖ₎ m / 2 Dₗₘₚₖ cos((l - 2 p) ωᵢ + m / 2 λᵢ - Gₗₘ)) λ̇ᵢ
                        // (l, m, p, k) ∈ {(2, 2, 0, -1), (2, 2, 1, 1), (3, 2, 1, 0),
                        //     (3, 2, 2, 2), (4, 4, 1, 0), (4, 4, 2, 2), (5, 2, 2, 0),
                        //     (5, 2, 3, 2), (5, 4, 2, 1), (5, 4, 3, 3)}
                        (d2201 * (2.0 * argument_of_perigee_i + self.lambda - G22).cos()
                            + d2211 * (self.lambda - G22).cos()
                            + d3210 * (argument_of_perigee_i + self.lambda - G32).cos()
                            + d3222 * (-argument_of_perigee_i + self.lambda - G32).cos()
                            + d5220 * (argument_of_perigee_i + self.lambda - G52).cos()
                            + d5232 * (-argument_of_perigee_i + self.lambda - G52).cos()
                            + 2.0
                                * (d4410
                                    * (2.0 * argument_of_perigee_i + 2.0 * self.lambda - G44)
                                        .cos()
                                    + d4422 * (2.0 * self.lambda - G44).cos()
                                    + d5421
                                        * (argument_of_perigee_i + 2.0 * self.lambda - G54).cos()
                                    + d5433
                                        * (-argument_of_perigee_i + 2.0 * self.lambda - G54)
                                            .cos()))
                            * lambda_dot,
                    )
                }
            };
            if (t - delta_t)
                .partial_cmp(&self.t)
                .unwrap_or(Ordering::Equal)
                == ordering
            {
                return (
                    // p₂₈ = (kₑ / (nᵢ + ṅᵢ (t - tᵢ) + ¹/₂ n̈ᵢ (t - tᵢ)²))²ᐟ³
                    (geopotential.ke
                        / (self.mean_motion
                            + ni_dot * (t - self.t)
                            + ni_ddot * (t - self.t).powi(2) * 0.5))
                        .powf(2.0 / 3.0),
                    match resonance {
                        propagator::Resonance::OneDay { .. } => {
                            // p₂₉ = λᵢ + λ̇ᵢ (t - tᵢ) + ¹/₂ ṅᵢ (t - tᵢ)² - p₂₂ - p₂₃ + θ
                            self.lambda
                                + lambda_dot * (t - self.t)
                                + ni_dot * (t - self.t).powi(2) * 0.5
                                - p22
                                - p23
                                + sidereal_time
                        }
                        propagator::Resonance::HalfDay { .. } => {
                            // p₂₉ = λᵢ + λ̇ᵢ (t - tᵢ) + ¹/₂ ṅᵢ (t - tᵢ)² - 2 p₂₂ + 2 θ
                            self.lambda
                                + lambda_dot * (t - self.t)
                                + ni_dot * (t - self.t).powi(2) * 0.5
                                - 2.0 * p22
                                + 2.0 * sidereal_time
                        }
                    },
                );
            }

            // tᵢ₊₁ = tᵢ + Δt
            self.t += delta_t;

            // nᵢ₊₁ = nᵢ + ṅᵢ Δt + n̈ᵢ (Δt² / 2)
            self.mean_motion += ni_dot * delta_t + ni_ddot * (DELTA_T.powi(2) / 2.0);

            // λᵢ₊₁ = λᵢ + λ̇ᵢ Δt + ṅᵢ (Δt² / 2)
            self.lambda += lambda_dot * delta_t + ni_dot * (DELTA_T.powi(2) / 2.0);
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[fwdad::derive_frule]
pub(crate) fn constants(
    geopotential: model::Geopotential,
    epoch_to_sidereal_time: impl Fn(f64) -> f64,
    epoch: f64,
    orbit_0: propagator::Orbit,
    p1: f64,
    a0: f64,
    c1: f64,
    b0: f64,
    c4: f64,
    k0: f64,
    k1: f64,
    k14: f64,
    p2: f64,
    p14: f64,
    p15: f64,
) -> propagator::Constants {
    // d₁₉₀₀ = 365.25 (y₂₀₀₀ + 100)
    let d1900 = (epoch + 100.0) * 365.25;
    let (solar_perturbations, solar_dots) = third_body::perturbations_and_dots(
        orbit_0.inclination,
        orbit_0.eccentricity,
        orbit_0.argument_of_perigee,
        orbit_0.mean_motion,
        // sin Iₛ = 0.39785416
        0.39785416,
        // cos Iₛ = 0.91744867
        0.91744867,
        // sin(Ω₀ - Ωₛ) = sin Ω₀
        orbit_0.right_ascension.sin(),
        // cos(Ω₀ - Ωₛ) = cos Ω₀
        orbit_0.right_ascension.cos(),
        SOLAR_ECCENTRICITY,
        // sin ωₛ = -0.98088458
        -0.98088458,
        // cos ωₛ = 0.1945905
        0.1945905,
        SOLAR_PERTURBATION_COEFFICIENT,
        SOLAR_MEAN_MOTION,
        // Mₛ₀ = (6.2565837 + 0.017201977 d₁₉₀₀) rem 2π
        (6.2565837 + 0.017201977 * d1900) % (2.0 * core::f64::consts::PI),
        p2,
        b0,
    );

    // Ωₗₑ = 4.523602 - 9.2422029 × 10⁻⁴ d₁₉₀₀ rem 2π
    let lunar_right_ascension_epsilon =
        (4.5236020 - 9.2422029e-4 * d1900) % (2.0 * core::f64::consts::PI);

    // cos Iₗ = 0.91375164 - 0.03568096 Ωₗₑ
    let lunar_inclination_cosine = 0.91375164 - 0.03568096 * lunar_right_ascension_epsilon.cos();

    // sin Iₗ = (1 - cos²Iₗ)¹ᐟ²
    let lunar_inclination_sine = (1.0 - lunar_inclination_cosine.powi(2)).sqrt();

    // sin Ωₗ = 0.089683511 sin Ωₗₑ / sin Iₗ
    let lunar_right_ascension_sine =
        0.089683511 * lunar_right_ascension_epsilon.sin() / lunar_inclination_sine;

    // cos Ωₗ = (1 - sin²Ωₗ)¹ᐟ²
    let lunar_right_ascension_cosine = (1.0 - lunar_right_ascension_sine.powi(2)).sqrt();

    // ωₗ = 5.8351514 + 0.001944368 d₁₉₀₀
    //                     0.39785416 sin Ωₗₑ / sin Iₗ
    //      + tan⁻¹ ------------------------------------------ - Ωₗₑ
    //              cos Ωₗ cos Ωₗₑ + 0.91744867 sin Ωₗ sin Ωₗₑ
    let lunar_argument_of_perigee = 5.8351514
        + 0.001944368 * d1900
        + (0.39785416 * lunar_right_ascension_epsilon.sin() / lunar_inclination_sine).atan2(
            lunar_right_ascension_cosine * lunar_right_ascension_epsilon.cos()
                + 0.91744867 * lunar_right_ascension_sine * lunar_right_ascension_epsilon.sin(),
        )
        - lunar_right_ascension_epsilon;
    let (lunar_perturbations, lunar_dots) = third_body::perturbations_and_dots(
        orbit_0.inclination,
        orbit_0.eccentricity,
        orbit_0.argument_of_perigee,
        orbit_0.mean_motion,
        lunar_inclination_sine,
        lunar_inclination_cosine,
        // sin(Ω₀ - Ωₗ) = sin Ω₀ cos Ωₗ - cos Ω₀ sin Ωₗ
        orbit_0.right_ascension.sin() * lunar_right_ascension_cosine
            - orbit_0.right_ascension.cos() * lunar_right_ascension_sine,
        // cos(Ω₀ - Ωₗ) = cos Ωₗ cos Ω₀ + sin Ωₗ sin Ω₀
        lunar_right_ascension_cosine * orbit_0.right_ascension.cos()
            + lunar_right_ascension_sine * orbit_0.right_ascension.sin(),
        LUNAR_ECCENTRICITY,
        lunar_argument_of_perigee.sin(),
        lunar_argument_of_perigee.cos(),
        LUNAR_PERTURBATION_COEFFICIENT,
        LUNAR_MEAN_MOTION,
        // Mₗ₀ = (-1.1151842 + 0.228027132 d₁₉₀₀) rem 2π
        (-1.1151842 + 0.228027132 * d1900) % (2.0 * core::f64::consts::PI),
        p2,
        b0,
    );
    propagator::Constants {
        geopotential,

        // Ω̇ = p₁₄ + (Ω̇ₛ + Ω̇ₗ)
        right_ascension_dot: p14 + (solar_dots.right_ascension + lunar_dots.right_ascension),

        // ω̇ = k₁₄ + (ω̇ₛ + ω̇ₗ)
        argument_of_perigee_dot: k14
            + (solar_dots.argument_of_perigee + lunar_dots.argument_of_perigee),

        // Ṁ = p₁₅ + (Ṁₛ + Ṁₗ)
        mean_anomaly_dot: p15 + (solar_dots.mean_anomaly + lunar_dots.mean_anomaly),
        c1,
        c4,
        k0,
        k1,
        method: propagator::Method::DeepSpace {
            eccentricity_dot: solar_dots.eccentricity + lunar_dots.eccentricity,
            inclination_dot: solar_dots.inclination + lunar_dots.inclination,
            solar_perturbations,
            lunar_perturbations,
            resonant: if (orbit_0.mean_motion < 0.0052359877 && orbit_0.mean_motion > 0.0034906585)
                || (orbit_0.mean_motion >= 8.26e-3
                    && orbit_0.mean_motion <= 9.24e-3
                    && orbit_0.eccentricity >= 0.5)
            {
                let sidereal_time_0 = epoch_to_sidereal_time(epoch);
                if orbit_0.mean_motion < 0.0052359877 && orbit_0.mean_motion > 0.0034906585 {
                    propagator::Resonant::Yes {
                        // λ₀ = M₀ + Ω₀ + ω₀ − θ₀ rem 2π
                        lambda_0: (orbit_0.mean_anomaly
                            + orbit_0.right_ascension
                            + orbit_0.argument_of_perigee
                            - sidereal_time_0)
                            % (2.0 * core::f64::consts::PI),

                        // λ̇₀ = p₁₅ + (k₁₄ + p₁₄) − θ̇ + (Ṁₛ + Ṁₗ) + (ω̇ₛ + ω̇ₗ) + (Ω̇ₛ + Ω̇ₗ) - n₀"
                        lambda_dot_0: p15 + (k14 + p14) - SIDEREAL_SPEED
                            + (solar_dots.mean_anomaly + lunar_dots.mean_anomaly)
                            + (solar_dots.argument_of_perigee + lunar_dots.argument_of_perigee)
                            + (solar_dots.right_ascension + lunar_dots.right_ascension)
                            - orbit_0.mean_motion,
                        sidereal_time_0,
                        resonance: {
                            // p₁₇ = 3 (n / a₀")²
                            let p17 = 3.0 * (orbit_0.mean_motion / a0).powi(2);
                            propagator::Resonance::OneDay {
                                // 𝛿ᵣ₁ = p₁₇ (¹⁵/₁₆ sin²I₀ (1 + 3 p₁) - ³/₄ (1 + p₁))
                                //           (1 + 2 e₀²) 2.1460748 × 10⁻⁶ / a₀"²
                                dr1: p17
                                    * (0.9375
                                        * orbit_0.inclination.sin().powi(2)
                                        * (1.0 + 3.0 * p1)
                                        - 0.75 * (1.0 + p1))
                                    * (1.0 + 2.0 * orbit_0.eccentricity.powi(2))
                                    * 2.1460748e-6
                                    / a0,

                                // 𝛿ᵣ₂ = 2 p₁₇ (³/₄ (1 + p₁)²)
                                //      (1 + e₀² (- ⁵/₂ + ¹³/₁₆ e₀²)) 1.7891679 × 10⁻⁶
                                dr2: 2.0
                                    * p17
                                    * (0.75 * (1.0 + p1).powi(2))
                                    * (1.0
                                        + orbit_0.eccentricity.powi(2)
                                            * (-2.5 + 0.8125 * orbit_0.eccentricity.powi(2)))
                                    * 1.7891679e-6,

                                // 𝛿ᵣ₃ = 3 p₁₇ (¹⁵/₈ (1 + p₁)³) (1 + e₀² (- 6 + 6.60937 e₀²))
                                //       2.2123015 × 10⁻⁷ / a₀"²
                                dr3: 3.0
                                    * p17
                                    * (1.875 * (1.0 + p1).powi(3))
                                    * (1.0
                                        + orbit_0.eccentricity.powi(2)
                                            * (-6.0 + 6.60937 * orbit_0.eccentricity.powi(2)))
                                    * 2.2123015e-7
                                    / a0,
                            }
                        },
                    }
                } else {
                    propagator::Resonant::Yes {
                        // λ₀ = M₀ + 2 Ω₀ − 2 θ₀ rem 2π
                        lambda_0: (orbit_0.mean_anomaly
                            + orbit_0.right_ascension
                            + orbit_0.right_ascension
                            - sidereal_time_0
                            - sidereal_time_0)
                            % (2.0 * core::f64::consts::PI),

                        // λ̇₀ = p₁₅ + (Ṁₛ + Ṁₗ) + 2 (p₁₄ + (Ω̇ₛ + Ω̇ₗ) - θ̇) - n₀"
                        lambda_dot_0: p15
                            + (solar_dots.mean_anomaly + lunar_dots.mean_anomaly)
                            + 2.0
                                * (p14 + (solar_dots.right_ascension + lunar_dots.right_ascension)
                                    - SIDEREAL_SPEED)
                            - orbit_0.mean_motion,
                        sidereal_time_0,
                        resonance: {
                            // p₁₈ = 3 n₀"² / a₀"²
                            let p18 = 3.0 * orbit_0.mean_motion.powi(2) * (1.0 / a0).powi(2);

                            // p₁₉ = p₁₈ / a₀"
                            let p19 = p18 * (1.0 / a0);

                            // p₂₀ = p₁₉ / a₀"
                            let p20 = p19 * (1.0 / a0);

                            // p₂₁ = p₂₀ / a₀"
                            let p21 = p20 * (1.0 / a0);

                            // F₂₂₀ = ³/₄ (1 + 2 p₁ + p₁²)
                            let f220 = 0.75 * (1.0 + 2.0 * p1 + p1.powi(2));

                            // G₂₁₁ = │ 3.616 - 13.247 e₀ + 16.29 e₀²                          if e₀ ≤ 0.65
                            //        │ - 72.099 + 331.819 e₀ - 508.738 e₀² + 266.724 e₀³      otherwise
                            // G₃₁₀ = │ - 19.302 + 117.39 e₀ - 228.419 e₀² + 156.591 e₀³       if e₀ ≤ 0.65
                            //        │ - 346.844 + 1582.851 e₀ - 2415.925 e₀² + 1246.113 e₀³  otherwise
                            // G₃₂₂ = │ - 18.9068 + 109.7927 e₀ - 214.6334 e₀² + 146.5816 e₀³  if e₀ ≤ 0.65
                            //        │ - 342.585 + 1554.908 e₀ - 2366.899 e₀² + 1215.972 e₀³  otherwise
                            // G₄₁₀ = │ - 41.122 + 242.694 e₀ - 471.094 e₀² + 313.953 e₀³      if e₀ ≤ 0.65
                            //        │ - 1052.797 + 4758.686 e₀ - 7193.992 e₀² + 3651.957 e₀³ otherwise
                            // G₄₂₂ = │ - 146.407 + 841.88 e₀ - 1629.014 e₀² + 1083.435 e₀³    if e₀ ≤ 0.65
                            //        │ - 3581.69 + 16178.11 e₀ - 24462.77 e₀² + 12422.52 e₀³  otherwise
                            let (g211, g310, g322, g410, g422) = if orbit_0.eccentricity <= 0.65 {
                                (
                                    3.616 - 13.247 * orbit_0.eccentricity
                                        + 16.29 * orbit_0.eccentricity.powi(2),
                                    -19.302 + 117.39 * orbit_0.eccentricity
                                        - 228.419 * orbit_0.eccentricity.powi(2)
                                        + 156.591 * orbit_0.eccentricity.powi(3),
                                    -18.9068 + 109.7927 * orbit_0.eccentricity
                                        - 214.6334 * orbit_0.eccentricity.powi(2)
                                        + 146.5816 * orbit_0.eccentricity.powi(3),
                                    -41.122 + 242.694 * orbit_0.eccentricity
                                        - 471.094 * orbit_0.eccentricity.powi(2)
                                        + 313.953 * orbit_0.eccentricity.powi(3),
                                    -146.407 + 841.88 * orbit_0.eccentricity
                                        - 1629.014 * orbit_0.eccentricity.powi(2)
                                        + 1083.435 * orbit_0.eccentricity.powi(3),
                                )
                            } else {
                                (
                                    -72.099 + 331.819 * orbit_0.eccentricity
                                        - 508.738 * orbit_0.eccentricity.powi(2)
                                        + 266.724 * orbit_0.eccentricity.powi(3),
                                    -346.844 + 1582.851 * orbit_0.eccentricity
                                        - 2415.925 * orbit_0.eccentricity.powi(2)
                                        + 1246.113 * orbit_0.eccentricity.powi(3),
                                    -342.585 + 1554.908 * orbit_0.eccentricity
                                        - 2366.899 * orbit_0.eccentricity.powi(2)
                                        + 1215.972 * orbit_0.eccentricity.powi(3),
                                    -1052.797 + 4758.686 * orbit_0.eccentricity
                                        - 7193.992 * orbit_0.eccentricity.powi(2)
                                        + 3651.957 * orbit_0.eccentricity.powi(3),
                                    -3581.69 + 16178.11 * orbit_0.eccentricity
                                        - 24462.77 * orbit_0.eccentricity.powi(2)
                                        + 12422.52 * orbit_0.eccentricity.powi(3),
                                )
                            };

                            // G₅₂₀ = │ - 532.114 + 3017.977 e₀ - 5740.032 e₀² + 3708.276 e₀³ if e₀ ≤ 0.65
                            //        │ 1464.74 - 4664.75 e₀ + 3763.64 e₀²                    if 0.65 < e₀ < 0.715
                            //        │ - 5149.66 + 29936.92 e₀ - 54087.36 e₀² + 31324.56 e₀³ otherwise
                            let g520 = if orbit_0.eccentricity <= 0.65 {
                                -532.114 + 3017.977 * orbit_0.eccentricity
                                    - 5740.032 * orbit_0.eccentricity.powi(2)
                                    + 3708.276 * orbit_0.eccentricity.powi(3)
                            } else if orbit_0.eccentricity < 0.715 {
                                1464.74 - 4664.75 * orbit_0.eccentricity
                                    + 3763.64 * orbit_0.eccentricity.powi(2)
                            } else {
                                -5149.66 + 29936.92 * orbit_0.eccentricity
                                    - 54087.36 * orbit_0.eccentricity.powi(2)
                                    + 31324.56 * orbit_0.eccentricity.powi(3)
                            };

                            // G₅₃₂ = │ - 853.666 + 4690.25 e₀ - 8624.77 e₀² + 5341.4 e₀³          if e₀ < 0.7
                            //        │ - 40023.88 + 170470.89 e₀ - 242699.48 e₀² + 115605.82 e₀³  otherwise
                            // G₅₂₁ = │ - 822.71072 + 4568.6173 e₀ - 8491.4146 e₀² + 5337.524 e₀³  if e₀ < 0.7
                            //        │ - 51752.104 + 218913.95 e₀ - 309468.16 e₀² + 146349.42 e₀³ otherwise
                            // G₅₃₃ = │ - 919.2277 + 4988.61 e₀ - 9064.77 e₀² + 5542.21 e₀³        if e₀ < 0.7
                            //        │ - 37995.78 + 161616.52 e₀ - 229838.2 e₀² + 109377.94 e₀³   otherwise
                            let (g532, g521, g533) = if orbit_0.eccentricity < 0.7 {
                                (
                                    -853.666 + 4690.25 * orbit_0.eccentricity
                                        - 8624.77 * orbit_0.eccentricity.powi(2)
                                        + 5341.4 * orbit_0.eccentricity.powi(3),
                                    -822.71072 + 4568.6173 * orbit_0.eccentricity
                                        - 8491.4146 * orbit_0.eccentricity.powi(2)
                                        + 5337.524 * orbit_0.eccentricity.powi(3),
                                    -919.2277 + 4988.61 * orbit_0.eccentricity
                                        - 9064.77 * orbit_0.eccentricity.powi(2)
                                        + 5542.21 * orbit_0.eccentricity.powi(3),
                                )
                            } else {
                                (
                                    -40023.88 + 170470.89 * orbit_0.eccentricity
                                        - 242699.48 * orbit_0.eccentricity.powi(2)
                                        + 115605.82 * orbit_0.eccentricity.powi(3),
                                    -51752.104 + 218913.95 * orbit_0.eccentricity
                                        - 309468.16 * orbit_0.eccentricity.powi(2)
                                        + 146349.42 * orbit_0.eccentricity.powi(3),
                                    -37995.78 + 161616.52 * orbit_0.eccentricity
                                        - 229838.2 * orbit_0.eccentricity.powi(2)
                                        + 109377.94 * orbit_0.eccentricity.powi(3),
                                )
                            };

                            propagator::Resonance::HalfDay {
                                // D₂₂₀₋₁ = p₁₈ 1.7891679 × 10⁻⁶ F₂₂₀ (- 0.306 - 0.44 (e₀ - 0.64))
                                d2201: p18
                                    * 1.7891679e-6
                                    * f220
                                    * (-0.306 - (orbit_0.eccentricity - 0.64) * 0.44),

                                // D₂₂₁₁ = p₁₈ 1.7891679 × 10⁻⁶ (³/₂ sin²I₀) G₂₁₁
                                d2211: p18
                                    * 1.7891679e-6
                                    * (1.5 * orbit_0.inclination.sin().powi(2))
                                    * g211,

                                // D₃₂₁₀ = p₁₉ 3.7393792 × 10⁻⁷ (¹⁵/₈ sin I₀ (1 - 2 p₁ - 3 p₁²)) G₃₁₀
                                d3210: p19
                                    * 3.7393792e-7
                                    * (1.875
                                        * orbit_0.inclination.sin()
                                        * (1.0 - 2.0 * p1 - 3.0 * p1.powi(2)))
                                    * g310,

                                // D₃₂₂₂ = p₁₉ 3.7393792 × 10⁻⁷ (- ¹⁵/₈ sin I₀ (1 + 2 p₁ - 3 p₁²)) G₃₂₂
                                d3222: p19
                                    * 3.7393792e-7
                                    * (-1.875
                                        * orbit_0.inclination.sin()
                                        * (1.0 + 2.0 * p1 - 3.0 * p1.powi(2)))
                                    * g322,

                                // D₄₄₁₀ = 2 p₂₀ 7.3636953 × 10⁻⁹ (35 sin²I₀ F₂₂₀) G₄₁₀
                                d4410: 2.0
                                    * p20
                                    * 7.3636953e-9
                                    * (35.0 * orbit_0.inclination.sin().powi(2) * f220)
                                    * g410,

                                // D₄₄₂₂ = 2 p₂₀ 7.3636953 × 10⁻⁹ (³¹⁵/₈ sin⁴I₀) G₄₂₂
                                d4422: 2.0
                                    * p20
                                    * 7.3636953e-9
                                    * (39.375 * orbit_0.inclination.sin().powi(4))
                                    * g422,

                                // D₅₂₂₀ = p₂₁ 1.1428639 × 10⁻⁷ (³¹⁵/₃₂ sin I₀
                                //         (sin²I₀ (1 - 2 p₁ - 5 p₁²)
                                //         + 0.33333333 (- 2 + 4 p₁ + 6 p₁²))) G₅₂₀
                                d5220: p21
                                    * 1.1428639e-7
                                    * (9.84375
                                        * orbit_0.inclination.sin()
                                        * (orbit_0.inclination.sin().powi(2)
                                            * (1.0 - 2.0 * p1 - 5.0 * p1.powi(2))
                                            + 0.33333333 * (-2.0 + 4.0 * p1 + 6.0 * p1.powi(2))))
                                    * g520,

                                // D₅₂₃₂ = p₂₁ 1.1428639 × 10⁻⁷ (sin I₀
                                //         (4.92187512 sin²I₀ (- 2 - 4 p₁ + 10 p₁²)
                                //         + 6.56250012 (1 + p₁ - 3 p₁²))) G₅₃₂
                                d5232: p21
                                    * 1.1428639e-7
                                    * (orbit_0.inclination.sin()
                                        * (4.92187512
                                            * orbit_0.inclination.sin().powi(2)
                                            * (-2.0 - 4.0 * p1 + 10.0 * p1.powi(2))
                                            + 6.56250012 * (1.0 + 2.0 * p1 - 3.0 * p1.powi(2))))
                                    * g532,

                                // D₅₄₂₁ = 2 p₂₁ 2.1765803 × 10⁻⁹ (⁹⁴⁵/₃₂ sin I₀
                                //         (2 - 8 p₁ + p₁² (- 12 + 8 p₁ + 10 p₁²))) G₅₂₁
                                d5421: 2.0
                                    * p21
                                    * 2.1765803e-9
                                    * (29.53125
                                        * orbit_0.inclination.sin()
                                        * (2.0 - 8.0 * p1
                                            + p1.powi(2) * (-12.0 + 8.0 * p1 + 10.0 * p1.powi(2))))
                                    * g521,

                                // D₅₄₃₃ = 2 p₂₁ 2.1765803 × 10⁻⁹ (⁹⁴⁵/₃₂ sin I₀
                                //         (- 2 - 8 p₁ + p₁² (12 + 8 p₁ - 10 p₁²))) G₅₃₃
                                d5433: 2.0
                                    * p21
                                    * 2.1765803e-9
                                    * (29.53125
                                        * orbit_0.inclination.sin()
                                        * (-2.0 - 8.0 * p1
                                            + p1.powi(2) * (12.0 + 8.0 * p1 - 10.0 * p1.powi(2))))
                                    * g533,
                                k14,
                            }
                        },
                    }
                }
            } else {
                propagator::Resonant::No { a0 }
            },
        },
        orbit_0,
    }
}

#[fwdad::derive_frule]
impl propagator::Constants {
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub(crate) fn deep_space_orbital_elements(
        &self,
        eccentricity_dot: f64,
        inclination_dot: f64,
        solar_perturbations: &third_body::Perturbations,
        lunar_perturbations: &third_body::Perturbations,
        resonant: &propagator::Resonant,
        state: Option<&mut ResonanceState>,
        t: f64,
        p22: f64,
        p23: f64,
        afspc_compatibility_mode: bool,
    ) -> core::result::Result<(propagator::Orbit, f64, f64, f64, f64, f64, f64), gp::Error> {
        let (p28, p29) = match resonant {
            propagator::Resonant::No { a0 } => {
                assert!(
                    state.is_none(),
                    "state must be None with a non-resonant deep-space propagator",
                );
                (
                    // p₂₈ = a₀"
                    *a0,
                    // p₂₉ = M₀ + Ṁ t
                    self.orbit_0.mean_anomaly + self.mean_anomaly_dot * t,
                )
            }
            propagator::Resonant::Yes {
                lambda_dot_0,
                sidereal_time_0,
                resonance,
                ..
            } => match state {
                Some(state) => state.integrate(
                    &self.geopotential,
                    self.orbit_0.argument_of_perigee,
                    *lambda_dot_0,
                    resonance,
                    *sidereal_time_0,
                    t,
                    p22,
                    p23,
                ),
                _ => panic!("state cannot be None with a deep space propagator"),
            },
        };
        let (solar_delta_eccentricity, solar_delta_inclination, solar_delta_mean_motion, ps4, ps5) =
            solar_perturbations.long_period_periodic_effects(
                SOLAR_ECCENTRICITY,
                SOLAR_MEAN_MOTION,
                t,
            );
        let (lunar_delta_eccentricity, lunar_delta_inclination, lunar_delta_mean_motion, pl4, pl5) =
            lunar_perturbations.long_period_periodic_effects(
                LUNAR_ECCENTRICITY,
                LUNAR_MEAN_MOTION,
                t,
            );

        // I = I₀ + İ t + (δIₛ + δIₗ)
        let inclination = self.orbit_0.inclination
            + inclination_dot * t
            + (solar_delta_inclination + lunar_delta_inclination);
        let (right_ascension, argument_of_perigee) = if inclination >= 0.2 {
            (
                // Ω = p₂₂ + (pₛ₅ + pₗ₅) / sin I
                p22 + (ps5 + pl5) / inclination.sin(),
                // ω = p₂₃ + (pₛ₄ + pₗ₄) - cos I (pₛ₅ + pₗ₅) / sin I
                p23 + (ps4 + pl4) - inclination.cos() * ((ps5 + pl5) / inclination.sin()),
            )
        } else {
            //             sin I sin p₂₂ + (pₛ₅ + pₗ₅) cos p₂₂ + (δIₛ + δIₗ) cos I sin p₂₂
            // p₃₀ = tan⁻¹ -------------------------------------------------------------
            //             sin I cos p₂₂ - (pₛ₅ + pₗ₅) sin p₂₂ + (δIₛ + δIₗ) cos I cos p₂₂
            let p30 = (inclination.sin() * p22.sin()
                + ((ps5 + pl5) * p22.cos()
                    + (solar_delta_inclination + lunar_delta_inclination)
                        * inclination.cos()
                        * p22.sin()))
            .atan2(
                inclination.sin() * p22.cos()
                    + (-(ps5 + pl5) * p22.sin()
                        + (solar_delta_inclination + lunar_delta_inclination)
                            * inclination.cos()
                            * p22.cos()),
            );

            // Ω = │ p₃₀ + 2π if p₃₀ + π < p₂₂ rem 2π
            //     │ p₃₀ - 2π if p₃₀ - π > p₂₂ rem 2π
            //     │ p₃₀      otherwise
            let right_ascension =
                if p30 < p22 % (2.0 * core::f64::consts::PI) - core::f64::consts::PI {
                    p30 + (2.0 * core::f64::consts::PI)
                } else if p30 > p22 % (2.0 * core::f64::consts::PI) + core::f64::consts::PI {
                    p30 - (2.0 * core::f64::consts::PI)
                } else {
                    p30
                };
            (
                right_ascension,
                // ω = │ p₂₃ + (pₛ₄ + pₗ₄) + cos I ((p₂₂ rem 2π) - Ω)
                //     │ - (δIₛ + δIₗ) (p₂₂ mod 2π) sin I             if AFSPC compatibility mode
                // ω = │ p₂₃ + (pₛ₄ + pₗ₄) + cos I ((p₂₂ rem 2π) - Ω)
                //     │ - (δIₛ + δIₗ) (p₂₂ rem 2π) sin I             otherwise
                p23 + (ps4 + pl4)
                    + inclination.cos() * (p22 % (2.0 * core::f64::consts::PI) - right_ascension)
                    - (solar_delta_inclination + lunar_delta_inclination)
                        * if afspc_compatibility_mode {
                            #[cfg(feature = "std")]
                            {
                                p22.rem_euclid(2.0 * core::f64::consts::PI)
                            }
                            #[cfg(not(feature = "std"))]
                            {
                                Euclid::rem_euclid(&p22, &(2.0 * core::f64::consts::PI))
                            }
                        } else {
                            p22 % (2.0 * core::f64::consts::PI)
                        }
                        * inclination.sin(),
            )
        };

        // p₃₁ = e₀ + ė t - C₄ t
        let p31 = self.orbit_0.eccentricity + eccentricity_dot * t - self.c4 * t;
        if !(-0.001..1.0).contains(&p31) {
            Err(gp::Error::OutOfRangeEccentricity {
                eccentricity: p31,
                t,
            })
        } else {
            // e = │ 10⁻⁶ + (δeₛ + δeₗ) if p₃₁ < 10⁻⁶
            //     │ p₃₁ + (δeₛ + δeₗ)  otherwise
            let eccentricity =
                (p31).max(1.0e-6) + (solar_delta_eccentricity + lunar_delta_eccentricity);
            if !(0.0..=1.0).contains(&eccentricity) {
                Err(gp::Error::OutOfRangePerturbedEccentricity { eccentricity, t })
            } else {
                // a = p₂₈ (1 - C₁ t)²
                let a = p28 * (1.0 - self.c1 * t).powi(2);
                Ok((
                    propagator::Orbit {
                        inclination,
                        right_ascension,
                        eccentricity,
                        argument_of_perigee,

                        // M = p₂₉ + (δMₛ + δMₗ) + n₀" k₁ t²
                        mean_anomaly: p29
                            + (solar_delta_mean_motion + lunar_delta_mean_motion)
                            + self.orbit_0.mean_motion * self.k1 * t.powi(2),

                        // n = kₑ / a³ᐟ²
                        mean_motion: self.geopotential.ke / a.powf(1.5),
                    },
                    a,
                    //         1 J₃
                    // p₃₂ = - - -- sin I
                    //         2 J₂
                    -0.5 * (self.geopotential.j3 / self.geopotential.j2) * inclination.sin(),
                    // p₃₃ = 1 - cos²I
                    1.0 - inclination.cos().powi(2),
                    // p₃₄ = 7 cos²I - 1
                    7.0 * inclination.cos().powi(2) - 1.0,
                    //       │   1 J₃       3 + 5 cos I
                    // p₃₅ = │ - - -- sin I ----------- if |1 + cos I| > 1.5 × 10⁻¹²
                    //       │   4 J₂        1 + cos I
                    //       │   1 J₃       3 + 5 cos I
                    //       │ - - -- sin I ----------- otherwise
                    //       │   4 J₂       1.5 × 10⁻¹²
                    if (1.0 + inclination.cos()).abs() > 1.5e-12 {
                        -0.25
                            * (self.geopotential.j3 / self.geopotential.j2)
                            * inclination.sin()
                            * (3.0 + 5.0 * inclination.cos())
                            / (1.0 + inclination.cos())
                    } else {
                        -0.25
                            * (self.geopotential.j3 / self.geopotential.j2)
                            * inclination.sin()
                            * (3.0 + 5.0 * inclination.cos())
                            / 1.5e-12
                    },
                    // p₃₆ = 3 cos²I - 1
                    3.0 * inclination.cos().powi(2) - 1.0,
                ))
            }
        }
    }
}
}

/// `src/third_body.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
mod third_body {
#[cfg(not(feature = "std"))]
use num_traits::Float;

#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Perturbations {
    kx0: f64,
    kx1: f64,
    kx2: f64,
    kx3: f64,
    kx4: f64,
    kx5: f64,
    kx6: f64,
    kx7: f64,
    kx8: f64,
    kx9: f64,
    kx10: f64,
    kx11: f64,
    third_body_mean_anomaly_0: f64,
}

#[derive(Debug, Clone, PartialEq, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Dots {
    pub(crate) inclination: f64,
    pub(crate) right_ascension: f64,
    pub(crate) eccentricity: f64,
    pub(crate) argument_of_perigee: f64,
    pub(crate) mean_anomaly: f64,
}

// inclination_0: the angle between the equator and the orbit plane i₀, in rad
// right_ascension: the angle between vernal equinox and the point where
//                  the orbit crosses the equatorial plane Ω₀, in rad
// eccentricity_0: the shape of the orbit e₀
// argument_of_perigee: the angle between the ascending node and the orbit's
//                      point of closest approach to the earth ω₀, in rad
// n0: mean number of orbits per day (Brouwer mean motion) n₀", in rad.min⁻¹
// third_body_inclination_sine: the sine of the third body's inclination_0 sin Iₓ
// third_body_inclination_cosine: the cosine of the third body's inclination_0 cos Iₓ
// delta_right_ascension_sine: the sine of the third body's relative
//                             right ascension of the ascending node sin(Ω₀ - Ωₓ)
// delta_right_ascension_cosine: the cosine of the third body's relative
//                               right ascension of the ascending node cos(Ω₀ - Ωₓ)
// eccentricity_0: the third body's eccentricity_0 eₓ
// third_body_argument_of_perigee_sine: the sine of the third body's argument of perigee sin ωₓ
// third_body_argument_of_perigee_cosine: the cosine of the third body's argument of perigee cos ωₓ
// third_body_perturbation_coefficient: linear scaling factor Cₓ, in rad.min⁻¹
// third_body_mean_motion: the third body's mean motion nₓ
// p1: the constant p₁ = 1 − e₀²
// b0: the constant β₀ = p₁¹ᐟ²
#[allow(clippy::too_many_arguments)]
#[fwdad::derive_frule]
pub(crate) fn perturbations_and_dots(
    inclination_0: f64,
    eccentricity_0: f64,
    argument_of_perigee_0: f64,
    n0: f64,
    third_body_inclination_sine: f64,
    third_body_inclination_cosine: f64,
    delta_right_ascension_sine: f64,
    delta_right_ascension_cosine: f64,
    third_body_eccentricity: f64,
    third_body_argument_of_perigee_sine: f64,
    third_body_argument_of_perigee_cosine: f64,
    third_body_perturbation_coefficient: f64,
    third_body_mean_motion: f64,
    third_body_mean_anomaly_0: f64,
    p1: f64,
    b0: f64,
) -> (Perturbations, Dots) {
    // aₓ₁ = cos ωₓ cos(Ω₀ - Ωₓ) + sin ωₓ cos Iₓ sin(Ω₀ - Ωₓ)
    let ax1 = third_body_argument_of_perigee_cosine * delta_right_ascension_cosine
        + third_body_argument_of_perigee_sine
            * third_body_inclination_cosine
            * delta_right_ascension_sine;

    // aₓ₃ = - sin ωₓ cos(Ω₀ - Ωₓ) + cos ωₓ cos Iₓ sin(Ω₀ - Ωₓ)
    let ax3 = -third_body_argument_of_perigee_sine * delta_right_ascension_cosine
        + third_body_argument_of_perigee_cosine
            * third_body_inclination_cosine
            * delta_right_ascension_sine;

    // aₓ₇ = - cos ωₓ sin(Ω₀ - Ωₓ) + sin ωₓ cos Iₓ cos(Ω₀ - Ωₓ)
    let ax7 = -third_body_argument_of_perigee_cosine * delta_right_ascension_sine
        + third_body_argument_of_perigee_sine
            * third_body_inclination_cosine
            * delta_right_ascension_cosine;

    // aₓ₈ = sin ωₓ sin Iₓ
    let ax8 = third_body_argument_of_perigee_sine * third_body_inclination_sine;

    // aₓ₉ = sin ωₓ sin(Ω₀ - Ωₓ) + cos ωₓ cos Iₓ cos(Ω₀ - Ωₓ)
    let ax9 = third_body_argument_of_perigee_sine * delta_right_ascension_sine
        + third_body_argument_of_perigee_cosine
            * third_body_inclination_cosine
            * delta_right_ascension_cosine;

    // aₓ₁₀ = cos ωₓ sin Iₓ
    let ax10 = third_body_argument_of_perigee_cosine * third_body_inclination_sine;

    // aₓ₂ = aₓ₇ cos I₀ + aₓ₈ sin I₀
    let ax2 = inclination_0.cos() * ax7 + inclination_0.sin() * ax8;

    // aₓ₄ = aₓ₉ cos I₀ + aₓ₁₀ sin I₀
    let ax4 = inclination_0.cos() * ax9 + inclination_0.sin() * ax10;

    // aₓ₅ = - aₓ₇ sin I₀ + aₓ₈ cos I₀
    let ax5 = -inclination_0.sin() * ax7 + inclination_0.cos() * ax8;

    // aₓ₆ = - aₓ₉ sin I₀ + aₓ₁₀ cos I₀
    let ax6 = -inclination_0.sin() * ax9 + inclination_0.cos() * ax10;

    // Xₓ₁ = aₓ₁ cos ω₀ + aₓ₂ sin ω₀
    let xx1 = ax1 * argument_of_perigee_0.cos() + ax2 * argument_of_perigee_0.sin();

    // Xₓ₂ = aₓ₃ cos ω₀ + aₓ₄ sin ω₀
    let xx2 = ax3 * argument_of_perigee_0.cos() + ax4 * argument_of_perigee_0.sin();

    // Xₓ₃ = - aₓ₁ sin ω₀ + aₓ₂ cos ω₀
    let xx3 = -ax1 * argument_of_perigee_0.sin() + ax2 * argument_of_perigee_0.cos();

    // Xₓ₄ = - aₓ₃ sin ω₀ + aₓ₄ cos ω₀
    let xx4 = -ax3 * argument_of_perigee_0.sin() + ax4 * argument_of_perigee_0.cos();

    // Xₓ₅ = aₓ₅ sin ω₀
    let xx5 = ax5 * argument_of_perigee_0.sin();

    // Xₓ₆ = aₓ₆ sin ω₀
    let xx6 = ax6 * argument_of_perigee_0.sin();

    // Xₓ₇ = aₓ₅ cos ω₀
    let xx7 = ax5 * argument_of_perigee_0.cos();

    // Xₓ₈ = aₓ₆ cos ω₀
    let xx8 = ax6 * argument_of_perigee_0.cos();

    // Zₓ₃₁ = 12 Xₓ₁² - 3 Xₓ₃²
    let zx31 = 12.0 * xx1.powi(2) - 3.0 * xx3.powi(2);

    // Zₓ₃₂ = 24 Xₓ₁ Xₓ₂ - 6 Xₓ₃ Xₓ₄
    let zx32 = 24.0 * xx1 * xx2 - 6.0 * xx3 * xx4;

    // Zₓ₃₃ = 12 Xₓ₂² - 3 Xₓ₄²
    let zx33 = 12.0 * xx2.powi(2) - 3.0 * xx4.powi(2);

    // Zₓ₁₁ = - 6 aₓ₁ aₓ₅ + e₀² (- 24 Xₓ₁ Xₓ₇ - 6 Xₓ₃ Xₓ₅)
    let zx11 = -6.0 * ax1 * ax5 + eccentricity_0.powi(2) * (-24.0 * xx1 * xx7 - 6.0 * xx3 * xx5);

    // Zₓ₁₃ = - 6 aₓ₃ aₓ₆ + e₀² (-24 Xₓ₂ Xₓ₈ - 6 Xₓ₄ Xₓ₆)
    let zx13 = -6.0 * ax3 * ax6 + eccentricity_0.powi(2) * (-24.0 * xx2 * xx8 - 6.0 * xx4 * xx6);

    // Zₓ₂₁ = 6 aₓ₂ aₓ₅ + e₀² (24.0 Xₓ₁ Xₓ₅ - 6 Xₓ₃ Xₓ₇)
    let zx21 = 6.0 * ax2 * ax5 + eccentricity_0.powi(2) * (24.0 * xx1 * xx5 - 6.0 * xx3 * xx7);

    // Zₓ₂₃ = 6 aₓ₄ aₓ₆ + e₀² (24 Xₓ₂ Xₓ₆ - 6 Xₓ₄ Xₓ₈)
    let zx23 = 6.0 * ax4 * ax6 + eccentricity_0.powi(2) * (24.0 * xx2 * xx6 - 6.0 * xx4 * xx8);

    // Zₓ₁ = 2 (3 (aₓ₁² + aₓ₂²) + Zₓ₃₁ e₀²) + p₁ Zₓ₃₁
    let zx1 = (3.0 * (ax1.powi(2) + ax2.powi(2)) + zx31 * eccentricity_0.powi(2)) * 2.0 + p1 * zx31;

    // Zₓ₃ = 2 (3 (aₓ₃² + aₓ₄²) + Zₓ₃₃ e₀²) + p₁ Zₓ₃₃
    let zx3 = (3.0 * (ax3.powi(2) + ax4.powi(2)) + zx33 * eccentricity_0.powi(2)) * 2.0 + p1 * zx33;

    // pₓ₀ = Cₓ / n₀"
    let px0 = third_body_perturbation_coefficient / n0;

    //         1 pₓ₀
    // pₓ₁ = - - ---
    //         2 β₀
    let px1 = -0.5 * px0 / b0;

    // pₓ₂ = pₓ₀ β₀
    let px2 = px0 * b0;

    // pₓ₃ = - 15 e₀ pₓ₂
    let px3 = -15.0 * eccentricity_0 * px2;

    // Ω̇ₓ = │ 0                               if I₀ < 5.2359877 × 10⁻²
    //      │                                 or I₀ > π - 5.2359877 × 10⁻²
    //      │ - nₓ pₓ₁ (Zₓ₂₁ + Zₓ₂₃) / sin I₀ otherwise
    let third_body_right_ascension_dot =
        if !(5.2359877e-2..=core::f64::consts::PI - 5.2359877e-2).contains(&inclination_0) {
            0.0
        } else {
            -third_body_mean_motion * px1 * (zx21 + zx23) / inclination_0.sin()
        };
    (
        Perturbations {
            // kₓ₀ = 2 pₓ₃ (Xₓ₂ Xₓ₃ + Xₓ₁ Xₓ₄)
            kx0: 2.0 * px3 * (xx2 * xx3 + xx1 * xx4),

            // kₓ₁ = 2 pₓ₃ (Xₓ₂ Xₓ₄ - Xₓ₁ Xₓ₃)
            kx1: 2.0 * px3 * (xx2 * xx4 - xx1 * xx3),

            // kₓ₂ = 2 pₓ₁ (- 6 (aₓ₁ aₓ₆ + aₓ₃ aₓ₅) + e₀² (- 24 (Xₓ₂ Xₓ₇ + Xₓ₁ Xₓ₈) - 6 (Xₓ₃ Xₓ₆ + Xₓ₄ Xₓ₅)))
            kx2: 2.0
                * px1
                * (-6.0 * (ax1 * ax6 + ax3 * ax5)
                    + eccentricity_0.powi(2)
                        * (-24.0 * (xx2 * xx7 + xx1 * xx8) - 6.0 * (xx3 * xx6 + xx4 * xx5))),

            // kₓ₃ = 2 pₓ₁ (Zₓ₁₃ - Zₓ₁₁)
            kx3: 2.0 * px1 * (zx13 - zx11),

            // kₓ₄ = - 2 pₓ₀ (2 (6 (aₓ₁ aₓ₃ + aₓ₂ aₓ₄) + Zₓ₃₂ e₀²) + p₁ Zₓ₃₂)
            kx4: -2.0
                * px0
                * ((6.0 * (ax1 * ax3 + ax2 * ax4) + zx32 * eccentricity_0.powi(2)) * 2.0
                    + p1 * zx32),

            // kₓ₅ = - 2 pₓ₀ (Zₓ₃ - Zₓ₁)
            kx5: -2.0 * px0 * (zx3 - zx1),

            // kₓ₆ = - 2 pₓ₀ (- 21 - 9 e₀²) eₓ
            kx6: -2.0 * px0 * (-21.0 - 9.0 * eccentricity_0.powi(2)) * third_body_eccentricity,

            // kₓ₇ = 2 pₓ₂ Zₓ₃₂
            kx7: 2.0 * px2 * zx32,

            // kₓ₈ = 2 pₓ₂ (Zₓ₃₃ - Zₓ₃₁)
            kx8: 2.0 * px2 * (zx33 - zx31),

            // kₓ₉ = - 18 pₓ₂ eₓ
            kx9: -18.0 * px2 * third_body_eccentricity,

            // kₓ₁₀ = - 2 pₓ₁ (6 (aₓ₄ aₓ₅ + aₓ₂ aₓ₆) + e₀² (24 (Xₓ₂ Xₓ₅ + Xₓ₁ Xₓ₆) - 6 (Xₓ₄ Xₓ₇ + Xₓ₃ Xₓ₈)))
            kx10: -2.0
                * px1
                * (6.0 * (ax4 * ax5 + ax2 * ax6)
                    + eccentricity_0.powi(2)
                        * (24.0 * (xx2 * xx5 + xx1 * xx6) - 6.0 * (xx4 * xx7 + xx3 * xx8))),

            // kₓ₁₁ = - 2 pₓ₁ (Zₓ₂₃ - Zₓ₂₁)
            kx11: -2.0 * px1 * (zx23 - zx21),
            third_body_mean_anomaly_0,
        },
        Dots {
            // İₓ = pₓ₁ nₓ (Zₓ₁₁ + Zₓ₁₃)
            inclination: px1 * third_body_mean_motion * (zx11 + zx13),
            right_ascension: third_body_right_ascension_dot,

            // ėₓ = pₓ₃ nₓ (Xₓ₁ Xₓ₃ + Xₓ₂ Xₓ₄)
            eccentricity: px3 * third_body_mean_motion * (xx1 * xx3 + xx2 * xx4),

            // ω̇ₓ = pₓ₂ nₓ (Zₓ₃₁ + Zₓ₃₃ - 6) - cos I₀ Ω̇ₓ
            argument_of_perigee: px2 * third_body_mean_motion * (zx31 + zx33 - 6.0)
                - inclination_0.cos() * third_body_right_ascension_dot,

            // Ṁₓ = - nₓ pₓ₀ (Zₓ₁ + Zₓ₃ - 14 - 6 e₀²)
            mean_anomaly: -third_body_mean_motion
                * px0
                * (zx1 + zx3 - 14.0 - 6.0 * eccentricity_0.powi(2)),
        },
    )
}

#[fwdad::derive_frule]
impl Perturbations {
    pub(crate) fn long_period_periodic_effects(
        &self,
        third_body_eccentricity: f64,
        third_body_mean_motion: f64,
        t: f64,
    ) -> (f64, f64, f64, f64, f64) {
        // Mₓ = Mₓ₀ + nₓ t
        let third_body_mean_anomaly = self.third_body_mean_anomaly_0 + third_body_mean_motion * t;

        // fₓ = Mₓ + 2 eₓ sin Mₓ
        let fx =
            third_body_mean_anomaly + 2.0 * third_body_eccentricity * third_body_mean_anomaly.sin();

        // Fₓ₂ = ¹/₂ sin²fₓ - ¹/₄
        let fx2 = 0.5 * fx.sin().powi(2) - 0.25;

        // Fₓ₃ = - ¹/₂ sin fₓ cos fₓ
        let fx3 = -0.5 * fx.sin() * fx.cos();
        (
            // δeₓ = kₓ₀ Fₓ₂ + kₓ₁ Fₓ₃
            self.kx0 * fx2 + self.kx1 * fx3,
            // δIₓ = kₓ₂ Fₓ₂ + kₓ₃ Fₓ₃
            self.kx2 * fx2 + self.kx3 * fx3,
            // δMₓ = kₓ₄ Fₓ₂ + kₓ₅ Fₓ₃ + kₓ₆ sin fₓ
            self.kx4 * fx2 + self.kx5 * fx3 + self.kx6 * fx.sin(),
            // pₓ₄ = kₓ₇ Fₓ₂ + kₓ₈ Fₓ₃ + kₓ₉ sin fₓ
            self.kx7 * fx2 + self.kx8 * fx3 + self.kx9 * fx.sin(),
            // pₓ₅ = kₓ₁₀ Fₓ₂ + kₓ₁₁ Fₓ₃
            self.kx10 * fx2 + self.kx11 * fx3,
        )
    }
}
}

/// From `src/tle.rs`: the time type only (the TLE and OMM parsers are left out).
#[rustfmt::skip]
mod tle {
/// Minutes ellapsed since the elements' epoch
///
/// This number can be negative since SGP4 can propagate back in time.
#[derive(Debug, Clone, Copy, PartialEq, fwdad::Differentiable)]
pub struct MinutesSinceEpoch(pub f64);
}

// From `src/lib.rs`: the crate root's items, without `from_elements` and
// `from_elements_afspc_compatibility_mode` (they take the TLE parser's `Elements`).
pub use deep_space::ResonanceState;
pub use gp::Error;
pub use model::afspc_epoch_to_sidereal_time;
pub use model::iau_epoch_to_sidereal_time;
pub use model::Geopotential;
pub use model::WGS72;
pub use model::WGS84;
pub use propagator::Constants;
pub use propagator::Orbit;
pub use propagator::Prediction;
pub use tle::MinutesSinceEpoch;

#[rustfmt::skip]
#[allow(clippy::all, dead_code)]
mod root {
use super::*;
/// Represents a propagation error caused by orbital elements divergence
#[derive(Debug, Clone, PartialEq)]
pub enum KozaiElementsError {
    NegativeKozaiMeanMotion,
    NegativeBrouwerMeanMotion,
}

impl core::fmt::Display for KozaiElementsError {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            KozaiElementsError::NegativeKozaiMeanMotion => formatter
                .write_str("The Kozai mean motion calculated from epoch elements is negative"),
            KozaiElementsError::NegativeBrouwerMeanMotion => formatter
                .write_str("The Brouwer mean motion calculated from epoch elements is negative"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for KozaiElementsError {}

/// The orbit used to generate epoch constants has an invalid eccentricity
#[derive(Debug, Clone, PartialEq)]
pub struct OutOfRangeEpochEccentricity(pub f64);

impl core::fmt::Display for OutOfRangeEpochEccentricity {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        formatter.write_fmt(core::format_args!(
            "The epoch eccentricity ({}) is outside the range [0, 1[",
            self.0
        ))
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OutOfRangeEpochEccentricity {}

/// Errors returned when creating epoch contants from elements
#[derive(Debug, Clone, PartialEq)]
pub enum ElementsError {
    KozaiElementsError(KozaiElementsError),
    OutOfRangeEpochEccentricity(OutOfRangeEpochEccentricity),
}

impl core::fmt::Display for ElementsError {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ElementsError::KozaiElementsError(error) => error.fmt(formatter),
            ElementsError::OutOfRangeEpochEccentricity(error) => error.fmt(formatter),
        }
    }
}

impl From<KozaiElementsError> for ElementsError {
    fn from(value: KozaiElementsError) -> Self {
        Self::KozaiElementsError(value)
    }
}

impl From<OutOfRangeEpochEccentricity> for ElementsError {
    fn from(value: OutOfRangeEpochEccentricity) -> Self {
        Self::OutOfRangeEpochEccentricity(value)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ElementsError {}

#[fwdad::derive_frule]
impl Orbit {
    /// Creates a new Brouwer orbit representation from Kozai elements
    ///
    /// If the Kozai orbital elements are obtained from a TLE or OMM,
    /// the convenience function [sgp4::Constants::from_elements](struct.Constants.html#method.from_elements)
    /// can be used instead of manually mapping the `Elements` fields to the `Constants::new` parameters.
    ///
    /// # Arguments
    ///
    /// * `geopotential` - The model of Earth gravity to use in the conversion
    /// * `inclination` - Angle between the equator and the orbit plane in rad
    /// * `right_ascension` - Angle between vernal equinox and the point where the orbit crosses the equatorial plane in rad
    /// * `eccentricity` - The shape of the orbit
    /// * `argument_of_perigee` - Angle between the ascending node and the orbit's point of closest approach to the earth in rad
    /// * `mean_anomaly` - Angle of the satellite location measured from perigee in rad
    /// * `kozai_mean_motion` - Mean orbital angular velocity in rad.min⁻¹ (Kozai convention)
    ///
    /// # Example
    ///
    /// ```
    /// # fn main() -> anyhow::Result<()> {
    /// let elements = sgp4::Elements::from_tle(
    ///     Some("ISS (ZARYA)".to_owned()),
    ///     "1 25544U 98067A   20194.88612269 -.00002218  00000-0 -31515-4 0  9992".as_bytes(),
    ///     "2 25544  51.6461 221.2784 0001413  89.1723 280.4612 15.49507896236008".as_bytes(),
    /// )?;
    /// let orbit_0 = sgp4::Orbit::from_kozai_elements(
    ///     &sgp4::WGS84,
    ///     elements.inclination * (core::f64::consts::PI / 180.0),
    ///     elements.right_ascension * (core::f64::consts::PI / 180.0),
    ///     elements.eccentricity,
    ///     elements.argument_of_perigee * (core::f64::consts::PI / 180.0),
    ///     elements.mean_anomaly * (core::f64::consts::PI / 180.0),
    ///     elements.mean_motion * (core::f64::consts::PI / 720.0),
    /// )?;
    /// #     Ok(())
    /// # }
    /// ```
    pub fn from_kozai_elements(
        geopotential: &Geopotential,
        inclination: f64,
        right_ascension: f64,
        eccentricity: f64,
        argument_of_perigee: f64,
        mean_anomaly: f64,
        kozai_mean_motion: f64,
    ) -> core::result::Result<Self, KozaiElementsError> {
        if kozai_mean_motion <= 0.0 {
            Err(KozaiElementsError::NegativeKozaiMeanMotion)
        } else {
            let mean_motion = {
                // a₁ = (kₑ / n₀)²ᐟ³
                let a1 = (geopotential.ke / kozai_mean_motion).powf(2.0 / 3.0);

                //      3      3 cos²I₀ - 1
                // p₀ = - J₂ ---------------
                //      4       (1 − e₀²)³ᐟ²
                let p0 = 0.75 * geopotential.j2 * (3.0 * inclination.cos().powi(2) - 1.0)
                    / (1.0 - eccentricity.powi(2)).powf(3.0 / 2.0);

                // 𝛿₁ = p₀ / a₁²
                let d1 = p0 / a1.powi(2);

                // 𝛿₀ = p₀ / (a₁ (1 - ¹/₃ 𝛿₁ - 𝛿₁² - ¹³⁴/₈₁ 𝛿₁³))²
                let d0 = p0
                    / (a1 * (1.0 - d1.powi(2) - d1 * (1.0 / 3.0 + 134.0 * d1.powi(2) / 81.0)))
                        .powi(2);

                //         n₀
                // n₀" = ------
                //       1 + 𝛿₀
                kozai_mean_motion / (1.0 + d0)
            };
            if mean_motion <= 0.0 {
                Err(KozaiElementsError::NegativeBrouwerMeanMotion)
            } else {
                Ok(propagator::Orbit {
                    inclination,
                    right_ascension,
                    eccentricity,
                    argument_of_perigee,
                    mean_anomaly,
                    mean_motion,
                })
            }
        }
    }
}

#[fwdad::derive_frule]
impl Constants {
    /// Initializes a new propagator from epoch quantities
    ///
    /// If the orbital elements are obtained from a TLE or OMM,
    /// the convenience function [sgp4::Constants::from_elements](struct.Constants.html#method.from_elements)
    /// can be used instead of manually mapping the `Elements` fields to the `Constants::new` parameters.
    ///
    /// # Arguments
    ///
    /// * `geopotential` - The model of Earth gravity to use in the conversion
    /// * `epoch_to_sidereal_time` - The function to use to convert the J2000 epoch to sidereal time
    /// * `epoch` - The number of years since UTC 1 January 2000 12h00 (J2000)
    /// * `drag_term` - The radiation pressure coefficient in earth radii⁻¹ (B*)
    /// * `orbit_0` - The Brouwer orbital elements at epoch
    ///
    /// # Example
    ///
    /// ```
    /// # fn main() -> anyhow::Result<()> {
    /// let elements = sgp4::Elements::from_tle(
    ///     Some("ISS (ZARYA)".to_owned()),
    ///     "1 25544U 98067A   20194.88612269 -.00002218  00000-0 -31515-4 0  9992".as_bytes(),
    ///     "2 25544  51.6461 221.2784 0001413  89.1723 280.4612 15.49507896236008".as_bytes(),
    /// )?;
    /// let constants = sgp4::Constants::new(
    ///     sgp4::WGS84,
    ///     sgp4::iau_epoch_to_sidereal_time,
    ///     elements.epoch(),
    ///     elements.drag_term,
    ///     sgp4::Orbit::from_kozai_elements(
    ///         &sgp4::WGS84,
    ///         elements.inclination * (core::f64::consts::PI / 180.0),
    ///         elements.right_ascension * (core::f64::consts::PI / 180.0),
    ///         elements.eccentricity,
    ///         elements.argument_of_perigee * (core::f64::consts::PI / 180.0),
    ///         elements.mean_anomaly * (core::f64::consts::PI / 180.0),
    ///         elements.mean_motion * (core::f64::consts::PI / 720.0),
    ///     )?,
    /// )?;
    /// #     Ok(())
    /// # }
    /// ```
    pub fn new(
        geopotential: Geopotential,
        epoch_to_sidereal_time: impl Fn(f64) -> f64,
        epoch: f64,
        drag_term: f64,
        orbit_0: propagator::Orbit,
    ) -> core::result::Result<Self, OutOfRangeEpochEccentricity> {
        if orbit_0.eccentricity < 0.0 || orbit_0.eccentricity >= 1.0 {
            Err(OutOfRangeEpochEccentricity(orbit_0.eccentricity))
        } else {
            // p₁ = cos I₀
            let p1 = orbit_0.inclination.cos();

            // p₂ = 1 − e₀²
            let p2 = 1.0 - orbit_0.eccentricity.powi(2);

            // k₆ = 3 p₁² - 1
            let k6 = 3.0 * p1.powi(2) - 1.0;

            // a₀" = (kₑ / n₀")²ᐟ³
            let a0 = (geopotential.ke / orbit_0.mean_motion).powf(2.0 / 3.0);

            // p₃ = a₀" (1 - e₀)
            let p3 = a0 * (1.0 - orbit_0.eccentricity);
            let (s, p6) = {
                // p₄ = aₑ (p₃ - 1)
                let p4 = geopotential.ae * (p3 - 1.0);

                // p₅ = │ 20      if p₄ < 98
                //      │ p₄ - 78 if 98 ≤ p₄ < 156
                //      │ 78      otherwise
                let p5 = if p4 < 98.0 {
                    20.0
                } else if p4 < 156.0 {
                    p4 - 78.0
                } else {
                    78.0
                };
                (
                    // s = p₅ / aₑ + 1
                    p5 / geopotential.ae + 1.0,
                    // p₆ = ((120 - p₅) / aₑ)⁴
                    ((120.0 - p5) / geopotential.ae).powi(4),
                )
            };

            // ξ = 1 / (a₀" - s)
            let xi = 1.0 / (a0 - s);

            // p₇ = p₆ ξ⁴
            let p7 = p6 * xi.powi(4);

            // η = a₀" e₀ ξ
            let eta = a0 * orbit_0.eccentricity * xi;

            // p₈ = |1 - η²|
            let p8 = (1.0 - eta.powi(2)).abs();

            // p₉ = p₇ / p₈⁷ᐟ²
            let p9 = p7 / p8.powf(3.5);

            // C₁ = B* p₉ n₀" (a₀" (1 + ³/₂ η² + e₀ η (4 + η²))
            //      + ³/₈ J₂ ξ k₆ (8 + 3 η² (8 + η²)) / p₈)
            let c1 = drag_term
                * (p9
                    * orbit_0.mean_motion
                    * (a0
                        * (1.0
                            + 1.5 * eta.powi(2)
                            + orbit_0.eccentricity * eta * (4.0 + eta.powi(2)))
                        + 0.375 * geopotential.j2 * xi / p8
                            * k6
                            * (8.0 + 3.0 * eta.powi(2) * (8.0 + eta.powi(2)))));

            // p₁₀ = (a₀" p₂)⁻²
            let p10 = 1.0 / (a0 * p2).powi(2);

            // β₀ = p₂¹ᐟ²
            let b0 = p2.sqrt();

            // p₁₁ = ³/₂ J₂ p₁₀ n₀"
            let p11 = 1.5 * geopotential.j2 * p10 * orbit_0.mean_motion;

            // p₁₂ = ¹/₂ p₁₁ J₂ p₁₀
            let p12 = 0.5 * p11 * geopotential.j2 * p10;

            // p₁₃ = - ¹⁵/₃₂ J₄ p₁₀² n₀"
            let p13 = -0.46875 * geopotential.j4 * p10.powi(2) * orbit_0.mean_motion;

            // p₁₄ = - p₁₁ p₁ + (¹/₂ p₁₂ (4 - 19 p₁²) + 2 p₁₃ (3 - 7 p₁²)) p₁
            let p14 = -p11 * p1
                + (0.5 * p12 * (4.0 - 19.0 * p1.powi(2)) + 2.0 * p13 * (3.0 - 7.0 * p1.powi(2)))
                    * p1;

            // k₁₄ = - ¹/₂ p₁₁ (1 - 5 p₁²) + ¹/₁₆ p₁₂ (7 - 114 p₁² + 395 p₁⁴)
            let k14 = -0.5 * p11 * (1.0 - 5.0 * p1.powi(2))
                + 0.0625 * p12 * (7.0 - 114.0 * p1.powi(2) + 395.0 * p1.powi(4))
                + p13 * (3.0 - 36.0 * p1.powi(2) + 49.0 * p1.powi(4));

            // p₁₅ = n₀" + ¹/₂ p₁₁ β₀ k₆ + ¹/₁₆ p₁₂ β₀ (13 - 78 p₁² + 137 p₁⁴)
            let p15 = orbit_0.mean_motion
                + 0.5 * p11 * b0 * k6
                + 0.0625 * p12 * b0 * (13.0 - 78.0 * p1.powi(2) + 137.0 * p1.powi(4));

            // C₄ = 2 B* n₀" p₉ a₀" p₂ (
            //      η (2 + ¹/₂ η²)
            //      + e₀ (¹/₂ + 2 η²)
            //      - J₂ ξ / (a p₈) (-3 k₆ (1 - 2 e₀ η + η² (³/₂ - ¹/₂ e₀ η))
            //      + ³/₄ (1 - p₁²) (2 η² - e₀ η (1 + η²)) cos 2 ω₀)
            let c4 = drag_term
                * (2.0
                    * orbit_0.mean_motion
                    * p9
                    * a0
                    * p2
                    * (eta * (2.0 + 0.5 * eta.powi(2))
                        + orbit_0.eccentricity * (0.5 + 2.0 * eta.powi(2))
                        - geopotential.j2 * xi / (a0 * p8)
                            * (-3.0
                                * k6
                                * (1.0 - 2.0 * orbit_0.eccentricity * eta
                                    + eta.powi(2) * (1.5 - 0.5 * orbit_0.eccentricity * eta))
                                + 0.75
                                    * (1.0 - p1.powi(2))
                                    * (2.0 * eta.powi(2)
                                        - orbit_0.eccentricity * eta * (1.0 + eta.powi(2)))
                                    * (2.0 * orbit_0.argument_of_perigee).cos())));

            // k₀ = - ⁷/₂ p₂ p₁₁ p₁ C₁
            let k0 = 3.5 * p2 * (-p11 * p1) * c1;

            // k₁ = ³/₂ C₁
            let k1 = 1.5 * c1;

            if orbit_0.mean_motion > 2.0 * core::f64::consts::PI / 225.0 {
                Ok(near_earth::constants(
                    geopotential,
                    drag_term,
                    orbit_0,
                    p1,
                    a0,
                    s,
                    xi,
                    eta,
                    c1,
                    c4,
                    k0,
                    k1,
                    k6,
                    k14,
                    p2,
                    p3,
                    p7,
                    p9,
                    p14,
                    p15,
                ))
            } else {
                Ok(deep_space::constants(
                    geopotential,
                    epoch_to_sidereal_time,
                    epoch,
                    orbit_0,
                    p1,
                    a0,
                    c1,
                    b0,
                    c4,
                    k0,
                    k1,
                    k14,
                    p2,
                    p14,
                    p15,
                ))
            }
        }
    }

    /// Returns the initial deep space resonance integrator state
    ///
    /// For most orbits, SGP4 propagation is stateless.
    /// That is, predictions at different times are always calculated from the epoch quantities.
    /// No calculations are saved by propagating to successive times sequentially.
    ///
    /// However, resonant deep space orbits (geosynchronous or Molniya) use an integrator
    /// to estimate the resonance effects of Earth gravity, with a 720 min time step. If the propagation
    /// times are monotonic, a few operations per prediction can be saved by re-using the integrator state.
    ///
    /// The high-level API `Constants::propagate` re-initializes the state with each propagation for simplicity.
    /// `Constants::initial_state` and `Constants::propagate_from_state` can be used together
    /// to speed up resonant deep space satellite propagation.
    /// For non-deep space or non-resonant orbits, their behavior is identical to `Constants::propagate`.
    ///
    /// See `Constants::propagate_from_state` for an example.
    pub fn initial_state(&self) -> Option<ResonanceState> {
        match &self.method {
            propagator::Method::NearEarth { .. } => None,
            propagator::Method::DeepSpace { resonant, .. } => match resonant {
                propagator::Resonant::No { .. } => None,
                propagator::Resonant::Yes { lambda_0, .. } => {
                    Some(ResonanceState::new(self.orbit_0.mean_motion, *lambda_0))
                }
            },
        }
    }

    /// Calculates the SGP4 position and velocity predictions
    ///
    /// This is an advanced API which results in marginally faster propagation than `Constants::propagate` in some cases
    /// (see `Constants::initial_state` for details), at the cost of added complexity for the user.
    ///
    /// The propagation times must be monotonic if the same resonance state is used repeatedly.
    /// The `afspc_compatibility_mode` makes a difference only if the satellite is on a Lyddane deep space orbit
    /// (period greater than 225 min and inclination smaller than 0.2 rad).
    ///
    /// # Arguments
    ///
    /// * `t` - The number of minutes since epoch (can be positive, negative or zero)
    /// * `state` - The deep space propagator state returned by `Constants::initial_state`
    /// * `afspc_compatibility_mode` - Set to true if compatibility with the AFSPC implementation is needed
    ///
    /// # Example
    ///
    /// ```
    /// # fn main() -> anyhow::Result<()> {
    /// let elements = sgp4::Elements::from_tle(
    ///     Some("MOLNIYA 1-36".to_owned()),
    ///     "1 08195U 75081A   06176.33215444  .00000099  00000-0  11873-3 0   813".as_bytes(),
    ///     "2 08195  64.1586 279.0717 6877146 264.7651  20.2257  2.00491383225656".as_bytes(),
    /// )?;
    /// let constants = sgp4::Constants::from_elements(&elements)?;
    /// let mut state = constants.initial_state();
    /// for days in 0..7 {
    ///     println!("t = {} min", days * 60 * 24);
    ///     let prediction =
    ///         constants.propagate_from_state(sgp4::MinutesSinceEpoch((days * 60 * 24) as f64), state.as_mut(), false)?;
    ///     println!("    r = {:?} km", prediction.position);
    ///     println!("    ṙ = {:?} km.s⁻¹", prediction.velocity);
    /// }
    /// #     Ok(())
    /// # }
    /// ```
    #[allow(clippy::many_single_char_names)]
    pub fn propagate_from_state(
        &self,
        t: MinutesSinceEpoch,
        state: Option<&mut ResonanceState>,
        afspc_compatibility_mode: bool,
    ) -> core::result::Result<Prediction, gp::Error> {
        // p₂₂ = Ω₀ + Ω̇ t + k₀ t²
        let p22 =
            self.orbit_0.right_ascension + self.right_ascension_dot * t.0 + self.k0 * t.0.powi(2);

        // p₂₃ = ω₀ + ω̇ t
        let p23 = self.orbit_0.argument_of_perigee + self.argument_of_perigee_dot * t.0;
        let (orbit, a, p32, p33, p34, p35, p36) = match &self.method {
            propagator::Method::NearEarth {
                a0,
                k2,
                k3,
                k4,
                k5,
                k6,
                high_altitude,
            } => {
                assert!(
                    state.is_none(),
                    "state must be None with a near-earth propagator",
                );
                self.near_earth_orbital_elements(
                    *a0,
                    *k2,
                    *k3,
                    *k4,
                    *k5,
                    *k6,
                    high_altitude,
                    t.0,
                    p22,
                    p23,
                )
            }
            propagator::Method::DeepSpace {
                eccentricity_dot,
                inclination_dot,
                solar_perturbations,
                lunar_perturbations,
                resonant,
            } => self.deep_space_orbital_elements(
                *eccentricity_dot,
                *inclination_dot,
                solar_perturbations,
                lunar_perturbations,
                resonant,
                state,
                t.0,
                p22,
                p23,
                afspc_compatibility_mode,
            ),
        }?;

        // p₃₇ = 1 / (a (1 - e²))
        let p37 = 1.0 / (a * (1.0 - orbit.eccentricity.powi(2)));

        // aₓₙ = e cos ω
        let axn = orbit.eccentricity * orbit.argument_of_perigee.cos();

        // aᵧₙ = e sin ω + p₃₇ p₃₂
        let ayn = orbit.eccentricity * orbit.argument_of_perigee.sin() + p37 * p32;

        // p₃₈ = M + ω + p₃₇ p₃₅ aₓₙ rem 2π
        let p38 = (orbit.mean_anomaly + orbit.argument_of_perigee + p37 * p35 * axn)
            % (2.0 * core::f64::consts::PI);

        // (E + ω)₀ = p₃₈
        let mut ew = p38;
        for _ in 0..10 {
            //             p₃₈ - aᵧₙ cos (E + ω)ᵢ + aₓₙ sin (E + ω)ᵢ - (E + ω)ᵢ
            // Δ(E + ω)ᵢ = ---------------------------------------------------
            //                   1 - cos (E + ω)ᵢ aₓₙ - sin (E + ω)ᵢ aᵧₙ
            let delta = (p38 - ayn * ew.cos() + axn * ew.sin() - ew)
                / (1.0 - ew.cos() * axn - ew.sin() * ayn);

            if delta.abs() < 1.0e-12 {
                break;
            }

            // (E + ω)ᵢ₊₁ = (E + ω)ᵢ + Δ(E + ω)ᵢ|[-0.95, 0.95]
            ew += delta.clamp(-0.95, 0.95);
        }

        // p₃₉ = aₓₙ² + aᵧₙ²
        let p39 = axn.powi(2) + ayn.powi(2);

        // pₗ = a (1 - p₃₉)
        let pl = a * (1.0 - p39);
        if pl < 0.0 {
            Err(gp::Error::NegativeSemiLatusRectum { t: t.0 })
        } else {
            // p₄₀ = aₓₙ sin(E + ω) - aᵧₙ cos(E + ω)
            let p40 = axn * ew.sin() - ayn * ew.cos();

            // r = a (1 - aₓₙ cos(E + ω) + aᵧₙ sin(E + ω))
            let r = a * (1.0 - (axn * ew.cos() + ayn * ew.sin()));

            // ṙ = a¹ᐟ² p₄₀ / r
            let r_dot = a.sqrt() * p40 / r;

            // β = (1 - p₃₉)¹ᐟ²
            let b = (1.0 - p39).sqrt();

            // p₄₁ = p₄₀ / (1 + β)
            let p41 = p40 / (1.0 + b);

            // p₄₂ = a / r (sin(E + ω) - aᵧₙ - aₓₙ p₄₁)
            let p42 = a / r * (ew.sin() - ayn - axn * p41);

            // p₄₃ = a / r (cos(E + ω) - aₓₙ + aᵧₙ p₄₁)
            let p43 = a / r * (ew.cos() - axn + ayn * p41);

            //           p₄₂
            // u = tan⁻¹ ---
            //           p₄₃
            let u = p42.atan2(p43);

            // p₄₄ = 2 p₄₃ p₄₂
            let p44 = 2.0 * p43 * p42;

            // p₄₅ = 1 - 2 p₄₂²
            let p45 = 1.0 - 2.0 * p42.powi(2);

            // p₄₆ = (¹/₂ J₂ / pₗ) / pₗ
            let p46 = 0.5 * self.geopotential.j2 / pl / pl;

            // rₖ = r (1 - ³/₂ p₄₆ β p₃₆) + ¹/₂ (¹/₂ J₂ / pₗ) p₃₃ p₄₅
            let rk = r * (1.0 - 1.5 * p46 * b * p36)
                + 0.5 * (0.5 * self.geopotential.j2 / pl) * p33 * p45;

            // uₖ = u - ¹/₄ p₄₆ p₃₄ p₄₄
            let uk = u - 0.25 * p46 * p34 * p44;

            // Iₖ = I + ³/₂ p₄₆ cos I sin I p₄₅
            let inclination_k = orbit.inclination
                + 1.5 * p46 * orbit.inclination.cos() * orbit.inclination.sin() * p45;

            // Ωₖ = Ω + ³/₂ p₄₆ cos I p₄₄
            let right_ascension_k =
                orbit.right_ascension + 1.5 * p46 * orbit.inclination.cos() * p44;

            // ṙₖ = ṙ + n (¹/₂ J₂ / pₗ) p₃₃ / kₑ
            let rk_dot = r_dot
                - orbit.mean_motion * (0.5 * self.geopotential.j2 / pl) * p33 * p44
                    / self.geopotential.ke;

            // rḟₖ = pₗ¹ᐟ² / r + n (¹/₂ J₂ / pₗ) (p₃₃ p₄₅ + ³/₂ p₃₆) / kₑ
            let rfk_dot = pl.sqrt() / r
                + orbit.mean_motion * (0.5 * self.geopotential.j2 / pl) * (p33 * p45 + 1.5 * p36)
                    / self.geopotential.ke;

            // u₀ = - sin Ωₖ cos Iₖ sin uₖ + cos Ωₖ cos uₖ
            let u0 = -right_ascension_k.sin() * inclination_k.cos() * uk.sin()
                + right_ascension_k.cos() * uk.cos();
            // u₁ = cos Ωₖ cos Iₖ sin uₖ + sin Ωₖ cos uₖ
            let u1 = right_ascension_k.cos() * inclination_k.cos() * uk.sin()
                + right_ascension_k.sin() * uk.cos();
            // u₂ = sin Iₖ sin uₖ
            let u2 = inclination_k.sin() * uk.sin();
            Ok(Prediction {
                position: [
                    // r₀ = rₖ u₀ aₑ
                    rk * u0 * self.geopotential.ae,
                    // r₁ = rₖ u₁ aₑ
                    rk * u1 * self.geopotential.ae,
                    // r₂ = rₖ u₂ aₑ
                    rk * u2 * self.geopotential.ae,
                ],
                velocity: [
                    // ṙ₀ = (ṙₖ u₀ + rḟₖ (- sin Ωₖ cos Iₖ cos uₖ - cos Ωₖ sin uₖ)) aₑ kₑ / 60
                    (rk_dot * u0
                        + rfk_dot
                            * (-right_ascension_k.sin() * inclination_k.cos() * uk.cos()
                                - right_ascension_k.cos() * uk.sin()))
                        * (self.geopotential.ae * self.geopotential.ke / 60.0),
                    // ṙ₁ = (ṙₖ u₁ + rḟₖ (cos Ωₖ cos Iₖ cos uₖ - sin Ωₖ sin uₖ)) aₑ kₑ / 60
                    (rk_dot * u1
                        + rfk_dot
                            * (right_ascension_k.cos() * inclination_k.cos() * uk.cos()
                                - right_ascension_k.sin() * uk.sin()))
                        * (self.geopotential.ae * self.geopotential.ke / 60.0),
                    // ṙ₂ = (ṙₖ u₂ + rḟₖ (sin Iₖ cos uₖ)) aₑ kₑ / 60
                    (rk_dot * u2 + rfk_dot * (inclination_k.sin() * uk.cos()))
                        * (self.geopotential.ae * self.geopotential.ke / 60.0),
                ],
            })
        }
    }

    /// Calculates the SGP4 position and velocity predictions
    ///
    /// This is the recommended method to propagate epoch orbital elements.
    ///
    /// # Arguments
    /// `t` - The number of minutes since epoch (can be positive, negative or zero)
    ///
    /// # Example
    ///
    /// ```
    /// # fn main() -> anyhow::Result<()> {
    /// let constants = sgp4::Constants::from_elements_afspc_compatibility_mode(
    ///     &sgp4::Elements::from_tle(
    ///         Some("ISS (ZARYA)".to_owned()),
    ///         "1 25544U 98067A   20194.88612269 -.00002218  00000-0 -31515-4 0  9992".as_bytes(),
    ///         "2 25544  51.6461 221.2784 0001413  89.1723 280.4612 15.49507896236008".as_bytes(),
    ///     )?,
    /// )?;
    /// let prediction = constants.propagate(sgp4::MinutesSinceEpoch(60.0 * 24.0));
    /// #     Ok(())
    /// # }
    /// ```
    pub fn propagate(&self, t: MinutesSinceEpoch) -> core::result::Result<Prediction, gp::Error> {
        self.propagate_from_state(t, self.initial_state().as_mut(), false)
    }

    /// Calculates the SGP4 position and velocity predictions
    ///
    /// This method should be used if compatibility with the AFSPC implementation is needed.
    /// Its behavior is different from `Constants::propagate`
    /// only if the satellite is on a Lyddane deep space orbit
    /// (period greater than 225 min and inclination smaller than 0.2 rad).
    ///
    /// # Arguments
    /// `t` - The number of minutes since epoch (can be positive, negative or zero)
    ///
    /// # Example
    ///
    /// ```
    /// # fn main() -> anyhow::Result<()> {
    /// let constants = sgp4::Constants::from_elements_afspc_compatibility_mode(
    ///     &sgp4::Elements::from_tle(
    ///         Some("ISS (ZARYA)".to_owned()),
    ///         "1 25544U 98067A   20194.88612269 -.00002218  00000-0 -31515-4 0  9992".as_bytes(),
    ///         "2 25544  51.6461 221.2784 0001413  89.1723 280.4612 15.49507896236008".as_bytes(),
    ///     )?,
    /// )?;
    /// let prediction = constants.propagate_afspc_compatibility_mode(sgp4::MinutesSinceEpoch(60.0 * 24.0));
    /// #     Ok(())
    /// # }
    /// ```
    pub fn propagate_afspc_compatibility_mode(
        &self,
        t: MinutesSinceEpoch,
    ) -> core::result::Result<Prediction, gp::Error> {
        self.propagate_from_state(t, self.initial_state().as_mut(), true)
    }
}
}
pub use root::*;

// ---------------------------------------------------------------------------------------
// The tests (not sgp4's).

#[cfg(test)]
mod tests {
    use super::*;
    use core::f64::consts::PI;
    use fwdad::prelude::*;

    /// Elements as a TLE gives them (degrees, revolutions per day) and the drag term B*:
    /// (i, Ω, e, ω, M, n, B*).
    type Tle = (f64, f64, f64, f64, f64, f64, f64);
    /// The ISS (ZARYA) of sgp4's README, near-earth, high-altitude branch.
    const ISS: Tle = (
        51.6461,
        221.2784,
        0.0001413,
        89.1723,
        280.4612,
        15.49507896,
        -0.31515e-4,
    );
    /// A GPS-like orbit: deep space, not resonant.
    const GPS: Tle = (55.0, 100.0, 0.01, 30.0, 40.0, 2.0056, 0.0);
    /// A Molniya orbit: deep space, half-day resonance.
    const MOLNIYA: Tle = (63.4, 250.0, 0.72, 270.0, 10.0, 2.0064, 1e-4);
    /// A geostationary orbit: deep space, one-day resonance, inclination below 0.2 rad.
    const GEO: Tle = (0.05, 80.0, 0.0002, 120.0, 200.0, 1.0027, 0.0);
    const EPOCH: f64 = 20.53;

    /// What `Constants::from_elements` does (plain code: `Constants::new` has no rule, see
    /// the file's docs).
    fn constants(e: Tle) -> Constants {
        let orbit_0 = Orbit::from_kozai_elements(
            &WGS84,
            e.0 * (PI / 180.0),
            e.1 * (PI / 180.0),
            e.2,
            e.3 * (PI / 180.0),
            e.4 * (PI / 180.0),
            e.5 * (PI / 720.0),
        )
        .unwrap();
        Constants::new(WGS84, iau_epoch_to_sidereal_time, EPOCH, e.6, orbit_0).unwrap()
    }

    /// The mean elements `t` minutes after epoch, as `propagate_from_state` computes them
    /// before solving Kepler's equation: (Ω, ω, e, M, a).
    #[derive_frule]
    fn mean_elements(c: &Constants, t: f64) -> [f64; 5] {
        let p22 = c.orbit_0.right_ascension + c.right_ascension_dot * t + c.k0 * t.powi(2);
        let p23 = c.orbit_0.argument_of_perigee + c.argument_of_perigee_dot * t;
        let (orbit, a, ..) = match &c.method {
            propagator::Method::NearEarth {
                a0,
                k2,
                k3,
                k4,
                k5,
                k6,
                high_altitude,
            } => c
                .near_earth_orbital_elements(
                    *a0,
                    *k2,
                    *k3,
                    *k4,
                    *k5,
                    *k6,
                    high_altitude,
                    t,
                    p22,
                    p23,
                )
                .unwrap(),
            propagator::Method::DeepSpace {
                eccentricity_dot,
                inclination_dot,
                solar_perturbations,
                lunar_perturbations,
                resonant,
            } => match resonant {
                propagator::Resonant::No { .. } => c
                    .deep_space_orbital_elements(
                        *eccentricity_dot,
                        *inclination_dot,
                        solar_perturbations,
                        lunar_perturbations,
                        resonant,
                        None,
                        t,
                        p22,
                        p23,
                        false,
                    )
                    .unwrap(),
                propagator::Resonant::Yes { lambda_0, .. } => {
                    let mut state =
                        deep_space::ResonanceState::new(c.orbit_0.mean_motion, *lambda_0);
                    c.deep_space_orbital_elements(
                        *eccentricity_dot,
                        *inclination_dot,
                        solar_perturbations,
                        lunar_perturbations,
                        resonant,
                        Some(&mut state),
                        t,
                        p22,
                        p23,
                        false,
                    )
                    .unwrap()
                }
            },
        };
        [
            orbit.right_ascension,
            orbit.argument_of_perigee,
            orbit.eccentricity,
            orbit.mean_anomaly,
            a,
        ]
    }

    /// The Brouwer mean motion from the Kozai elements (i, e, n) in radians and rad/min.
    #[derive_frule]
    fn brouwer_mean_motion(x: &[f64]) -> f64 {
        Orbit::from_kozai_elements(&WGS84, x[0], 0.3, x[1], 1.1, 0.2, x[2])
            .unwrap()
            .mean_motion
    }

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * (want.abs() + 1e-9),
            "{what}: {got}, want {want}"
        );
    }

    #[test]
    fn sidereal_time_against_its_polynomial() {
        // dθ/dy = (π / 180) / 240 (3 (−6.2e-6) c² + 2 (0.093104) c + 876600 × 3600 + 8640184.812866) / 100
        for epoch in [-10.0, 0.5, 20.53, 31.0] {
            let (th, d) = derivative(iau_epoch_to_sidereal_time {}, epoch);
            assert_eq!(th.to_bits(), iau_epoch_to_sidereal_time(epoch).to_bits());
            let c = epoch / 100.0;
            let want =
                (3.0 * -6.2e-6 * c * c + 2.0 * 0.093104 * c + 876600.0 * 3600.0 + 8640184.812866)
                    * (PI / 180.0)
                    / 240.0
                    / 100.0;
            close(d, want, 1e-12, "IAU dθ/dy");
            // The AFSPC expression's floor is locally constant:
            // dθ/dy = 365.25 (1.72027916940703639e-2 + 2π + 2 × 5.07551419432269442e-15 d).
            let (th, d) = derivative(afspc_epoch_to_sidereal_time {}, epoch);
            assert_eq!(th.to_bits(), afspc_epoch_to_sidereal_time(epoch).to_bits());
            let d1970 = (epoch + 30.0) * 365.25 + 1.0;
            #[allow(clippy::excessive_precision)]
            let want = 365.25
                * (1.72027916940703639e-2 + 2.0 * PI + 2.0 * 5.07551419432269442e-15 * d1970);
            close(d, want, 1e-12, "AFSPC dθ/dy");
        }
    }

    #[test]
    fn kozai_to_brouwer_mean_motion_in_every_mode() {
        crate::check_modes!(
            brouwer_mean_motion {},
            brouwer_mean_motion,
            [0.9, 0.1, 0.06]
        );
    }

    /// Central differences of `mean_elements` in `t`.
    fn fd(c: &Constants, t: f64, h: f64) -> [f64; 5] {
        let (p, m) = (mean_elements(c, t + h), mean_elements(c, t - h));
        core::array::from_fn(|k| (p[k] - m[k]) / (2.0 * h))
    }

    #[test]
    fn mean_elements_against_central_differences() {
        let names = ["Ω", "ω", "e", "M", "a"];
        for (what, tle, ts) in [
            ("ISS", ISS, [0.0, 35.0, 1440.0]),
            ("GPS", GPS, [10.0, 700.0, 5000.0]),
            ("Molniya", MOLNIYA, [10.0, 1000.0, 3000.0]),
            ("GEO", GEO, [10.0, 1000.0, 3000.0]),
        ] {
            let c = constants(tle);
            for t in ts {
                let plain = mean_elements(&c, t);
                let (v, d) = derivative(bind(mean_elements {}, (&c, Var(0))), t);
                let want = fd(&c, t, 1e-3);
                for k in 0..5 {
                    assert_eq!(v[k].to_bits(), plain[k].to_bits(), "{what} {}", names[k]);
                    // Ω, ω and M grow like t: the steps' cancellation sets the scale.
                    let scale = plain[k].abs() * 1e-8 / 1e-3 + want[k].abs();
                    assert!(
                        (d[k] - want[k]).abs() <= 1e-6 * scale + 1e-13,
                        "{what} d{}/dt at t = {t}: {} against {}",
                        names[k],
                        d[k],
                        want[k]
                    );
                }
            }
        }
    }

    /// The mean anomaly alone, for the second-order driver.
    #[derive_frule]
    fn mean_anomaly(c: &Constants, t: f64) -> f64 {
        mean_elements(c, t)[3]
    }

    #[test]
    fn mean_anomaly_second_derivative() {
        // M = p₂₆ + n₀" (k₁ t² + k₈ t³ + t⁴ (k₉ + t k₁₀)) near earth (ISS) and through the
        // half-day resonance integrator (Molniya): M'' against second differences.
        for tle in [ISS, MOLNIYA] {
            let c = constants(tle);
            let m = |t: f64| mean_elements(&c, t)[3];
            for t in [30.0, 600.0] {
                let h = 0.5;
                let want = (m(t + h) - 2.0 * m(t) + m(t - h)) / (h * h);
                let (v, _, d2) =
                    fwdad::drivers::second_derivative(bind(mean_anomaly {}, (&c, Var(0))), t);
                assert_eq!(v.to_bits(), m(t).to_bits());
                close(d2, want, 1e-3, "M''");
            }
        }
    }

    /// The position (km, TEME) `t` minutes after epoch of a satellite of TLE elements `el`
    /// (i, Ω, e, ω, M in degrees, n in rev/day, B*), as sgp4's README writes it with
    /// `Constants::new` and `Orbit::from_kozai_elements`; but the sidereal time is passed in
    /// a closure (a function passed by name to an associated function has no rule yet).
    #[allow(clippy::redundant_closure)]
    #[derive_frule]
    fn position(el: &[f64], t: f64) -> [f64; 3] {
        let constants = Constants::new(
            WGS84,
            |epoch| iau_epoch_to_sidereal_time(epoch),
            EPOCH,
            el[6],
            Orbit::from_kozai_elements(
                &WGS84,
                el[0] * (PI / 180.0),
                el[1] * (PI / 180.0),
                el[2],
                el[3] * (PI / 180.0),
                el[4] * (PI / 180.0),
                el[5] * (PI / 720.0),
            )
            .unwrap(),
        )
        .unwrap();
        constants.propagate(MinutesSinceEpoch(t)).unwrap().position
    }

    fn elements(e: Tle) -> [f64; 7] {
        [e.0, e.1, e.2, e.3, e.4, e.5, e.6]
    }

    #[test]
    fn propagated_position_against_its_velocity_and_central_differences() {
        for (what, tle, ts) in [
            ("ISS", ISS, [0.0, 35.0, 1440.0]),
            ("GPS", GPS, [10.0, 700.0, 5000.0]),
            ("Molniya", MOLNIYA, [10.0, 1000.0, 3000.0]),
            ("GEO", GEO, [10.0, 1000.0, 3000.0]),
        ] {
            let el = elements(tle);
            let c = constants(tle);
            for t in ts {
                let plain = position(&el, t);
                let (p, d) = derivative(bind(position {}, (&el[..], Var(0))), t);
                let h = 1e-3;
                let (pp, pm) = (position(&el, t + h), position(&el, t - h));
                // SGP4's own velocity, in km/s.
                let v = c.propagate(MinutesSinceEpoch(t)).unwrap().velocity;
                let speed = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt() * 60.0;
                for k in 0..3 {
                    assert_eq!(p[k].to_bits(), plain[k].to_bits(), "{what}: primal");
                    let fd = (pp[k] - pm[k]) / (2.0 * h);
                    assert!(
                        (d[k] - fd).abs() <= 1e-7 * speed,
                        "{what} dr{k}/dt at t = {t}: {} against {fd}",
                        d[k]
                    );
                    // The velocity SGP4 computes is the derivative of its short-period
                    // terms, without that of the slow drift of the mean elements.
                    assert!(
                        (d[k] - 60.0 * v[k]).abs() <= 1e-3 * speed,
                        "{what} dr{k}/dt at t = {t}: {} against SGP4's velocity {}",
                        d[k],
                        60.0 * v[k]
                    );
                }
            }
        }
    }

    #[test]
    fn propagated_position_with_respect_to_the_elements() {
        for (what, tle, t) in [
            ("ISS", ISS, 90.0),
            ("GPS", GPS, 700.0),
            ("Molniya", MOLNIYA, 1000.0),
            ("GEO", GEO, 1000.0),
        ] {
            let el = elements(tle);
            let (p, jac) = jacobian(bind(position {}, (Wrt, t)), &el);
            let plain = position(&el, t);
            for k in 0..3 {
                assert_eq!(p[k].to_bits(), plain[k].to_bits(), "{what}: primal");
            }
            for j in 0..7 {
                // Steps above the noise of Kepler's equation solved to 1e-12 (B* moves a
                // deep-space orbit by little: its column is checked to that noise).
                let h = match j {
                    2 | 5 => 1e-7, // e, n in rev/day
                    6 => 1e-3,     // B*
                    _ => 1e-5,     // degrees
                };
                let (mut a, mut b) = (el, el);
                a[j] += h;
                b[j] -= h;
                let (pa, pb) = (position(&a, t), position(&b, t));
                let col: Vec<f64> = (0..3).map(|k| (pa[k] - pb[k]) / (2.0 * h)).collect();
                let norm = col.iter().map(|c| c * c).sum::<f64>().sqrt();
                for k in 0..3 {
                    assert!(
                        (jac[(k, j)] - col[k]).abs() <= 1e-5 * norm + 1e-6,
                        "{what} dr{k}/del{j}: {} against {}",
                        jac[(k, j)],
                        col[k]
                    );
                }
            }
        }
    }

    /// The distance from the earth's centre of an ISS-like orbit as a function of
    /// (i in degrees, M in degrees, n in rev/day, t in minutes).
    #[derive_frule]
    fn radius(x: &[f64]) -> f64 {
        let el = [x[0], 221.2784, 0.0001413, 89.1723, x[1], x[2], -0.31515e-4];
        let r = position(&el, x[3]);
        (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).sqrt()
    }

    #[test]
    fn radius_in_every_mode() {
        // One direction, batches of four, and second order, against central differences.
        // Kepler's equation is solved to |Δ| < 1e-12, which puts noise of about 1e-9 km on
        // the radius: the second differences take steps of 1e-2 (1e-4 rev/day for n), where
        // they agree with the rule to 1e-6 and beyond which they drift off by noise.
        let x = [51.6461, 280.4612, 15.49507896, 35.0];
        let steps = [1e-2, 1e-2, 1e-4, 1e-2];
        let y = radius(&x);
        let g: Vec<f64> = (0..4)
            .map(|k| {
                let h = 1e-6 * x[k].abs().max(1.0);
                let (mut p, mut m) = (x, x);
                p[k] += h;
                m[k] -= h;
                (radius(&p) - radius(&m)) / (2.0 * h)
            })
            .collect();
        for k in 0..4 {
            let mut e = [0.0; 4];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp(radius {}, &x, &e);
            assert_eq!(v.to_bits(), y.to_bits());
            close(d, g[k], 1e-6, "one direction");
        }
        let (v, gb) = fwdad::drivers::gradient_with::<4>(radius {}, &x);
        assert_eq!(v.to_bits(), y.to_bits());
        let (v, gh, hh) = fwdad::drivers::hessian_with::<2>(radius {}, &x);
        assert_eq!(v.to_bits(), y.to_bits());
        for i in 0..4 {
            close(gb[i], g[i], 1e-6, "batch");
            close(gh[i], g[i], 1e-6, "second order, gradient");
            for j in 0..4 {
                let at = |si: f64, sj: f64| {
                    let mut z = x;
                    z[i] += si * steps[i];
                    z[j] += sj * steps[j];
                    radius(&z)
                };
                let fd = (at(1.0, 1.0) - at(1.0, -1.0) - at(-1.0, 1.0) + at(-1.0, -1.0))
                    / (4.0 * steps[i] * steps[j]);
                close(
                    hh[(i, j)],
                    fd,
                    2e-4,
                    &format!("second order, d2/dx{i}dx{j}"),
                );
            }
        }
    }
}
