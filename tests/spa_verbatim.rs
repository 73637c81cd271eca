//! spa 0.5.1 (Apache-2.0, Frank Rehberger, <https://github.com/frehberg/spa-rs>): the sun's
//! azimuth and zenith angle at a UTC time and a place (the PSA algorithm), and the times of
//! sunrise and sunset (or polar night or day). The crate's `src/lib.rs` is copied here as
//! this file's root, its crate documentation kept as comments, with
//! `#[fwdad::derive_frule]` on the trait `FloatOps` (associated functions `fn sin(x: f64)
//! -> f64` and so on, no `self`: a float backend for `no_std`), on its `impl` for the empty
//! enum `StdFloatOps`, and on `in_pi`, `eps` and `berechne_zeitgleichung<T: FloatOps>`,
//! which reads the float functions through its type parameter (`T::sin(m)`);
//! `#[fwdad::derive_frule(inactive(utc))]` on `to_julian` and `solar_position<F:
//! FloatOps>`, which take chrono's `DateTime<Utc>` (no tangent); `fwdad::Differentiable`
//! added to `SolarPos`'s derive list and as a derive on `StdFloatOps`; left out:
//! `#![cfg_attr(.., no_std)]` and the crate's tests.
//!
//! Left plain, each an entry of `docs/limits.md` (another crate's type without floats):
//! `to_utc`, which returns a `DateTime<Utc>`, and `sunrise_and_set`, whose result holds
//! two (`SunriseAndSet::Daylight`). fwdad cannot give chrono's type a tangent, and no user
//! crate can (neither the trait nor the type is its own).
//!
//! What this found: `T::sin(x)` of a type parameter bounded by a trait of associated
//! functions was taken for a value of the implementing type (`6893.0 * T::sin(m)` became
//! the user's `Mul`, and rustc could not infer the arithmetic around it); the file's trait
//! declaration now says it returns `f64`.
//!
//! Checked: the zenith angle and azimuth differentiated with respect to latitude and
//! longitude against the spherical triangle's closed forms (with the parallax the crate
//! adds), and along three directions against central differences of the published crate;
//! the equation of time and the declination with respect to time in every mode against
//! central differences; the obliquity `eps` against its polynomial's derivative; every
//! primal bit for bit against the published crate (`spa::solar_position`,
//! `spa::sunrise_and_set`) or, for the private helpers, the plain copy.

// The crate's `cfg(feature = "std")`: this test crate has no such feature, and compiles the
// crate's `std` side through `cfg(test)`. The crate writes `return x;` at the end of
// bodies, `SolarPos { azimuth: azimuth, .. }`, `-90.0 > lat || 90.0 < lat`, `x = x + PI2` and
// `(jd_start as f64)` of an `f64`.
#![allow(
    unexpected_cfgs,
    dead_code,
    clippy::needless_return,
    clippy::redundant_field_names,
    clippy::excessive_precision,
    clippy::approx_constant,
    clippy::manual_range_contains,
    clippy::assign_op_pattern,
    clippy::unnecessary_cast
)]

mod common;

// ---- spa 0.5.1, src/lib.rs ----

// Licensed under the Apache License, Version 2.0 <LICENSE-APACHE or
// http://www.apache.org/licenses/LICENSE-2.0>.
// This file may not be copied, modified, or distributed
// except according to those terms.

// Solar Position Algorithm module for Rust
//
// Collection of algorithms calculating sunrise/sunset and azimuth/zenith-angle.
//
// The SPA library supports `std` and `no_std` build targets. The following
// example uses the built-in implementation `StdFloatOps` for `std` build targets.
//
// ```rust
// use chrono::{TimeZone, Utc};
// use spa::{solar_position, sunrise_and_set, SolarPos, StdFloatOps, SunriseAndSet};
//
// // main
// fn main() {
//     let dt = Utc.with_ymd_and_hms(2005, 9, 30, 12, 0, 0)
//         .single().unwrap();
//
//     // geo-pos near Frankfurt/Germany
//     let lat = 50.0;
//     let lon = 10.0;
//
//     let _solpos: SolarPos = solar_position::<StdFloatOps>(dt, lat, lon).unwrap();
//     // ...
//     let _sunrise_set: SunriseAndSet =  sunrise_and_set::<StdFloatOps>(dt, lat, lon).unwrap();
//     // ...
// }
// ```

