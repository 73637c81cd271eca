//! sun 0.3.1 (MIT, Markus Kohlhase, <https://github.com/flosse/rust-sun>; the published
//! package ships no licence file), a port of suncalc: the sun's azimuth and altitude for a
//! time and place, and the times of sun phases (sunrise, dusk, ...). The crate's `src/lib.rs`
//! is copied here as this file's root with `#[fwdad::derive_frule]` on every function and
//! on `impl SunPhase`, and `fwdad::Differentiable` added to `Position`'s derive list; left
//! out: its tests.
//!
//! The altitude and azimuth are differentiated with respect to latitude and longitude
//! (against the spherical-astronomy closed forms, with the declination and hour angle from
//! the plain helpers) and to time (against central differences of the published `sun::pos`
//! a minute either side); the hour angle of sunset with respect to latitude and the
//! altitude of the phase, against the derivative of its `acos`; primals bit for bit against
//! the published crate.

// The crate's `time_at_phase` has an empty line after its doc comment.
#![allow(
    dead_code,
    clippy::empty_line_after_doc_comments,
    clippy::empty_line_after_outer_attr
)]

mod common;

// ---- sun 0.3.1, src/lib.rs (its crate documentation is kept as comments) ----

// The `sun` crate is a library for calculating the position of the sun and sun phases
// (like sunrise, sunset).
// It is a port of the `JavaScript` library
// [suncalc](https://github.com/mourner/suncalc).
//
// # Example
//
// ```rust
// let unixtime = 1_362_441_600_000;
// let lat = 48.0;
// let lon = 9.0;
// let pos = sun::pos(unixtime,lat,lon);
// let az  = pos.azimuth.to_degrees();
// let alt = pos.altitude.to_degrees();
// println!("The position of the sun is {az}/{alt}");
//
// // calculate time of sunrise
// let time_ms = sun::time_at_phase(unixtime, sun::SunPhase::Sunrise, lat, lon, 0.0);
// assert_eq!(time_ms, 1_362_463_116_241);
// ```

use std::f64::consts::PI;

// date/time constants and conversions

const MILLISECONDS_PER_DAY: f64 = 1_000.0 * 60.0 * 60.0 * 24.0;
const JULIAN_0: f64 = 0.000_9;
const JULIAN_1970: f64 = 2_440_588.0;
const JULIAN_2000: f64 = 2_451_545.0;
const TO_RAD: f64 = PI / 180.0;
const OBLIQUITY_OF_EARTH: f64 = 23.439_7 * TO_RAD;
const PERIHELION_OF_EARTH: f64 = 102.937_2 * TO_RAD;

/// Holds the [azimuth](https://en.wikipedia.org/wiki/Azimuth)
/// and [altitude](https://en.wikipedia.org/wiki/Horizontal_coordinate_system)
/// angles of the sun position.
#[derive(Debug, Clone, Copy, fwdad::Differentiable)]
pub struct Position {
    pub azimuth: f64,
    pub altitude: f64,
}

#[fwdad::derive_frule]
const fn to_julian(unixtime_in_ms: f64) -> f64 {
    unixtime_in_ms / MILLISECONDS_PER_DAY - 0.5 + JULIAN_1970
}

#[allow(clippy::cast_possible_truncation)]
#[fwdad::derive_frule]
fn from_julian(julian_date: f64) -> i64 {
    ((julian_date + 0.5 - JULIAN_1970) * MILLISECONDS_PER_DAY).round() as i64
}

#[fwdad::derive_frule]
const fn to_days(unixtime_in_ms: f64) -> f64 {
    to_julian(unixtime_in_ms) - JULIAN_2000
}

// general calculations for position

#[fwdad::derive_frule]
fn right_ascension(ecliptic_longitude: f64, ecliptic_latitude: f64) -> f64 {
    (ecliptic_longitude.sin() * OBLIQUITY_OF_EARTH.cos()
        - ecliptic_latitude.tan() * OBLIQUITY_OF_EARTH.sin())
    .atan2(ecliptic_longitude.cos())
}

#[fwdad::derive_frule]
fn declination(ecliptic_longitude: f64, ecliptic_latitude: f64) -> f64 {
    (ecliptic_latitude.sin() * OBLIQUITY_OF_EARTH.cos()
        + ecliptic_latitude.cos() * OBLIQUITY_OF_EARTH.sin() * ecliptic_longitude.sin())
    .asin()
}

#[fwdad::derive_frule]
fn azimuth(sidereal_time: f64, latitude_rad: f64, declination: f64) -> f64 {
    sidereal_time
        .sin()
        .atan2(sidereal_time.cos() * latitude_rad.sin() - declination.tan() * latitude_rad.cos())
        + PI
}

#[fwdad::derive_frule]
fn altitude(sidereal_time: f64, latitude_rad: f64, declination: f64) -> f64 {
    (latitude_rad.sin() * declination.sin()
        + latitude_rad.cos() * declination.cos() * sidereal_time.cos())
    .asin()
}

#[fwdad::derive_frule]
fn sidereal_time(days: f64, longitude_rad: f64) -> f64 {
    (280.16 + 360.985_623_5 * days).to_radians() - longitude_rad
}

// general sun calculations

#[fwdad::derive_frule]
fn solar_mean_anomaly(days: f64) -> f64 {
    (357.529_1 + 0.985_600_28 * days).to_radians()
}

#[fwdad::derive_frule]
fn equation_of_center(solar_mean_anomaly: f64) -> f64 {
    (1.914_8 * solar_mean_anomaly.sin()
        + 0.02 * (2.0 * solar_mean_anomaly).sin()
        + 0.000_3 * (3.0 * solar_mean_anomaly).sin())
    .to_radians()
}

#[fwdad::derive_frule]
fn ecliptic_longitude(solar_mean_anomaly: f64) -> f64 {
    solar_mean_anomaly + equation_of_center(solar_mean_anomaly) + PERIHELION_OF_EARTH + PI
}

/// Calculates the sun position for a given date and latitude/longitude.
/// The angles are calculated as [radians](https://en.wikipedia.org/wiki/Radian).
///
/// * `unixtime`  - [unix time](https://en.wikipedia.org/wiki/Unix_time) in milliseconds.
/// * `lat`       - [latitude](https://en.wikipedia.org/wiki/Latitude) in degrees.
/// * `lon`       - [longitude](https://en.wikipedia.org/wiki/Longitude) in degrees.
///
/// calculates the sun position for a given date and latitude/longitude
#[must_use]
#[fwdad::derive_frule]
pub fn pos(unixtime_in_ms: i64, lat: f64, lon: f64) -> Position {
    let longitude_rad = -lon.to_radians();
    let latitude_rad = lat.to_radians();
    #[allow(clippy::cast_precision_loss)]
    let days = to_days(unixtime_in_ms as f64);
    let mean = solar_mean_anomaly(days);
    let ecliptic_longitude = ecliptic_longitude(mean);
    let declination = declination(ecliptic_longitude, 0.0);
    let right_ascension = right_ascension(ecliptic_longitude, 0.0);
    let sidereal_time = sidereal_time(days, longitude_rad) - right_ascension;
    let azimuth = azimuth(sidereal_time, latitude_rad, declination);
    let altitude = altitude(sidereal_time, latitude_rad, declination);
    Position { azimuth, altitude }
}

#[fwdad::derive_frule]
fn julian_cycle(days: f64, longitude_rad: f64) -> f64 {
    (days - JULIAN_0 - longitude_rad / (2.0 * PI)).round()
}

#[fwdad::derive_frule]
const fn approx_transit(hour_angle: f64, longitude_rad: f64, julian_cycle: f64) -> f64 {
    JULIAN_0 + (hour_angle + longitude_rad) / (2.0 * PI) + julian_cycle
}