// #![cfg_attr(not(any(feature = "std", test)), no_std)] (crate-level, left out)

use chrono::prelude::Utc;
use chrono::DateTime;
use chrono::TimeZone;
use chrono::Timelike;
use core::f64::consts::PI;

const PI2: f64 = PI * 2.0;
const RAD: f64 = 0.017453292519943295769236907684886;
const EARTH_MEAN_RADIUS: f64 = 6371.01;
// In km
const ASTRONOMICAL_UNIT: f64 = 149597890.0;
// In km
const JD2000: f64 = 2451545.0;

/// platform specific floating operations
///
/// For `std` targets, you can use the provided [`StdFloatOps`]
#[fwdad::derive_frule]
pub trait FloatOps {
    fn sin(x: f64) -> f64;
    fn cos(x: f64) -> f64;
    fn tan(x: f64) -> f64;

    fn asin(x: f64) -> f64;
    fn acos(x: f64) -> f64;
    fn atan(x: f64) -> f64;
    fn atan2(y: f64, x: f64) -> f64;

    fn trunc(x: f64) -> f64;
}

/// FloatOps for the std environment, mapping directly onto f64 operations
#[cfg(any(feature = "std", test))]
#[derive(fwdad::Differentiable)]
pub enum StdFloatOps {}
#[cfg(any(feature = "std", test))]
#[fwdad::derive_frule]
impl FloatOps for StdFloatOps {
    fn sin(x: f64) -> f64 {
        f64::sin(x)
    }
    fn cos(x: f64) -> f64 {
        x.cos()
    }
    fn tan(x: f64) -> f64 {
        x.tan()
    }
    fn asin(x: f64) -> f64 {
        x.asin()
    }
    fn acos(x: f64) -> f64 {
        x.acos()
    }
    fn atan(x: f64) -> f64 {
        x.atan()
    }
    fn atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }
    fn trunc(x: f64) -> f64 {
        x.trunc()
    }
}

/// The sun-rise and sun-set as UTC, otherwise permanent polar-night or polar-day
#[derive(Debug, Clone)]
pub enum SunriseAndSet {
    /// The polar night occurs in the northernmost and southernmost regions of the Earth when
    /// the night lasts for more than 24 hours. This occurs only inside the polar circles.
    PolarNight,
    /// The polar day occurs when the Sun stays above the horizon for more than 24 hours.
    /// This occurs only inside the polar circles.
    PolarDay,
    /// The sunrise and sunset as UTC, the Coordinated Universal Time (offset +00:00), incl.
    /// leap-seconds.
    ///
    /// These UTC time-points can be transformed to local times based on longitude or the
    /// corresponding timezone. As timezones are corresponding to borders of countries, a map
    /// would be required.
    Daylight(DateTime<Utc>, DateTime<Utc>),
}

/// The solar position
#[derive(Debug, Clone, fwdad::Differentiable)]
pub struct SolarPos {
    /// horizontal angle measured clockwise from a north base line or meridian
    pub azimuth: f64,
    /// the angle between the zenith and the centre of the sun's disc
    pub zenith_angle: f64,
}

/// The error conditions
#[cfg(not(any(feature = "std", test)))]
#[derive(Debug, Clone)]
pub enum SpaError {
    BadParam,
}
/// Displaying SpaError, enabling error message on console
#[cfg(not(any(feature = "std", test)))]
impl core::fmt::Display for SpaError {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        match *self {
            SpaError::BadParam => write!(f, "Latitude or longitude are not within valid ranges."),
        }
    }
}

/// The error conditions
#[cfg(any(feature = "std", test))]
#[derive(Debug, Clone, thiserror::Error)]
pub enum SpaError {
    #[error("Latitude or longitude are not within valid ranges.")]
    BadParam,
}

/// Converting DateTime<Utc> to Julian-Days (f64)
///
/// Julian-Days is the number of days (incl. fraction) since January 1, 4713 BC, noon, without the
/// leap seconds.
///
/// # Arguments
///
/// * `utc` - UTC time point
///
#[fwdad::derive_frule(inactive(utc))]
fn to_julian(utc: DateTime<Utc>) -> f64 {
    let seconds_since_epoch: i64 = utc.timestamp();

    ((seconds_since_epoch as f64) / 86400.0) + 2440587.5
}