#[fwdad::derive_frule]
fn solar_transit_julian(
    approx_transit: f64,
    solar_mean_anomaly: f64,
    ecliptic_longitude: f64,
) -> f64 {
    JULIAN_2000 + approx_transit + 0.005_3 * solar_mean_anomaly.sin()
        - 0.006_9 * (2.0 * ecliptic_longitude).sin()
}

#[fwdad::derive_frule]
fn solar_hour_angle(altitude_angle: f64, latitude_rad: f64, declination: f64) -> f64 {
    ((altitude_angle.sin() - latitude_rad.sin() * declination.sin())
        / (latitude_rad.cos() * declination.cos()))
    .acos()
}

#[fwdad::derive_frule]
fn observer_angle(height: f64) -> f64 {
    -2.076 * height.sqrt() / 60.0
}

/// Returns set time for the given sun altitude.
#[fwdad::derive_frule]
fn sunset_julian(
    altitude_angle: f64,
    longitude_rad: f64,
    latitude_rad: f64,
    declination: f64,
    julian_cycle: f64,
    mean: f64,
    ecliptic_longitude: f64,
) -> f64 {
    let hour_angle = solar_hour_angle(altitude_angle, latitude_rad, declination);
    let approx_transit = approx_transit(hour_angle, longitude_rad, julian_cycle);
    solar_transit_julian(approx_transit, mean, ecliptic_longitude)
}

/// Calculates the time for the given [`SunPhase`] at a given date, height and Latitude/Longitude.
/// The returned time is the [unix time](https://en.wikipedia.org/wiki/Unix_time) in milliseconds.
///
/// # Arguments
///
/// * `unixtime`  - [unix time](https://en.wikipedia.org/wiki/Unix_time) in milliseconds.
/// * `sun_phase` - [`SunPhase`] to calcuate time for
/// * `lat`       - [latitude](https://en.wikipedia.org/wiki/Latitude) in degrees.
/// * `lon`       - [longitude](https://en.wikipedia.org/wiki/Longitude) in degrees.
/// * `height`    - Observer height in meters above the horizon
///
/// # Examples
///
/// ```rust
/// // calculate time of sunrise
/// let unixtime = 1_362_441_600_000;
/// let lat = 48.0;
/// let lon = 9.0;
/// let height = 0.0;
/// let time_ms = sun::time_at_phase(unixtime, sun::SunPhase::Sunrise, lat, lon, height);
/// assert_eq!(time_ms, 1_362_463_116_241);
/// ```

#[must_use]
#[fwdad::derive_frule]
pub fn time_at_phase(
    unixtime_in_ms: i64,
    sun_phase: SunPhase,
    lat: f64,
    lon: f64,
    height: f64,
) -> i64 {
    let longitude_rad = -lon.to_radians();
    let latitude_rad = lat.to_radians();
    let observer_angle = observer_angle(height);
    #[allow(clippy::cast_precision_loss)]
    let days = to_days(unixtime_in_ms as f64);
    let julian_cycle = julian_cycle(days, longitude_rad);
    let approx_transit = approx_transit(0.0, longitude_rad, julian_cycle);
    let solar_mean_anomaly = solar_mean_anomaly(approx_transit);
    let ecliptic_longitude = ecliptic_longitude(solar_mean_anomaly);
    let declination = declination(ecliptic_longitude, 0.0);
    let julian_noon = solar_transit_julian(approx_transit, solar_mean_anomaly, ecliptic_longitude);

    let altitude_angle = (sun_phase.angle_deg() + observer_angle).to_radians();
    let julian_set = sunset_julian(
        altitude_angle,
        longitude_rad,
        latitude_rad,
        declination,
        julian_cycle,
        solar_mean_anomaly,
        ecliptic_longitude,
    );

    if sun_phase.is_rise() {
        let julian_rise = julian_noon - (julian_set - julian_noon);
        from_julian(julian_rise)
    } else {
        from_julian(julian_set)
    }
}