/// Convert Julian-Days to UTC time-point
///
/// Julian-Days is the number of days (incl. fraction) since January 1, 4713 BC, noon, without the
/// leap seconds.
///
/// # Arguments
///
/// * `jd` - Julian days since January 1, 4713 BC noon (12:00)
///
fn to_utc(jd: f64) -> DateTime<Utc> {
    let secs_since_epoch = (jd - 2440587.5) * 86400.0;
    let nanos = secs_since_epoch * (1000.0 * 1000.0 * 1000.0);
    Utc.timestamp_nanos(nanos as i64)
}

/// Projecting value into range [0,..,PI]
///
/// # Arguments
///
/// * `x` - radiant, not normalized to range [-PI..PI]
#[fwdad::derive_frule]
fn in_pi(x: f64) -> f64 {
    let n = (x / PI2) as i64;
    let result = x - (n as f64 * PI2);
    if result < 0.0 {
        result + PI2
    } else {
        result
    }
}

/// Returns the eccentricity of earth ellipse
///
/// # Arguments
///
/// * `t` - time according to standard equinox J2000.0
///
#[fwdad::derive_frule]
fn eps(t: f64) -> f64 {
    return RAD
        * (23.43929111 + ((-46.8150) * t - 0.00059 * t * t + 0.001813 * t * t * t) / 3600.0);
}

/// Calculates equation of time, returning the tuple (delta-ascension, declination)
///
/// # Arguments
///
/// * `t` - time according to standard equinox J2000.0
#[fwdad::derive_frule]
fn berechne_zeitgleichung<T: FloatOps>(t: f64) -> (f64, f64) {
    let mut ra_mittel = 18.71506921 + 2400.0513369 * t + (2.5862e-5 - 1.72e-9 * t) * t * t;

    let m = in_pi(PI2 * (0.993133 + 99.997361 * t));
    let l = in_pi(
        PI2 * (0.7859453
            + m / PI2
            + (6893.0 * T::sin(m) + 72.0 * T::sin(2.0 * m) + 6191.2 * t) / 1296.0e3),
    );
    let e = eps(t);
    let mut ra = T::atan(T::tan(l) * T::cos(e));

    if ra < 0.0 {
        ra += PI;
    }
    if l > PI {
        ra += PI;
    }

    ra = 24.0 * ra / PI2;

    let dk = T::asin(T::sin(e) * T::sin(l));

    // Damit 0<=RA_Mittel<24
    ra_mittel = 24.0 * in_pi(PI2 * ra_mittel / 24.0) / PI2;

    let mut d_ra = ra_mittel - ra;
    if d_ra < -12.0 {
        d_ra += 24.0;
    }
    if d_ra > 12.0 {
        d_ra -= 24.0;
    }

    d_ra = d_ra * 1.0027379;

    return (d_ra, dk);
}