/// Sun phases for use with [`time_at_phase`].
#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub enum SunPhase {
    Sunrise,
    Sunset,
    SunriseEnd,
    SunsetStart,
    Dawn,
    Dusk,
    NauticalDawn,
    NauticalDusk,
    NightEnd,
    Night,
    GoldenHourEnd,
    GoldenHour,
    Custom(f64, bool),
}

#[fwdad::derive_frule]
impl SunPhase {
    /// Create a custom sun phase
    ///
    /// # Arguments
    /// * `angle_deg` - Angle in degrees of the sun above the horizon. Use negative
    ///                 numbers for angles below the horizon.
    /// * `rise`      - `true` when this sun phase applies to the sun rising, `false`
    ///                 if it's setting.
    #[must_use]
    pub const fn custom(angle_deg: f64, rise: bool) -> Self {
        SunPhase::Custom(angle_deg, rise)
    }

    const fn angle_deg(&self) -> f64 {
        match self {
            SunPhase::Sunrise | SunPhase::Sunset => -0.833,
            SunPhase::SunriseEnd | SunPhase::SunsetStart => -0.5,
            SunPhase::Dawn | SunPhase::Dusk => -6.0,
            SunPhase::NauticalDawn | SunPhase::NauticalDusk => -12.0,
            SunPhase::NightEnd | SunPhase::Night => -18.0,
            SunPhase::GoldenHourEnd | SunPhase::GoldenHour => 6.0,
            SunPhase::Custom(angle, _) => *angle,
        }
    }

    const fn is_rise(&self) -> bool {
        match self {
            SunPhase::Sunrise
            | SunPhase::SunriseEnd
            | SunPhase::Dawn
            | SunPhase::NauticalDawn
            | SunPhase::NightEnd
            | SunPhase::GoldenHourEnd => true,
            SunPhase::Sunset
            | SunPhase::SunsetStart
            | SunPhase::Dusk
            | SunPhase::NauticalDusk
            | SunPhase::Night
            | SunPhase::GoldenHour => false,
            SunPhase::Custom(_, rise) => *rise,
        }
    }
}

// ---- the checks ----

#[cfg(test)]
mod tests {
    use super::*;
    use fwdad::prelude::*;

    /// 2013-03-05 08:00 UTC, the crate's own test date and a morning hour, in milliseconds.
    const MORNING: i64 = 1_362_441_600_000 + 8 * 3_600_000;

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * want.abs().max(1.0),
            "{what}: {got}, want {want}"
        );
    }

    /// The sun's altitude over a place `[lat, lon]` (degrees) on a March morning.
    #[derive_frule]
    fn altitude_at(p: &[f64]) -> f64 {
        pos(MORNING, p[0], p[1]).altitude
    }

    /// Its azimuth there (radians from north, as suncalc counts it: from south plus π).
    #[derive_frule]
    fn azimuth_at(p: &[f64]) -> f64 {
        pos(MORNING, p[0], p[1]).azimuth
    }

    /// The sun's declination and hour angle at `MORNING` over longitude `lon`, from the
    /// plain helpers: the spherical triangle's sides, which do not depend on latitude.
    fn declination_and_hour_angle(lon: f64) -> (f64, f64) {
        #[allow(clippy::cast_precision_loss)]
        let days = to_days(MORNING as f64);
        let l = ecliptic_longitude(solar_mean_anomaly(days));
        let delta = declination(l, 0.0);
        let h = sidereal_time(days, -lon.to_radians()) - right_ascension(l, 0.0);
        (delta, h)
    }

    #[test]
    fn position_against_the_spherical_triangle() {
        // sin a = sin φ sin δ + cos φ cos δ cos H; A = atan2(sin H, cos H sin φ − tan δ cos φ)
        // + π, with H growing with the longitude east (degrees, so each by π/180).
        let deg = std::f64::consts::PI / 180.0;
        for p in [[50.5, 30.5], [-33.9, 18.4], [64.1, -21.9], [1.3, 103.8]] {
            let (delta, h) = declination_and_hour_angle(p[1]);
            let phi = p[0].to_radians();
            let alt = (phi.sin() * delta.sin() + phi.cos() * delta.cos() * h.cos()).asin();
            let da_dphi = (phi.cos() * delta.sin() - phi.sin() * delta.cos() * h.cos()) / alt.cos();
            let da_dh = -phi.cos() * delta.cos() * h.sin() / alt.cos();
            let (y, x) = (h.sin(), h.cos() * phi.sin() - delta.tan() * phi.cos());
            let r2 = x * x + y * y;
            let daz_dphi = -y * (h.cos() * phi.cos() + delta.tan() * phi.sin()) / r2;
            let daz_dh = (x * h.cos() + y * h.sin() * phi.sin()) / r2;

            let published = ::sun::pos(MORNING, p[0], p[1]);
            let (a, ga) = gradient(altitude_at {}, &p);
            let (z, gz) = gradient(azimuth_at {}, &p);
            assert_eq!(a.to_bits(), published.altitude.to_bits(), "altitude");
            assert_eq!(z.to_bits(), published.azimuth.to_bits(), "azimuth");
            close(ga[0], da_dphi * deg, 1e-12, "∂altitude/∂lat");
            close(ga[1], da_dh * deg, 1e-12, "∂altitude/∂lon");
            close(gz[0], daz_dphi * deg, 1e-12, "∂azimuth/∂lat");
            close(gz[1], daz_dh * deg, 1e-12, "∂azimuth/∂lon");
        }
    }

    #[test]
    fn position_in_every_mode() {
        crate::check_modes!(altitude_at {}, altitude_at, [50.5, 30.5]);
        crate::check_modes!(azimuth_at {}, azimuth_at, [-33.9, 18.4]);
    }

    /// The altitude as suncalc computes it, `days` (fractional, since J2000) a variable.
    #[derive_frule]
    fn altitude_on_day(days: f64, lat: f64, lon: f64) -> f64 {
        let longitude_rad = -lon.to_radians();
        let mean = solar_mean_anomaly(days);
        let l = ecliptic_longitude(mean);
        let delta = declination(l, 0.0);
        let sidereal = sidereal_time(days, longitude_rad) - right_ascension(l, 0.0);
        altitude(sidereal, lat.to_radians(), delta)
    }

    #[test]
    fn altitude_rate_against_the_published_position_a_minute_apart() {
        // The sun's altitude turns over a day (ω ≈ 7.3e-8 per ms): central differences of
        // the published `pos` a minute either side are exact to (ω h)² / 6 ≈ 3e-6.
        let minute = 60_000;
        for (t, lat, lon) in [
            (MORNING, 50.5, 30.5),
            (MORNING + 5 * 3_600_000, -33.9, 18.4),
            (1_700_000_000_000, 64.1, -21.9),
        ] {
            #[allow(clippy::cast_precision_loss)]
            let days = to_days(t as f64);
            let d = altitude_on_day_frule(
                Dual::new(days, 1.0),
                Dual::new(lat, 0.0),
                Dual::new(lon, 0.0),
            );
            let (a, da) = (d.primal, d.tangent);
            assert_eq!(
                a.to_bits(),
                ::sun::pos(t, lat, lon).altitude.to_bits(),
                "altitude"
            );
            let fd = (::sun::pos(t + minute, lat, lon).altitude
                - ::sun::pos(t - minute, lat, lon).altitude)
                / (2.0 * 60.0 / 86_400.0);
            close(da, fd, 1e-5, "∂altitude/∂day");
        }
    }

    /// The Julian date of sunset at latitude `p[0]` (radians) for the sun `p[1]` (radians)
    /// above the horizon, over Kyiv on 2013-03-05.
    #[derive_frule]
    fn set_at(p: &[f64]) -> f64 {
        let (lw, delta, n, m, l) = kyiv();
        sunset_julian(p[1], lw, p[0], delta, n, m, l)
    }

    /// `time_at_phase`'s intermediate values over Kyiv on 2013-03-05.
    fn kyiv() -> (f64, f64, f64, f64, f64) {
        let longitude_rad = -30.5f64.to_radians();
        let days = to_days(1_362_441_600_000.0);
        let n = julian_cycle(days, longitude_rad);
        let m = solar_mean_anomaly(approx_transit(0.0, longitude_rad, n));
        let l = ecliptic_longitude(m);
        (longitude_rad, declination(l, 0.0), n, m, l)
    }

    #[test]
    fn sunset_against_the_hour_angle() {
        // ω = acos(c), c = (sin h₀ − sin φ sin δ) / (cos φ cos δ): the set is ω / 2π days
        // after transit, ∂ω = −∂c / sin ω.
        let (_, delta, ..) = kyiv();
        for p in [[0.881_f64, -0.0145], [0.5, -0.1047], [-0.6, 0.1047]] {
            let (phi, h0) = (p[0], p[1]);
            let c = (h0.sin() - phi.sin() * delta.sin()) / (phi.cos() * delta.cos());
            let s = (1.0 - c * c).sqrt();
            let dc_dphi = (-phi.cos() * delta.sin() * phi.cos() * delta.cos()
                + (h0.sin() - phi.sin() * delta.sin()) * phi.sin() * delta.cos())
                / (phi.cos() * delta.cos()).powi(2);
            let dc_dh0 = h0.cos() / (phi.cos() * delta.cos());
            let two_pi = 2.0 * std::f64::consts::PI;
            let want = vec![-dc_dphi / s / two_pi, -dc_dh0 / s / two_pi];
            crate::check_first_order!(set_at {}, set_at, p, want);
        }
        // The Julian date (2.46e6) is rounded to 3e-10 days, too coarse for central
        // differences: the second order is checked on the hour angle it adds.
        crate::check_modes!(hour_angle_at {}, hour_angle_at, [0.881, -0.0145]);
    }

    /// The sun's hour angle at setting, for latitude `p[0]` and altitude `p[1]` (radians).
    #[derive_frule]
    fn hour_angle_at(p: &[f64]) -> f64 {
        let (_, delta, ..) = kyiv();
        solar_hour_angle(p[1], p[0], delta)
    }

    #[test]
    fn sun_phases_bit_for_bit() {
        // The integer times go through the derived plain functions unchanged.
        let date = 1_362_441_600_000;
        for (mine, published) in [
            (SunPhase::Sunrise, ::sun::SunPhase::Sunrise),
            (SunPhase::Dusk, ::sun::SunPhase::Dusk),
            (SunPhase::GoldenHour, ::sun::SunPhase::GoldenHour),
            (
                SunPhase::custom(-6.0, true),
                ::sun::SunPhase::custom(-6.0, true),
            ),
        ] {
            assert_eq!(
                time_at_phase(date, mine, 50.5, 30.5, 12.0),
                ::sun::time_at_phase(date, published, 50.5, 30.5, 12.0)
            );
        }
        assert_eq!(
            time_at_phase(date, SunPhase::Sunrise, 50.5, 30.5, 0.0),
            1_362_458_096_440
        );
    }

    /// The altitude (radians) below which the sun has set for an observer `p[1]` metres up,
    /// for a custom phase `p[0]` degrees.
    #[derive_frule]
    fn phase_altitude(p: &[f64]) -> f64 {
        (SunPhase::custom(p[0], false).angle_deg() + observer_angle(p[1])).to_radians()
    }

    #[test]
    fn phase_altitude_against_its_derivative() {
        // (angle − 2.076 √h / 60)°: ∂/∂angle = π/180, ∂/∂h = −2.076 / (120 √h) π/180.
        let deg = std::f64::consts::PI / 180.0;
        for p in [[-6.0_f64, 25.0], [-0.833, 400.0]] {
            let want = vec![deg, -2.076 / (120.0 * p[1].sqrt()) * deg];
            crate::check_first_order!(phase_altitude {}, phase_altitude, p, want);
        }
    }
}