/// Returning Sunrise and Sunset (or PolarNight/PolarDay) at geo-pos `lat/lon` at time `t` (UTC)
///
/// # Arguments
///
/// * `utc` - UTC time-point (DateTime<Utc>)
/// * `lat` - latitude in WGS84 system, ranging from -90.0 to 90.0.
/// * `lon` - longitude in WGS84 system, ranging from -180.0 to 180.0
///
/// North of ca 67.4 degree and south of ca -67.4 it may be permanent night or day. In this
/// case may be SunriseAndSet::PolarNight or SunriseAndSet::PolarDay.
///
/// In case latitude or longitude are not in valid ranges, the function will return Err(BadParam).
///
/// Algorithm ported to Rust from  [http://lexikon.astronomie.info/zeitgleichung/neu.html](https://web.archive.org/web/20170812034800/http://lexikon.astronomie.info/zeitgleichung/neu.html)
/// Its accuracy is in the range of a few minutes.
pub fn sunrise_and_set<F: FloatOps>(
    utc: DateTime<Utc>,
    lat: f64,
    lon: f64,
) -> Result<SunriseAndSet, SpaError> {
    if -90.0 > lat || 90.0 < lat || -180.0 > lon || 180.0 < lon {
        return Err(SpaError::BadParam);
    }

    let jd = to_julian(utc);
    let t = (jd - JD2000) / 36525.0;
    let h = -50.0 / 60.0 * RAD;
    let b = lat * RAD; // geographische Breite
    let geographische_laenge = lon;

    let (ra_d, dk) = berechne_zeitgleichung::<F>(t);

    let aux = (F::sin(h) - F::sin(b) * F::sin(dk)) / (F::cos(b) * F::cos(dk));
    if aux >= 1.0 {
        Result::Ok(SunriseAndSet::PolarNight)
    } else if aux <= -1.0 {
        Result::Ok(SunriseAndSet::PolarDay)
    } else {
        let zeitdifferenz = 12.0 * F::acos(aux) / PI;

        let aufgang_lokal = 12.0 - zeitdifferenz - ra_d;
        let untergang_lokal = 12.0 + zeitdifferenz - ra_d;
        let aufgang_welt = aufgang_lokal - geographische_laenge / 15.0;
        let untergang_welt = untergang_lokal - geographische_laenge / 15.0;
        let jd_start = F::trunc(jd); // discard fraction of day

        let aufgang_jd = (jd_start as f64) - 0.5 + (aufgang_welt / 24.0);
        let untergang_jd = (jd_start as f64) - 0.5 + (untergang_welt / 24.0);

        //	let untergang_utc = untergang_lokal - geographische_laenge /15.0;
        let sunriseset = SunriseAndSet::Daylight(to_utc(aufgang_jd), to_utc(untergang_jd));
        Result::Ok(sunriseset)
    }
}

/// Returning solar position (azimuth and zenith-angle) at time `t` and geo-pos `lat` and `lon`
///
/// # Arguments
///
/// * `utc` - UTC time-point (DateTime<Utc>)
/// * `lat` - latitude in WGS84 system, ranging from -90.0 to 90.0.
/// * `lon` - longitude in WGS84 system, ranging from -180.0 to 180.0
///
/// In case latitude or longitude are not in valid ranges, the function will return Err(BadParam).
///
/// Algorithm ported to Rust from [http://www.psa.es/sdg/sunpos.htm](https://web.archive.org/web/20220308165815/http://www.psa.es/sdg/sunpos.htm)
/// The algorithm is accurate to within 0.5 minutes of arc for the year 1999 and following.
#[fwdad::derive_frule(inactive(utc))]
pub fn solar_position<F: FloatOps>(
    utc: DateTime<Utc>,
    lat: f64,
    lon: f64,
) -> Result<SolarPos, SpaError> {
    if -90.0 > lat || 90.0 < lat || -180.0 > lon || 180.0 < lon {
        return Err(SpaError::BadParam);
    }

    let decimal_hours =
        (utc.hour() as f64) + ((utc.minute() as f64) + (utc.second() as f64) / 60.0) / 60.0;

    // Calculate difference in days between the current Julian Day
    // and JD 2451545.0, which is noon 1 January 2000 Universal Time
    let elapsed_julian_days = to_julian(utc) - JD2000;

    // Calculate ecliptic coordinates (ecliptic longitude and obliquity of the
    // ecliptic in radians but without limiting the angle to be less than 2*Pi
    // (i.e., the result may be greater than 2*Pi)
    let (ecliptic_longitude, ecliptic_obliquity) = {
        let omega = 2.1429 - (0.0010394594 * elapsed_julian_days);
        let mean_longitude = 4.8950630 + (0.017202791698 * elapsed_julian_days); // Radians
        let mean_anomaly = 6.2400600 + (0.0172019699 * elapsed_julian_days);
        let ecliptic_longitude = mean_longitude
            + 0.03341607 * F::sin(mean_anomaly)
            + 0.00034894 * F::sin(2.0 * mean_anomaly)
            - 0.0001134
            - 0.0000203 * F::sin(omega);
        let ecliptic_obliquity =
            0.4090928 - 6.2140e-9 * elapsed_julian_days + 0.0000396 * F::cos(omega);
        (ecliptic_longitude, ecliptic_obliquity)
    };

    // Calculate celestial coordinates ( right ascension and declination ) in radians
    // but without limiting the angle to be less than 2*Pi (i.e., the result may be
    // greater than 2*Pi)
    let (declination, right_ascension) = {
        let sin_ecliptic_longitude = F::sin(ecliptic_longitude);
        let dy = F::cos(ecliptic_obliquity) * sin_ecliptic_longitude;
        let dx = F::cos(ecliptic_longitude);
        let mut right_ascension = F::atan2(dy, dx);
        if right_ascension < 0.0 {
            right_ascension = right_ascension + PI2;
        }
        let declination = F::asin(F::sin(ecliptic_obliquity) * sin_ecliptic_longitude);
        (declination, right_ascension)
    };

    // Calculate local coordinates ( azimuth and zenith angle ) in degrees
    let (azimuth, zenith_angle) = {
        let greenwich_mean_sidereal_time =
            6.6974243242 + 0.0657098283 * elapsed_julian_days + decimal_hours;
        let local_mean_sidereal_time = (greenwich_mean_sidereal_time * 15.0 + lon) * RAD;
        let hour_angle = local_mean_sidereal_time - right_ascension;
        let latitude_in_radians = lat * RAD;
        let cos_latitude = F::cos(latitude_in_radians);
        let sin_latitude = F::sin(latitude_in_radians);
        let cos_hour_angle = F::cos(hour_angle);
        let mut zenith_angle = F::acos(
            cos_latitude * cos_hour_angle * F::cos(declination)
                + F::sin(declination) * sin_latitude,
        );
        let dy = -F::sin(hour_angle);
        let dx = F::tan(declination) * cos_latitude - sin_latitude * cos_hour_angle;
        let mut azimuth = F::atan2(dy, dx);
        if azimuth < 0.0 {
            azimuth = azimuth + PI2;
        }
        azimuth = azimuth / RAD;
        // Parallax Correction
        let parallax = (EARTH_MEAN_RADIUS / ASTRONOMICAL_UNIT) * F::sin(zenith_angle);
        zenith_angle = (zenith_angle + parallax) / RAD;
        (azimuth, zenith_angle)
    };

    let solpos = SolarPos {
        azimuth: azimuth,
        zenith_angle: zenith_angle,
    };

    Result::Ok(solpos)
}

// ---- the checks ----

#[cfg(test)]
mod checks {
    use super::*;
    use fwdad::prelude::*;

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * want.abs().max(1.0),
            "{what}: {got}, want {want}"
        );
    }

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, s).single().unwrap()
    }

    /// The crate's own example date: 2005-09-30 12:00 UTC.
    fn noon() -> DateTime<Utc> {
        utc(2005, 9, 30, 12, 0, 0)
    }

    /// The position's rule at `t` over `[lat, lon]` in the direction `dir`: the published
    /// crate's position and the rule's, and the rule's directional derivatives of the
    /// zenith angle and the azimuth.
    fn position_along(
        t: DateTime<Utc>,
        p: [f64; 2],
        dir: [f64; 2],
    ) -> (::spa::SolarPos, SolarPos, f64, f64) {
        let published = ::spa::solar_position::<::spa::StdFloatOps>(t, p[0], p[1]).unwrap();
        let d = solar_position_frule::<StdFloatOps>(
            t,
            Dual::new(p[0], dir[0]),
            Dual::new(p[1], dir[1]),
        );
        let (value, tangent) = (d.primal.unwrap(), d.tangent.unwrap());
        (published, value, tangent.zenith_angle, tangent.azimuth)
    }

    /// The sun's declination and local hour angle (radians), written out here from the PSA
    /// paper (Blanco-Muriel et al., Solar Energy 70 (2001) 431), for the closed forms.
    fn declination_and_hour_angle(t: DateTime<Utc>, lon: f64) -> (f64, f64) {
        let n = t.timestamp() as f64 / 86_400.0 + 2_440_587.5 - 2_451_545.0;
        let hours = t.hour() as f64 + t.minute() as f64 / 60.0 + t.second() as f64 / 3600.0;
        let omega = 2.1429 - 0.001_039_459_4 * n;
        let mean_lon = 4.895_063 + 0.017_202_791_698 * n;
        let g = 6.240_06 + 0.017_201_969_9 * n;
        let lambda = mean_lon + 0.033_416_07 * g.sin() + 0.000_348_94 * (2.0 * g).sin()
            - 0.000_113_4
            - 0.000_020_3 * omega.sin();
        let eps = 0.409_092_8 - 6.214e-9 * n + 0.000_039_6 * omega.cos();
        let ra = (eps.cos() * lambda.sin()).atan2(lambda.cos());
        let delta = (eps.sin() * lambda.sin()).asin();
        let gmst = 6.697_424_324_2 + 0.065_709_828_3 * n + hours;
        let h = (gmst * 15.0 + lon).to_radians() - ra;
        (delta, h)
    }

    #[test]
    fn position_against_the_spherical_triangle() {
        // cos z₀ = cos φ cos H cos δ + sin δ sin φ, the crate's zenith z = (z₀ + k sin z₀) / RAD
        // with k = R⊕ / AU (parallax); A = atan2(−sin H, tan δ cos φ − sin φ cos H) / RAD.
        // φ = lat·RAD and ∂H/∂lon = RAD: the degrees cancel.
        let k = 6371.01 / 149_597_890.0;
        for t in [
            noon(),
            utc(2020, 6, 21, 4, 30, 15),
            utc(2024, 12, 21, 16, 0, 0),
        ] {
            for p in [[50.0, 10.0], [-33.9, 18.4], [64.1, -21.9], [1.3, 103.8]] {
                let (delta, h) = declination_and_hour_angle(t, p[1]);
                let phi = p[0].to_radians();
                let c = phi.cos() * h.cos() * delta.cos() + delta.sin() * phi.sin();
                let z0 = c.acos();
                let scale = 1.0 + k * z0.cos();
                let dz_dlat = -(-phi.sin() * h.cos() * delta.cos() + delta.sin() * phi.cos())
                    / z0.sin()
                    * scale;
                let dz_dlon = phi.cos() * h.sin() * delta.cos() / z0.sin() * scale;
                let (y, x) = (-h.sin(), delta.tan() * phi.cos() - phi.sin() * h.cos());
                let r2 = x * x + y * y;
                let daz_dlat = -y * (-delta.tan() * phi.sin() - phi.cos() * h.cos()) / r2;
                let daz_dlon = (x * -h.cos() - y * phi.sin() * h.sin()) / r2;

                let (published, value, dz, da) = position_along(t, p, [1.0, 0.0]);
                assert_eq!(
                    value.zenith_angle.to_bits(),
                    published.zenith_angle.to_bits()
                );
                assert_eq!(value.azimuth.to_bits(), published.azimuth.to_bits());
                close(dz, dz_dlat, 1e-9, "∂zenith/∂lat");
                close(da, daz_dlat, 1e-9, "∂azimuth/∂lat");
                let (_, _, dz, da) = position_along(t, p, [0.0, 1.0]);
                close(dz, dz_dlon, 1e-9, "∂zenith/∂lon");
                close(da, daz_dlon, 1e-9, "∂azimuth/∂lon");
            }
        }
    }

    #[test]
    fn position_against_central_differences_of_the_published_crate() {
        // The plain copy and the rule against the published crate over times and places,
        // a pole and the date line included; outside the ranges both return `Err(BadParam)`.
        let times = [
            noon(),
            utc(2020, 6, 21, 4, 30, 15),
            utc(2024, 12, 21, 23, 59, 59),
            utc(1999, 1, 1, 0, 0, 0),
        ];
        let published = |t, lat, lon| {
            let p = ::spa::solar_position::<::spa::StdFloatOps>(t, lat, lon).unwrap();
            [p.zenith_angle, p.azimuth]
        };
        for t in times {
            for p in [
                [48.1, 11.6],
                [-70.0, -179.0],
                [89.0, 0.0],
                [0.0, 179.0],
                [12.0, -60.5],
            ] {
                let plain = solar_position::<StdFloatOps>(t, p[0], p[1]).unwrap();
                let want = published(t, p[0], p[1]);
                assert_eq!(plain.zenith_angle.to_bits(), want[0].to_bits());
                assert_eq!(plain.azimuth.to_bits(), want[1].to_bits());
                for (k, dir) in [[1.0, 0.0], [0.0, 1.0], [0.6, -0.8]]
                    .into_iter()
                    .enumerate()
                {
                    let (_, value, dz, da) = position_along(t, p, dir);
                    assert_eq!(value.zenith_angle.to_bits(), want[0].to_bits());
                    assert_eq!(value.azimuth.to_bits(), want[1].to_bits());
                    let h = 1e-5;
                    let fp = published(t, p[0] + h * dir[0], p[1] + h * dir[1]);
                    let fm = published(t, p[0] - h * dir[0], p[1] - h * dir[1]);
                    close(
                        dz,
                        (fp[0] - fm[0]) / (2.0 * h),
                        1e-6,
                        &format!("zenith {k}"),
                    );
                    close(
                        da,
                        (fp[1] - fm[1]) / (2.0 * h),
                        1e-6,
                        &format!("azimuth {k}"),
                    );
                }
            }
        }
        assert!(solar_position::<StdFloatOps>(noon(), 91.0, 0.0).is_err());
        let d = solar_position_frule::<StdFloatOps>(
            noon(),
            Dual::new(0.0, 1.0),
            Dual::new(-180.5, 0.0),
        );
        assert!(d.primal.is_err());
    }

    /// The equation of time (hours of right ascension) `d[0]` days after J2000 (the crate
    /// takes Julian centuries).
    #[fwdad::derive_frule]
    fn equation_of_time(d: &[f64]) -> f64 {
        berechne_zeitgleichung::<StdFloatOps>(d[0] / 36525.0).0
    }

    /// The sun's declination (radians) then.
    #[fwdad::derive_frule]
    fn declination(d: &[f64]) -> f64 {
        berechne_zeitgleichung::<StdFloatOps>(d[0] / 36525.0).1
    }

    #[test]
    fn equation_of_time_in_every_mode() {
        // Central differences of the plain function, in days: both change over months.
        for d in [2098.5, -449.25, 7305.0, 8973.3] {
            crate::check_modes!(equation_of_time {}, equation_of_time, [d]);
            crate::check_modes!(declination {}, declination, [d]);
        }
    }

    #[test]
    fn obliquity_against_its_polynomial() {
        // ε(t) = RAD (23.43929111 + (−46.815 t − 0.00059 t² + 0.001813 t³) / 3600).
        let rad = std::f64::consts::PI / 180.0;
        for t in [-1.0, 0.0, 0.0574, 3.0] {
            let d = eps_frule(Dual::new(t, 1.0));
            assert_eq!(d.primal.to_bits(), eps(t).to_bits());
            let want = rad * (-46.815 - 2.0 * 0.000_59 * t + 3.0 * 0.001_813 * t * t) / 3600.0;
            close(d.tangent, want, 1e-12, "ε'");
            let d = in_pi_frule(Dual::new(t * 20.0, 1.0));
            assert_eq!(d.primal.to_bits(), in_pi(t * 20.0).to_bits());
            assert_eq!(d.tangent, 1.0, "in_pi' (a shift by whole turns)");
        }
    }

    #[test]
    fn sunrise_and_set_bit_for_bit() {
        // The times are `DateTime`s (no tangent); the rule's result is the published
        // crate's, polar night and day included.
        for t in [
            noon(),
            utc(2020, 6, 21, 4, 30, 15),
            utc(2024, 12, 21, 23, 0, 0),
        ] {
            for (lat, lon) in [(48.1, 11.6), (-70.0, -179.0), (80.0, 0.0), (-80.0, 10.0)] {
                let published = ::spa::sunrise_and_set::<::spa::StdFloatOps>(t, lat, lon).unwrap();
                let plain = sunrise_and_set::<StdFloatOps>(t, lat, lon).unwrap();
                for mine in [plain] {
                    match (mine, &published) {
                        (SunriseAndSet::PolarNight, ::spa::SunriseAndSet::PolarNight)
                        | (SunriseAndSet::PolarDay, ::spa::SunriseAndSet::PolarDay) => {}
                        (SunriseAndSet::Daylight(r, s), ::spa::SunriseAndSet::Daylight(pr, ps)) => {
                            assert_eq!((r, s), (*pr, *ps))
                        }
                        (m, p) => panic!("{m:?} against {p:?}"),
                    }
                }
            }
        }
        assert!(sunrise_and_set::<StdFloatOps>(noon(), 0.0, 181.0).is_err());
    }
}
