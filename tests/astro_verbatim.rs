//! astro 2.0.0 (MIT, <https://github.com/saurvs/astro-rust>, commit c62ffdc): Meeus's
//! astronomical algorithms, the modules `angle`, `coords`, `time`, `nutation`, `consts` and
//! `orbit` (elliptic, parabolic and near-parabolic orbits, Kepler's equation by iteration,
//! Landgraf's near-parabolic method with its nested loops), copied from the repository with
//! `#[fwdad::derive_frule]` on every free function and `impl` block and
//! `fwdad::Differentiable` added to the derive list of the coordinate points. The crate is
//! written in the 2015 edition: its `use angle;` imports are written `use crate::angle;`
//! here, its crate-level `allow`s are on each module, and each file's licence block is kept
//! once, below.
//!
//! Checked against closed forms (the derivatives of the coordinate transformations and of
//! Kepler's equation by implicit differentiation) and central differences, in every mode;
//! primals bit for bit against the plain functions.
//!
//! astro's licence:
//!
//! Copyright (c) 2015, 2016 Saurav Sachidanand
//!
//! Permission is hereby granted, free of charge, to any person obtaining a copy
//! of this software and associated documentation files (the "Software"), to deal
//! in the Software without restriction, including without limitation the rights
//! to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
//! copies of the Software, and to permit persons to whom the Software is
//! furnished to do so, subject to the following conditions:
//!
//! The above copyright notice and this permission notice shall be included in
//! all copies or substantial portions of the Software.
//!
//! THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
//! IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
//! FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
//! AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
//! LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
//! OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
//! THE SOFTWARE.

mod common;

/// `src/angle.rs`.
#[rustfmt::skip]
#[allow(non_snake_case, non_camel_case_types, clippy::all, dead_code, unused_imports, unused_parens, unused_mut)]
pub mod angle {
//! Angles for astronomy

use std;

pub const TWO_PI: f64 = 2.0 * std::f64::consts::PI;

/**
Computes the angular separation between two angular points

# Arguments

* `p1a1`: Angle 1 of point 1 *| in radians*
* `p1a2`: Angle 2 of point 1 *| in radians*
* `p2a1`: Angle 1 of point 2 *| in radians*
* `p2a2`: Angle 2 of point 2 *| in radians*

Angle 1 may be right ascension or longitude.
Angle 2 may be declination or latitude.
**/
#[fwdad::derive_frule]
#[inline]
pub fn anglr_sepr(p1a1: f64, p1a2: f64, p2a1: f64, p2a2: f64) -> f64
{
    (
          p1a2.sin() * p2a2.sin()
        + p1a2.cos() * p2a2.cos() * (p1a1 - p2a1).cos()
    ).acos()
}

/**
Computes an angle in degrees with decimals, from an angle
expressed in degrees, arcminutes and arcseconds

# Returns

* `deg`: Angle in degrees with decimals

# Arguments

* `deg`: Degrees
* `min`: Arcminutes
* `sec`: Arcseconds
**/
#[fwdad::derive_frule]
#[inline]
pub fn deg_frm_dms(deg: i64, min: i64, sec: f64) -> f64
{
    let (M, S) =
        if deg < 0 { (-min.abs(), -sec.abs()) }
        else       { (min, sec) };

    (deg as f64) + (M as f64)/60.0 + S/3600.0
}

/**
Computes an angle expressed in degrees, arcminutes and
arcseconds, from an angle in degrees with decimals

# Returns

`(deg, min, sec)`

* `deg`: Degrees
* `min`: Arcminutes
* `sec`: Arcseconds

# Arguments

* `deg`: Angle in degrees with decimals
**/
#[fwdad::derive_frule]
#[inline]
pub fn dms_frm_deg(deg: f64) -> (i64, i64, f64)
{
    let degree = deg as i64;

    let minutes = (deg - (degree as f64)) * 60.0;
    let minute = minutes as i64;

    let seconds = (minutes - (minute as f64)) * 60.0;

    (degree, minute, seconds)
}

/**
Computes an angle in degrees with decimals, from an angle
expressed in hours, minutes and seconds

# Arguments

* `hours`: Hours
* `min`: Minutes
* `sec`: Seconds
**/
#[fwdad::derive_frule]
#[inline]
pub fn deg_frm_hms(hour: i64, min: i64, sec: f64) -> f64
{
    15.0 * ((hour as f64) + (min as f64)/60.0 + sec/3600.0)
}

/**
Computes an angle expressed in hours, minutes and
seconds, from an angle in degrees with decimals

# Returns

`(deg, min, sec)`

* `hour`: Hours
* `min`: Minutes
* `sec`: Seconds

# Arguments

* `deg`: Angle in degrees with decimals
**/
#[fwdad::derive_frule]
#[inline]
pub fn hms_frm_deg(deg: f64) -> (i64, i64, f64)
{
    let hours = deg / 15.0;
    let hour = hours as i64;

    let minutes = (hours - (hour as f64)) * 60.0;
    let minute = minutes as i64;

    let seconds = (minutes - (minute as f64)) * 60.0;

    (hour, minute, seconds)
}

/**
Computes the equivalent angle in [0, 360] degree range

# Arguments

* `angl`: Angle *| in degrees*
**/
#[fwdad::derive_frule]
#[inline]
pub fn limit_to_360(angl: f64) -> f64
{
    let n = (angl / 360.0) as i64;
    let limited_angl = angl - (360.0 * (n as f64));

    if limited_angl < 0.0 { limited_angl + 360.0 }
    else                  { limited_angl }
}

/**
Computes the equivalent angle in [0, 2π] radian range

# Arguments

* `angl`: Angle *| in radians*
**/
#[fwdad::derive_frule]
#[inline]
pub fn limit_to_two_PI(angl: f64) -> f64
{
    let n = (angl / TWO_PI) as i64;
    let limited_angl = angl - (TWO_PI * (n as f64));

    if limited_angl < 0.0 { limited_angl + TWO_PI }
    else                  { limited_angl }
}
}

/// `src/coords.rs`.
#[rustfmt::skip]
#[allow(non_snake_case, non_camel_case_types, clippy::all, dead_code, unused_imports, unused_parens, unused_mut)]
pub mod coords {
//! Transform between coordinate systems

use crate::angle;

/// Represents a point on the geographical surface of the Earth
#[derive(Debug, fwdad::Differentiable)]
pub struct GeographPoint {
    /// Geographical longitude
    pub long: f64,
    /// Geographical latitude
    pub lat: f64,
}

#[fwdad::derive_frule]
impl GeographPoint {
    pub fn anglr_sepr(&self, other_point: &GeographPoint) -> f64 {
        angle::anglr_sepr (
            self.long, self.lat,
            other_point.long, other_point.lat
        )
    }
}

/// Represents a point in the equatorial coordinate system
#[derive(Debug, fwdad::Differentiable)]
pub struct EqPoint {
    /// Right ascension
    pub asc: f64,
    /// Declination
    pub dec: f64,
}

#[fwdad::derive_frule]
impl EqPoint {
    pub fn anglr_sepr(&self, other_point: &EqPoint) -> f64 {
        angle::anglr_sepr (
            self.asc, self.dec,
            other_point.asc, other_point.dec
        )
    }
}

/// Represents a point in the ecliptic coordinate system
#[derive(Debug, fwdad::Differentiable)]
pub struct EclPoint {
    /// Ecliptic longitude
    pub long: f64,
    /// Ecliptic latitude
    pub lat: f64,
}

#[fwdad::derive_frule]
impl EclPoint {
    pub fn anglr_sepr(&self, other_point: &EclPoint) -> f64 {
        angle::anglr_sepr (
            self.long, self.lat,
            other_point.long, other_point.lat
        )
    }
}

/**
Computes the hour angle from geographical longitude and Greenwhich
sidereal time

# Returns

* `hour_angle`: Hour angle *| in radians*

# Arguments

* `green_sidreal`: Sidereal time at Greenwhich *| in radians*
* `observer_long`: Observer's geographical longitude *| in radians*
* `asc`: Right ascension *| in radians*
**/
#[fwdad::derive_frule]
#[inline]
pub fn hr_angl_frm_observer_long(green_sidreal: f64, observer_long: f64, asc: f64) -> f64 {

    green_sidreal - observer_long - asc

}

/**
Computes the hour angle from local sidereal time and right
ascension

# Returns

* `hour_angle`: Hour angle *| in radians*

# Arguments

* `local_sidreal`: Local sidereal time *| in radians*
* `asc`: Right ascension *| in radians*
**/
#[fwdad::derive_frule]
#[inline]
pub fn hr_angl_frm_loc_sidr(local_sidreal: f64, asc: f64) -> f64 {

    local_sidreal - asc

}

/**
Computes the ecliptic longitude from equatorial coordinates

# Returns

* `ecl_long`: Ecliptic longitude *| in radians*

# Arguments

* `asc`: Right ascension *| in radians*
* `dec`: Declination *| in radians*
* `oblq_eclip`: If `asc` and `dec` are corrected for
                    nutation, then *true* obliquity. If not, then
                    *mean* obliquity. *| in radians*
**/
#[fwdad::derive_frule]
pub fn ecl_long_frm_eq(asc: f64, dec: f64, oblq_eclip: f64,) -> f64 {

    (
        asc.sin() * oblq_eclip.cos()
      + dec.tan() * oblq_eclip.sin()
    ).atan2(asc.cos())

}

/**
Computes the ecliptic latitude from equatorial coordinates

# Returns

* `ecl_lat`: Ecliptic latitude *| in radians*

# Arguments

* `asc`: Right ascension *| in radians*
* `dec`: Declination *| in radians*
* `oblq_eclip`: If `asc` and `dec` are corrected for
                    nutation, then *true* obliquity. If not, then
                    *mean* obliquity. *| in radians*
**/
#[fwdad::derive_frule]
pub fn ecl_lat_frm_eq(asc: f64, dec: f64, oblq_eclip: f64) -> f64 {

    (
        dec.sin() * oblq_eclip.cos()
      - dec.cos() * oblq_eclip.sin() * asc.sin()
    ).asin()

}

/**
Computes ecliptic coordinates from equatorial coordinates

# Returns

`(ecl_long, ecl_lat)`

* `ecl_long`: Ecliptic longitude *| in radians*
* `ecl_lat`: Ecliptic latitude *| in radians*

# Arguments

* `$asc`: Right ascension *| in radians*
* `$dec`: Declination *| in radians*
* `$oblq_eclip`: If `$asc` and `$dec` are corrected for
                     nutation, then *true* obliquity. If not, then
                     *mean* obliquity. *| in radians*
**/
#[macro_export]
macro_rules! ecl_frm_eq {
    ($asc: expr, $dec: expr, $oblq_eclip: expr) => {{
        (astro::coords::ecl_long_frm_eq($asc, $dec, $oblq_eclip),
         astro::coords::ecl_lat_frm_eq($asc, $dec, $oblq_eclip))
    }};
}

/**
Computes the right ascension from ecliptic coordinates

# Returns

* `asc`: Right ascension *| in radians*

# Arguments

* `ecl_long`: Ecliptic longitude *| in radians*
* `ecl_lat`: Ecliptic latitude *| in radians*
* `oblq_eclip`: If `ecl_long` and `ecl_lat` are corrected
                    for nutation, then *true* obliquity. If not, then
                    *mean* obliquity. *| in radians*
**/
#[fwdad::derive_frule]
pub fn asc_frm_ecl(ecl_long: f64, ecl_lat: f64, oblq_eclip: f64) -> f64 {

    (
        ecl_long.sin() * oblq_eclip.cos()
      - ecl_lat.tan()  * oblq_eclip.sin()
    ).atan2(ecl_long.cos())

}

/**
Computes the declination from ecliptic coordinates

# Returns

* `dec`: Declination *| in radians*

# Arguments

* `ecl_long`: Ecliptic longitude *| in radians*
* `ecl_lat`: Ecliptic latitude *| in radians*
* `oblq_eclip`: If `ecl_long` and `ecl_lat` are corrected
                    for nutation, then *true* obliquity. If not, then
                    *mean* obliquity. *| in radians*
**/
#[fwdad::derive_frule]
pub fn dec_frm_ecl(ecl_long: f64, ecl_lat: f64, oblq_eclip: f64) -> f64 {

    (
        ecl_lat.sin() * oblq_eclip.cos()
      + ecl_lat.cos() * oblq_eclip.sin() * ecl_long.sin()
    ).asin()

}

/**
Computes equatorial coordinates from ecliptic coordinates

# Returns

`(asc, dec)`

* `asc`: Right ascension *| in radians*
* `dec`: Declination *| in radians*

# Arguments

* `$ecl_long`: Ecliptic longitude *| in radians*
* `$ecl_lat`: Ecliptic latitude *| in radians*
* `$oblq_eclip`: If `$ecl_long` and `$ecl_lat` are corrected for
                     nutation, then *true* obliquity. If not, then
                     *mean* obliquity. *| in radians*
**/
#[macro_export]
macro_rules! eq_frm_ecl {
    ($ecl_long: expr, $ecl_lat: expr, $oblq_eclip: expr) => {{
        (astro::coords::asc_frm_ecl($ecl_long, $ecl_lat, $oblq_eclip),
         astro::coords::dec_frm_ecl($ecl_long, $ecl_lat, $oblq_eclip))
    }};
}

/**
Computes the azimuth from equatorial coordinates

# Returns

* `az`: Azimuth *| in radians*

# Arguments

* `hour_angle`: Hour angle *| in radians*
* `dec`: Declination *| in radians*
* `observer_lat`: Observer's geographical latitude *| in radians*
**/
#[fwdad::derive_frule]
pub fn az_frm_eq(hour_angle: f64, dec: f64, observer_lat: f64) -> f64 {

    hour_angle.sin().atan2 (
        hour_angle.cos()  * observer_lat.sin()
      - dec.tan() * observer_lat.cos()
    )

}

/**
Computes the altitude from equatorial coordinates

# Returns

* `alt`: Altitude *| in radians*

# Arguments

* `hour_angle`: Hour angle *| in radians*
* `dec`: Declination *| in radians*
* `observer_lat`: Observer's geographical latitude *| in radians*
**/
#[fwdad::derive_frule]
pub fn alt_frm_eq(hour_angle: f64, dec: f64, observer_lat: f64) -> f64 {

    (
        observer_lat.sin() * dec.sin()
      + observer_lat.cos() * dec.cos() * hour_angle.cos()
    ).asin()

}

/**
Computes local horizontal coordinates from equatorial coordinates

# Returns

`(az, alt)`

* `az`: Azimuth *| in radians*
* `alt`: Altitude *| in radians*

# Arguments

* `$hour_angle`: Hour angle *| in radians*
* `$dec`: Declination *| in radians*
* `$observer_lat`: Observer's geographical latitude *| in radians*
**/
#[macro_export]
macro_rules! loc_hz_frm_eq {
    ($hour_angle: expr, $dec: expr, $observer_lat: expr) => {{
        (astro::coords::az_frm_eq($hour_angle, $dec, $observer_lat),
         astro::coords::alt_frm_eq($hour_angle, $dec, $observer_lat))
    }};
}

/**
Computes the hour angle from local horizontal coordinates

# Returns

* `hour_angle`: Hour angle *| in radians*

# Arguments

* `az`: Azimuth *| in radians*
* `alt`: Altitude *| in radians*
* `observer_lat`: Observer's geographical latitude *| in radians*
**/
#[fwdad::derive_frule]
pub fn hr_angl_frm_hz(az: f64, alt: f64, observer_lat: f64) -> f64 {

    az.sin().atan2 (
        az.cos() * observer_lat.sin()
      + alt.tan() * observer_lat.cos()
    )

}

/**
Computes the declination from local horizontal coordinates

# Returns

* `dec`: Declination *| in radians*

# Arguments

* `az`: Azimuth *| in radians*
* `alt`: Altitude *| in radians*
* `observer_lat`: Observer's geographical latitude *| in radians*
**/
#[fwdad::derive_frule]
pub fn dec_frm_hz(az: f64, alt: f64, observer_lat: f64) -> f64 {

    (
        observer_lat.sin() * alt.sin()
      - observer_lat.cos() * az.cos() * az.cos()
    ).asin()

}

/**
Computes the galactic longitude from equatorial coordinates

# Returns

* `gal_long`: Galactic longitude *| in radians*

# Arguments

* `asc`: Right ascension *| in radians*
* `dec`: Declination *| in radians*

The equatorial coordinates passed are assumed to be referred to the
standard equinox of B1950.0.
**/
#[fwdad::derive_frule]
pub fn gal_long_frm_eq(asc: f64, dec: f64) -> f64 {

    303_f64.to_radians()
  - (192.25_f64.to_radians() - asc).sin().atan2 (
        27.4_f64.to_radians().sin() * (192.25_f64.to_radians() - asc).cos()
      - 27.4_f64.to_radians().cos() * dec.tan()
    )

}

/**
Computes the galactic latitude from equatorial coordinates

# Returns

* `gal_lat`: Galactic latitude *| in radians*

# Arguments

* `asc`: Right ascension *| in radians*
* `dec`: Declination *| in radians*

The equatorial coordinates passed are assumed to be referred to the
standard equinox of B1950.0.
**/
#[fwdad::derive_frule]
pub fn gal_lat_frm_eq(asc: f64, dec: f64) -> f64 {

    (
        dec.sin() * 27.4_f64.to_radians().sin()
      + dec.cos() * 27.4_f64.to_radians().cos() * (192.25_f64.to_radians() - asc).cos()
    ).asin()

}

/**
Computes galactic coordinates from equatorial coordinates

# Returns

`(gal_long, gal_lat)`

* `gal_long`: Galactic longitude *| in radians*
* `gal_lat`: Galactic latitude *| in radians*

# Arguments

* `$asc`: Right ascension *| in radians*
* `$dec`: Declination *| in radians*

The equatorial coordinates passed are assumed to be referred to the
standard equinox of B1950.0.
**/
#[macro_export]
macro_rules! gal_frm_eq {
    ($asc: expr, $dec: expr) => {{
        (astro::coords::gal_long_frm_eq($asc, $dec),
         astro::coords::gal_lat_frm_eq($asc, $dec))
    }};
}

/**
Computes the right ascension from galactic coordinates

# Returns

* `asc`: Right ascension *| in radians*

The right ascension returned here is referred to the standard equinox
of  B1950.0.

# Arguments

* `gal_long`: Galactic longitude *| in radians*
* `gal_lat`: Galactic latitude *| in radians*
**/
#[fwdad::derive_frule]
pub fn asc_frm_gal(gal_long: f64, gal_lat: f64) -> f64 {

      12.25_f64.to_radians()
    + (gal_long - 123_f64.to_radians()).sin().atan2 (
        27.4_f64.to_radians().sin() * (gal_long - 123_f64.to_radians()).cos()
      - 27.4_f64.to_radians().cos() * gal_lat.tan()
    )

}

/**
Computes the declination from galactic coordinates

# Returns

* `dec`: Declination *| in radians*

The declination returned here is referred to the standard equinox
of  B1950.0.

# Arguments

* `gal_long`: Galactic longitude *| in radians*
* `gal_lat`: Galactic latitude *| in radians*
**/
#[fwdad::derive_frule]
pub fn dec_frm_gal(gal_long: f64, gal_lat: f64) -> f64 {

    (
        gal_lat.sin() * 27.4_f64.to_radians().sin()
      + gal_lat.cos() * 27.4_f64.to_radians().cos() * (
            gal_long - 123_f64.to_radians()
        ).cos()
    ).asin()

}

/**
Computes equatorial coordinates from galactic coordinates

# Returns

`(asc, dec)`

* `asc`: Right ascension *| in radians*
* `dec`: Declination *| in radians*

The equatorial coordinates returned here is referred to the standard
equinox of  B1950.0.

# Arguments

* `$gal_long`: Galactic longitude *| in radians*
* `$gal_lat`: Galactic latitude *| in radians*
**/
#[macro_export]
macro_rules! eq_frm_gal {
    ($gal_long: expr, $gal_lat: expr) => {{
        (astro::coords::asc_frm_gal($gal_long, $gal_lat),
         astro::coords::dec_frm_gal($gal_long, $gal_lat))
    }};
}
}

/// `src/time.rs`.
#[rustfmt::skip]
#[allow(non_snake_case, non_camel_case_types, clippy::all, dead_code, unused_imports, unused_parens, unused_mut)]
pub mod time {
//! Time for astronomy

use crate::angle;

/// Represents a calendar type
#[derive(Debug, fwdad::Differentiable)]
pub enum CalType {
    /// Gregorian calendar
    Gregorian,
    /// Julian calendar
    Julian
}

/// Represents a month in the Gregorian and Julian calendars
#[derive(Copy, Clone, Debug, fwdad::Differentiable)]
pub enum Month {
    /// January
    Jan = 1,
    /// February
    Feb = 2,
    /// March
    Mar = 3,
    /// April
    Apr = 4,
    /// May
    May = 5,
    /// June
    June = 6,
    /// July
    July = 7,
    /// August
    Aug = 8,
    /// September
    Sept = 9,
    /// October
    Oct = 10,
    /// November
    Nov = 11,
    /// December
    Dec = 12,
}

/// Represents a date with year, month, decimal day and calendar type
#[derive(Debug, fwdad::Differentiable)]
pub struct Date {
    /// Year
    pub year: i16,
    /// Month
    pub month: Month,
    /// Decimal day
    ///
    /// range: *1.0 - 31.0*
    pub decimal_day: f64,
    /// Calendar type
    pub cal_type: CalType,
}

/// Represents a day of a month with hours, minutes and seconds
#[derive(Debug, fwdad::Differentiable)]
pub struct DayOfMonth {
    /// Day of month
    ///
    /// range: *1 - 31*
    pub day: u8,
    /// Hour of day
    ///
    /// range: *0 - 60*
    pub hr: u8,
    /// Minute of hour
    ///
    /// range: *0 - 60*
    pub min: u8,
    /// Second of minute
    ///
    /// range: *0.0 - 60.0*
    pub sec: f64,
    /// Time zone *| in decimal hours*
    ///
    /// Example: Pacific Time Zone is -8.0
    pub time_zone: f64,
}

/// Represents a day of the week
#[derive(Debug, fwdad::Differentiable)]
pub enum Weekday {
    /// Sunday
    Sunday,
    /// Monday
    Monday,
    /// Tuesday
    Tuesday,
    /// Wednesday
    Wednesday,
    /// Thursday
    Thursday,
    /// Friday
    Friday,
    /// Saturday
    Saturday,
}

#[fwdad::derive_frule]
pub fn weekday_frm_date(date: &Date) -> Weekday {

    let date_0UT = Date {
        year: date.year,
        month: date.month,
        decimal_day: date.decimal_day.floor() as f64,
        cal_type: CalType::Gregorian
    };
    let JD = julian_day(&date_0UT);
    let wd = (JD + 1.5) as i64 % 7;

    match wd {
        0 => Weekday::Sunday,
        1 => Weekday::Monday,
        2 => Weekday::Tuesday,
        3 => Weekday::Wednesday,
        4 => Weekday::Thursday,
        5 => Weekday::Friday,
        6 => Weekday::Saturday,
        _ => panic!("Internal error in time::weekday_frm_date")
    }
}

/**
Computes decimal day for a `DayOfMonth`

* `day_of_month`: A `DayOfMonth` struct
**/
#[fwdad::derive_frule]
pub fn decimal_day(day: &DayOfMonth) -> f64 {

    (day.day as f64)
  + (day.hr as f64) / 24.0
  + (day.min as f64) / (60.0 * 24.0)
  + day.sec / (60.0 * 60.0 * 24.0)
  - day.time_zone / 24.0

}

/**
Computes decimal year for a `Date`

* `date`: A `Date` struct
**/
#[fwdad::derive_frule]
pub fn decimal_year(date: &Date) -> f64 {

    let mut y = 0;
    let mut days = 365.0;
    let month = date.month as u8;

    if month > 1 { y += 31; }
    if month > 2 {
        y += 28;
        if is_leap_year(date.year, &date.cal_type) {
            y += 1;
            days += 1.0;
        }
    }
    if month >  3 { y += 31; }
    if month >  4 { y += 30; }
    if month >  5 { y += 31; }
    if month >  6 { y += 30; }
    if month >  7 { y += 31; }
    if month >  8 { y += 31; }
    if month >  9 { y += 30; }
    if month > 10 { y += 31; }
    if month > 11 { y += 30; }

    (date.year as f64) + ((y as f64) + date.decimal_day)/days

}

/**
Checks if a year is a leap year

# Arguments

* `year`    : Year
* `cal_type`: `CalType` enum
**/
#[fwdad::derive_frule]
pub fn is_leap_year(year: i16, cal_type: &CalType) -> (bool) {

    match cal_type {
        &CalType::Julian    => year % 4 == 0,
        &CalType::Gregorian => {
            if year % 100 == 0 { year % 400 == 0 }
            else               { year % 4   == 0 }
        },
    }

}

/**
Computes Julian century for a Julian day

# Arguments

* `JD`: Julian (Ephemeris) day
**/
#[fwdad::derive_frule]
#[inline]
pub fn julian_cent(JD: f64) -> f64 {

    (JD - 2451545.0) / 36525.0

}

/**
Computes Julian millennium for a Julian day

# Arguments

* `JD`: Julian (Ephemeris) day
**/
#[fwdad::derive_frule]
#[inline]
pub fn julian_mill(JD: f64) -> f64 {

    (JD - 2451545.0) / 365250.0

}

/**
Computes Julian day from a `Date`

# Arguments

`date`: A `Date`
**/
#[fwdad::derive_frule]
pub fn julian_day(date: &Date) -> f64 {

    let month = date.month as u8;
    let (y, m) =
        if month == 1 || month == 2 {
            ((date.year - 1) as f64, (month + 12) as f64)
        } else {
            (date.year as f64, month as f64)
        };

    let a = (y / 100.0).floor();
    let b = match date.cal_type {
        CalType::Gregorian => 2.0 - a + (a / 4.0).floor(),
        CalType::Julian    => 0.0,
    };

    (365.25 * (y + 4716.0)).floor()
  + (30.6001 * (m + 1.0)).floor()
  + date.decimal_day
  + b
  - 1524.5

}

/**
Computes the Julian Ephemeris day

# Arguments

* `JD`     : Julian day
* `delta_t`: Delta T
**/
#[fwdad::derive_frule]
#[inline]
pub fn julian_ephemeris_day(JD: f64, delta_t: f64) -> f64 {

    delta_t/86400.0 + JD

}

/**
Computes a year, month and decimal day equivalent to a given Julian day

# Returns

`(year, month, decimal_day)`

* `year`       : Year
* `month`      : Month
* `decimal_day`: Decimal day

# Arguments

`JD`: Julian Day. **Can't be a negative value.**
**/
#[fwdad::derive_frule]
pub fn date_frm_julian_day<'a> (mut JD: f64) -> Result<(i16, u8, f64), &'a str> {

    if JD < 0.0 {
        return Err("A negative value for JD was passed to time::date_frm_julian_day()");
    }

    JD += 0.5;
    let Z = JD as i64;
    let F = JD - (Z as f64);

    let A = if Z < 2299161 {
        Z
    } else {
        let alpha = (((Z as f64) - 1867216.25) / 36524.25).floor() as i64;
        Z + 1 + alpha - ( ( (alpha as f64)/4.0 ).floor() as i64 )
    };

    let B = A + 1524;
    let C = ( ( (B as f64) - 122.1 )/365.25 ).floor() as i64;
    let D = (365.25 * (C as f64)).floor() as i64;
    let E = ( ( (B - D) as f64 )/30.6001 ).floor() as i64;

    let day = ((B - D) as f64) - (30.6001 * (E as f64)).floor() + F;

    let month =      if E < 14             { E - 1  }
                else if E == 14 || E == 15 { E - 13 }
                else {
                    return Err("Internal error in time::date_frm_julian_day()");
                };

    let year =      if month > 2                { C - 4716 }
               else if month == 1 || month == 2 { C - 4715 }
               else {
                   return Err("Internal error in time::date_frm_julian_day()");
               };

    Ok( (year as i16, month as u8, day) )

}

/**
Computes apparent sidereal time from the mean sidereal time

# Returns

* `apprnt_sidr`: Apparent sidereal time *| in radians*

# Arguments

* `mn_sidr`    : Mean sidereal time *| in radians*
* `nut_in_long`: Nutatation in longitude *| in radians*
* `true_oblq`  : True obliquity of the ecliptic *| in radians*
**/
#[fwdad::derive_frule]
pub fn apprnt_sidr(mn_sidr: f64, nut_in_long: f64, true_oblq: f64) -> f64 {

    mn_sidr + nut_in_long*true_oblq.cos()

}

/**
Computes apparent sidereal time for a Julian day

This functions uses internally J. Laskar's formula for
computing the obliquity of the ecliptic.

# Returns

* `apprnt_sidr`: Apparent sidereal time *| in radians*

# Arguments

* `$JD`: Julian day
**/
#[macro_export]
macro_rules! apprnt_sidr {
    ($JD: expr) => {{
        let (nut_in_long, nut_in_oblq) = astro::nutation::nutation($JD);
        let eclip_oblq = astro::ecliptic::mn_oblq_laskar($JD);
        astro::time::apprnt_sidr (
            astro::time::mn_sidr($JD), nut_in_long, eclip_oblq + nut_in_oblq
        )
    }};
}

/**
Computes mean sidereal time for a Julian day

# Returns

* `mn_sidr`: Mean sidereal time *| in radians*

# Arguments

* `JD`: Julian day
**/
#[fwdad::derive_frule]
pub fn mn_sidr(JD: f64) -> f64 {

    let JC = julian_cent(JD);

    angle::limit_to_360 (
        280.46061837
      + 360.98564736629 * (JD - 2451545.0)
      + JC * JC * (0.000387933 - JC/38710000.0)
    ).to_radians()

}

/**
Computes an approximate value of ΔT for a given year and month

This function approximates ΔT from polynomial expressions using a
method different from that given in the *Meeus* book. The method
used is given [here](http://eclipse.gsfc.nasa.gov/SEcat5/deltatpoly.html);
it covers a far wider time range, and is more accurate.

# Arguments

* `year` : Year
* `month`: Month *range: 1 - 12*
**/
#[fwdad::derive_frule]
pub fn delta_t(year: i32, month: u8) -> f64 {

    let y = (year as f64) + ((month as f64) - 0.5)/12.0;

    if y < -500.0 {
        let u = (y - 1820.0) / 100.0;
        return 32.0*u*u - 20.0;
    }
    else if y < 500.0 {
        let u = y / 100.0;
        return 10583.6 -
               u * (1014.41 +
               u * (33.78311 +
               u * (5.952053 -
		       u * (0.1798452 -
               u * (0.022174192 -
                    u * 0.0090316521)
                ))));
    }
    else if y < 1600.0 {
        let u = (y - 1000.0) / 100.0;
        return 1574.2 -
               u * (556.01 -
               u * (71.23472 +
               u * (0.319781 -
		       u * (0.8503463 +
               u * (0.005050998 -
                    u * 0.0083572073)
                   ))));
    }
    else if y < 1700.0 {
        let u = y - 1600.0;
        return 120.0 -
               u * (0.9808 +
               u * (0.01532 -
                    u / 7129.0
                   ));
    }
    else if y < 1800.0 {
        let u = y - 1700.0;
        return 8.83 +
               u * (0.1603 -
               u * (0.0059285 -
               u * (0.00013336 +
                    u / 1174000.0
                   )));
    }
    else if y < 1860.0 {
        let u = y - 1800.0;
        return 13.72 -
               u * (0.332447 -
               u * (0.0068612 +
               u * (0.0041116 -
               u * (0.00037436 -
               u * (0.0000121272 +
               u * (0.0000001699 -
                    u * 0.000000000875
                   ))))));
    }
    else if y < 1900.0 {
        let u = y - 1860.0;
        return 7.62 +
               u * (0.5737 -
               u * (0.251754 -
               u * (0.01680668 -
               u * (0.0004473624 +
                    u / 233174.0
                   ))));
    }
    else if y < 1920.0 {
        let u = y - 1900.0;
        return -2.79 +
               u * (1.494119 -
               u * (0.0598939 -
               u * (0.0061966 +
                    u * 0.000197
                   )));
    }
    else if y < 1941.0 {
        let u = y - 1920.0;
        return 21.20 +
               u * (0.84493 -
               u * (0.076100 -
                    u * 0.0020936
                   ));
    }
    else if y < 1961.0 {
        let u = y - 1950.0;
        return 29.07 +
               u * (0.407 -
               u * ((1.0 / 233.0) -
                    u / 2547.0
                   ));
    }
    else if y < 1986.0 {
        let u = y - 1975.0;
        return 45.45 +
               u * (1.067 -
               u * ((1.0 / 260.0) +
                    u / 718.0)
                   );
    }
    else if y < 2005.0 {
        let u = y - 2000.0;
        return 63.86 +
               u * (0.3345 -
               u * (0.060374 -
               u * (0.0017275 +
               u * (0.000651814 +
                    u * 0.00002373599)
                   )));
    }
    else if y < 2050.0 {
        let u = y - 2000.0;
        return 62.92 +
               u * (0.32217 +
                    u * 0.005589);
    }
    else if y <= 2150.0 {
        let u = (y - 1820.0) / 100.0;
        return 32.0*u*u - 20.0 - 0.5628*(2150.0 - y);
    }
    else if y > 2150.0 {
        let u = (y - 1820.0) / 100.0;
        return 32.0*u*u - 20.0;
    }

    0.0

}
}

/// `src/nutation.rs`.
#[rustfmt::skip]
#[allow(non_snake_case, non_camel_case_types, clippy::all, dead_code, unused_imports, unused_parens, unused_mut)]
pub mod nutation {
//! Corrections for nutation

use crate::angle;
use crate::time;
use crate::coords;

/**
Computes nutation in ecliptic longitude and obliquity

# Returns

`(nut_in_long, nut_in_oblq)`

* `nut_in_long`: Nutation in ecliptic longitude *| in radians*
* `nut_in_oblq`: Nutation in obliquity of the ecliptic *| in radians*

# Arguments

`JD`: Julian (Ephemeris) day
**/
#[fwdad::derive_frule]
pub fn nutation(JD: f64) -> (f64, f64)
{
    struct terms(i8, i8, i8, i8, i8, i32, i32, i32, i16);
    let terms_for_nutation = [
        terms( 0,  0,  0,  0,  1, -171996, -1742, 92025,  89),
        terms(-2,  0,  0,  2,  2,  -13187,   -16,  5736, -31),
        terms( 0,  0,  0,  2,  2,   -2274,    -2,   977,  -5),
        terms( 0,  0,  0,  0,  2,    2062,     2,  -895,   5),
        terms( 0,  1,  0,  0,  0,    1426,   -34,    54,  -1),
        terms( 0,  0,  1,  0,  0,     712,     1,    -7,   0),
        terms(-2,  1,  0,  2,  2,    -517,    12,   224,  -6),
        terms( 0,  0,  0,  2,  1,    -386,    -4,   200,   0),
        terms( 0,  0,  1,  2,  2,    -301,     0,   129,  -1),
        terms(-2, -1,  0,  2,  2,     217,    -5,   -95,   3),
        terms(-2,  0,  1,  0,  0,    -158,     0,     0,   0),
        terms(-2,  0,  0,  2,  1,     129,     1,   -70,   0),
        terms( 0,  0, -1,  2,  2,     123,     0,   -53,   0),
        terms( 2,  0,  0,  0,  0,      63,     0,     0,   0),
        terms( 0,  0,  1,  0,  1,      63,     1,   -33,   0),
        terms( 2,  0, -1,  2,  2,     -59,     0,    26,   0),
        terms( 0,  0, -1,  0,  1,     -58,    -1,    32,   0),
        terms( 0,  0,  1,  2,  1,     -51,     0,    27,   0),
        terms(-2,  0,  2,  0,  0,      48,     0,     0,   0),
        terms( 0,  0, -2,  2,  1,      46,     0,   -24,   0),
        terms( 2,  0,  0,  2,  2,     -38,     0,    16,   0),
        terms( 0,  0,  2,  2,  2,     -31,     0,    13,   0),
        terms( 0,  0,  2,  0,  0,      29,     0,     0,   0),
        terms(-2,  0,  1,  2,  2,      29,     0,   -12,   0),
        terms( 0,  0,  0,  2,  0,      26,     0,     0,   0),
        terms(-2,  0,  0,  2,  0,     -22,     0,     0,   0),
        terms( 0,  0, -1,  2,  1,      21,     0,   -10,   0),
        terms( 0,  2,  0,  0,  0,      17,    -1,     0,   0),
        terms( 2,  0, -1,  0,  1,      16,     0,    -8,   0),
        terms(-2,  2,  0,  2,  2,     -16,     1,     7,   0),
        terms( 0,  1,  0,  0,  1,     -15,     0,     9,   0),
        terms(-2,  0,  1,  0,  1,     -13,     0,     7,   0),
        terms( 0, -1,  0,  0,  1,     -12,     0,     6,   0),
        terms( 0,  0,  2, -2,  0,      11,     0,     0,   0),
        terms( 2,  0, -1,  2,  1,     -10,     0,     5,   0),
        terms( 2,  0,  1,  2,  2,      -8,     0,     3,   0),
        terms( 0,  1,  0,  2,  2,       7,     0,    -3,   0),
        terms(-2,  1,  1,  0,  0,      -7,     0,     0,   0),
        terms( 0, -1,  0,  2,  2,      -7,     0,     3,   0),
        terms( 2,  0,  0,  2,  1,      -7,     0,     3,   0),
        terms( 2,  0,  1,  0,  0,       6,     0,     0,   0),
        terms(-2,  0,  2,  2,  2,       6,     0,    -3,   0),
        terms(-2,  0,  1,  2,  1,       6,     0,    -3,   0),
        terms( 2,  0, -2,  0,  1,      -6,     0,     3,   0),
        terms( 2,  0,  0,  0,  1,      -6,     0,     3,   0),
        terms( 0, -1,  1,  0,  0,       5,     0,     0,   0),
        terms(-2, -1,  0,  2,  1,      -5,     0,     3,   0),
        terms(-2,  0,  0,  0,  1,      -5,     0,     3,   0),
        terms( 0,  0,  2,  2,  1,      -5,     0,     3,   0),
        terms(-2,  0,  2,  0,  1,       4,     0,     0,   0),
        terms(-2,  1,  0,  2,  1,       4,     0,     0,   0),
        terms( 0,  0,  1, -2,  0,       4,     0,     0,   0),
        terms(-1,  0,  1,  0,  0,      -4,     0,     0,   0),
        terms(-2,  1,  0,  0,  0,      -4,     0,     0,   0),
        terms( 1,  0,  0,  0,  0,      -4,     0,     0,   0),
        terms( 0,  0,  1,  2,  0,       3,     0,     0,   0),
        terms( 0,  0, -2,  2,  2,      -3,     0,     0,   0),
        terms(-1, -1,  1,  0,  0,      -3,     0,     0,   0),
        terms( 0,  1,  1,  0,  0,      -3,     0,     0,   0),
        terms( 0, -1,  1,  2,  2,      -3,     0,     0,   0),
        terms( 2, -1, -1,  2,  2,      -3,     0,     0,   0),
        terms( 0,  0,  3,  2,  2,      -3,     0,     0,   0),
        terms( 2, -1,  0,  2,  2,      -3,     0,     0,   0),
    ];

    let t = time::julian_cent(JD);

    let M1 = angle::limit_to_360(
        134.96298 + t*(477198.867398 + t*(0.0086972 + t/56250.0))
    ).to_radians();
    let M  = angle::limit_to_360(
        357.52772 + t*(35999.05034   - t*(0.0001603 + t/300000.0))
    ).to_radians();
    let D  = angle::limit_to_360(
        297.85036 + t*(445267.11148  - t*(0.0019142 - t/189474.0))
    ).to_radians();
    let F  = angle::limit_to_360(
        93.27191  + t*(483202.017538 - t*(0.0036825 - t/327270.0))
    ).to_radians();
    let om = angle::limit_to_360(
        125.04452 - t*(1934.136261   - t*(0.0020708 + t/450000.0))
    ).to_radians();

    let mut nut_in_long = 0.0;
    let mut nut_in_oblq = 0.0;

    let div = 0.0001/3600.0;

    for x in terms_for_nutation.iter() {
        let arg =
            (x.0 as f64) * D   +
            (x.1 as f64) * M   +
            (x.2 as f64) * M1  +
            (x.3 as f64) * F   +
            (x.4 as f64) * om;

        nut_in_long += ((x.5 as f64) + t*(x.6 as f64)/10.0) * arg.sin() * div;
        nut_in_oblq += ((x.7 as f64) + t*(x.8 as f64)/10.0) * arg.cos() * div;
    }

    (nut_in_long.to_radians(), nut_in_oblq.to_radians())
}

/**
Computes nutation in equatorial coordinates

# Returns

`(nut_in_asc, nut_in_dec)`

* `nut_in_asc`: Nutation in right ascension *| in radians*
* `nut_in_dec`: Nutation in declination *| in radians*

# Arguments

* `eq_point`   : Equatorial point uncorrected for nutation *| in radians*
* `nut_in_long`: Nutation in longitude *| in radians*
* `nut_in_oblq`: Nutation in obliquity *| in radians*
* `tru_oblq`   : True obliquity of the ecliptic *| in radians*

The declination of `eq_point` should not be close to either of the
two of the celestial poles, as the values of nutation returned here
are only from first-order corrections.
**/
#[fwdad::derive_frule]
pub fn nutation_in_eq_coords(eq_point: &coords::EqPoint, nut_in_long: f64,
                             nut_in_oblq : f64, tru_oblq: f64) -> (f64, f64)
{
    let (asc, dec) = (eq_point.asc, eq_point.dec);

    let nut_asc = nut_in_long * (
        tru_oblq.cos()
      + tru_oblq.sin() * asc.sin() * dec.tan()
    ) - asc.cos() * dec.tan() * nut_in_oblq;

    let nut_dec =
        tru_oblq.sin() * asc.cos() * nut_in_long
      + asc.sin() * nut_in_oblq;

    (nut_asc, nut_dec)
}
}

/// `src/consts/mod.rs`.
#[rustfmt::skip]
#[allow(non_snake_case, non_camel_case_types, clippy::all, dead_code, unused_imports, unused_parens, unused_mut)]
pub mod consts {
//! Some physical constants

pub mod wgs72 {
//! World Geodetic System 1972

/// Equatorial radius of the Earth (Semimajor axis) *| in meters*
pub const EQUATORIAL_RADIUS: f64 = 6378135.0;

/// Polar radius of the Earth (Semiminor axis) *| in meters*
pub const POLAR_RADIUS: f64 = EQUATORIAL_RADIUS * (1.0 - FLATTENING);

/// Flattening
pub const FLATTENING: f64 = 1.0 / 298.26;

/// Angular velocity of the Earth *| in radians / second*
pub const ANGULAR_VELOCITY: f64 = 7.292115147e-5;

/// Gravitational constant (including the mass of the Earth's
/// atmosphere) *| in meters^3 / second^2*
pub const GRAV_CONST: f64 = 3.986008e+14;
}
pub mod wgs84 {
//! World Geodetic System 1984

/// Equatorial radius of the Earth (Semimajor axis) *| in meters*
pub const EQUATORIAL_RADIUS: f64 = 6378137.0;

/// Polar radius of the Earth (Semiminor axis) *| in meters*
pub const POLAR_RADIUS: f64 = EQUATORIAL_RADIUS * (1.0 - FLATTENING);

/// Flattening
pub const FLATTENING: f64 = 1.0 / 298.257223563;

/// Angular velocity of the Earth *| in radians / second*
pub const ANGULAR_VELOCITY: f64 = 7.292115e-5;

/// Gravitational constant (including the mass of the Earth's
/// atmosphere) *| in meters^3 / second^2*
pub const GRAV_CONST: f64 = 3.986004418e+14;
}

/// Gaussian gravitational constant *| in radians*
pub const GAUSS_GRAV: f64 = 0.01720209895;

/// Speed of light in vaccum *| in meters per second*
pub const SPEED_OF_LIGHT: f64 = 299792458.0;

/// Earth-Moon mass ratio
pub const EARTH_MOON_MASS_RATIO: f64 = 81.3007;

/// Sun-Earth mass ratio
pub const SUN_EARTH_MASS_RATIO: f64 = 332946.0;
}

/// `src/orbit/mod.rs`.
#[rustfmt::skip]
#[allow(non_snake_case, non_camel_case_types, clippy::all, dead_code, unused_imports, unused_parens, unused_mut)]
pub mod orbit {
//! Elliptic, parabolic and near-parabolic orbits

pub mod elliptic {
//! Elliptic orbits

use crate::orbit;
use std::f64::consts::PI;

/**
Computes the true anomaly of a body in an elliptic orbit

# Returns

* `true_anom`: True anomaly of the body *| in radians*

# Arguments

* `ecc_anom`: Eccentric anomaly of the body *| in radians*
* `ecc`     : Eccentricity of the orbit
**/
#[fwdad::derive_frule]
#[inline]
pub fn true_anom(ecc_anom: f64, ecc: f64) -> f64 {

    2.0 * ((1.0 + ecc).sqrt() * (ecc_anom/2.0).tan()).atan2 (
        (1.0 - ecc).sqrt()
    )

}

/**
Computes the radius vector of a body in an elliptic orbit from it's
eccentric anomaly

# Returns

* `rad_vec`: Radius vector of the body *| in AU*

# Arguments

* `ecc_anom`: Eccentric anomaly of the body *| in radians*
* `a`       : Semimajor axis of the orbit *| in AU*
* `ecc`     : Eccentricity of the orbit
**/
#[fwdad::derive_frule]
#[inline]
pub fn rad_vec_frm_ecc_anom(ecc_anom: f64, a: f64, ecc: f64) -> f64 {

    a * (1.0 - ecc*ecc_anom.cos())
    
}

/**
Computes the radius vector of a body in an elliptic orbit from it's
true anomaly

# Returns

* `rad_vec`: Radius vector of the body *| in AU*

# Arguments

* `true_anom`: True anomaly of the body *| in radians*
* `a`        : Semimajor axis of the orbit *| in AU*
* `ecc`      : Eccentricity of the orbit
**/
#[fwdad::derive_frule]
#[inline]
pub fn rad_vec_frm_true_anom(true_anom: f64, a: f64, ecc: f64) -> f64 {
    a * (1.0 - ecc*ecc) / (1.0 + ecc*true_anom.cos())
}

/**
Computes the eccentric anomaly of a body in an elliptic orbit

# Returns

* `ecc_anom`: Eccentric anomaly of the body *| in radians*

# Arguments

* `mean_anom`: Mean anomaly of the body *| in radians*
* `ecc`      : Eccentricity of the orbit
* `accuracy` : Desired accuracy for the eccentric anomaly.
               Eg: 0.000001 gives that much accuracy in radians.
**/
#[fwdad::derive_frule]
pub fn ecc_anom(mean_anom: f64, ecc: f64, accuracy: f64) -> f64 {
    let mut prev_E = 0.0;
    let mut E = mean_anom;

    while (E - prev_E).abs() > accuracy {
        prev_E = E;
        E = mean_anom + ecc * E.sin();
    }

    E
}

/**
Computes the velocity of a body in an elliptic orbit

# Returns

* `velocity`: Instantaneous velocity of the body
              *| in kilometers per second*

# Arguments

* `r`: Radius vector of the body *| in AU*
* `a`: Semimajor axis of orbit *| in AU*
**/
#[fwdad::derive_frule]
#[inline]
pub fn vel(r: f64, a:f64) -> f64 {
    42.1219 * (1.0/r - 0.5/a).sqrt()
}

/**
Computes the velocity of a body at perihelion in an elliptic orbit

# Returns

* `velocity`: Velocity of the body at perihelion
              *| in kilometers per second*

# Arguments

* `a`: Semimajor axis of orbit *| in AU*
* `e`: Eccentricity of orbit
**/
#[fwdad::derive_frule]
#[inline]
pub fn perih_vel(a:f64, e:f64) -> f64 {
    29.7847 * (
        (1.0 + e) / ((1.0 - e) * a)
    ).sqrt()
}

/**
Computes the velocity of a body at aphelion in an elliptic orbit

# Returns

* `velocity`: Velocity of the body at aphelion
              *| in kilometers per second*

# Arguments

* `a`: Semimajor axis of orbit *| in AU*
* `e`: Eccentricity of orbit
**/
#[fwdad::derive_frule]
#[inline]
pub fn aph_vel(a:f64, e:f64) -> f64 {
    29.7847 * (
        (1.0 - e) / ((1.0 + e) * a)
    ).sqrt()
}

/**
Computes the approximate length of an ellipse using the Ramanujan
method

# Returns

* `approx_length`: An approximate value for the length of
                   the ellipse (same unit as that of `a`
                   and `b`), using a formula given by
                   [Ramanujan](https://en.wikipedia.org/wiki/Srinivasa_Ramanujan)
                   in 1914.

The error in `approx_length` is:

* 0% for a = b
* 0.4155% for e = 1

# Arguments

* `a`: Semimajor axis of the ellipse (same unit as that of `b`)
* `b`: Semiminor axis of the ellipse (same unit as that of `a`)
**/
#[fwdad::derive_frule]
#[inline]
pub fn length_ramanujan(a: f64, b: f64) -> f64 {
    PI * (
        3.0*(a + b) - ((a + 3.0*b) * (3.0*a + b)).sqrt()
    )
}

/**
Computes the approximate length of an ellipse

# Returns

* `approx_length`: An approximate value for the length of the ellipse
                   (same unit as that of `a` and `b`)

The error in `approx_length` is:

* less than 0.001% if e < 0.88
* less than 0.01% if e < 0.95
* 1% if e = 0.9997
* 3% if e = 1

# Arguments

* `a`: Semimajor axis of the ellipse (same unit as that of `b`)
* `b`: Semiminor axis of the ellipse (same unit as that of `a`)
**/
#[fwdad::derive_frule]
pub fn length(a: f64, b: f64) -> f64 {
    let A = (a + b) / 2.0;
    let G = (a * b).sqrt();
    let H = (2.0 * a * b) / (a + b);

    PI * (21.0*A - 2.0*G - 3.0*H)/8.0
}

/**
Computes the semimajor axis of an elliptic orbit

# Arguments

* `perih`: Perihelion of the orbit
* `ecc`  : Eccentricity of the orbit
**/
#[fwdad::derive_frule]
#[inline(always)]
pub fn semimaj_axis(perih: f64, ecc: f64) -> f64 {
    perih / (1.0 - ecc)
}

/**
Computes the mean motion of an elliptic orbit

# Returns

* `mean_motion`: Mean motion of the orbit
                 *| in radians per days of dynamical time*

# Arguments

* `semimaj_ax`: Semimajor axis of the orbit
**/
#[fwdad::derive_frule]
#[inline(always)]
pub fn mn_motion(semimaj_ax: f64) -> f64 {
    0.01720209895 / semimaj_ax.powf(1.5)
}

/**
Computes the time of passage of a body through a node of an elliptic
orbit, and it's radius vector at that time

# Returns

`(time_of_pass, rad_vec)`

* `time_of_pass`: Time of passage through the node, in Julian
                  (Ephemeris) day
* `rad_vec`     : Radius vector of the body at the time of passage
                  *| in AU*

# Arguments

* `w`   : Argument of the perihelion *| in radians*
* `n`   : Mean motion of the orbit (*radians per day*)
* `a`   : Semimajor axis of the orbit *| in AU*
* `e`   : Eccentricity of the orbit
* `T`   : Time of passage in perihelion, in Julian (Ephemeris) day
* `node`: `Ascend` or `Descend` node
**/
#[fwdad::derive_frule]
#[inline]
pub fn passage_through_node (

    w    : f64,
    n    : f64,
    a    : f64,
    e    : f64,
    T    : f64,
    node : &orbit::Node

) -> (f64, f64) {

    match *node {
        orbit::Node::Ascend  => pass_through_node(   - w, n, a, e, T),
        orbit::Node::Descend => pass_through_node(PI - w, n, a, e, T)
    }
}

#[fwdad::derive_frule]
fn pass_through_node (

    v : f64,
    n : f64,
    a : f64,
    e : f64,
    T : f64

)  -> (f64, f64) {

    let E = 2.0 * ((1.0 - e).sqrt() * (v/2.0).tan()).atan2((1.0 + e).sqrt());
    let M = E - e*E.sin();

     ( T + M/n, a*(1.0 - e*E.cos()) )
}
}
pub mod parabolic {
//! Parabolic orbits

use std;
use crate::orbit;

/**
Computes the true anomaly and radius vector of a body in a parabolic
orbit at a given time

# Returns

`(tru_anom, rad_vec)`

* `true_anom`: True anomaly of the body at time `t` *| in radians*
* `rad_vec`  : Radius vector of the body at time `t` *| in AU*

# Arguments

* `t`: Time of interest, in Julian (Ephemeris) day
* `T`: Time of passage through the perihelion, in Julian (Ephemeris) day
* `q`: Perihelion distance *| in AU*
**/
#[fwdad::derive_frule]
pub fn true_anom_and_rad_vec(t: f64, T: f64, q: f64) -> (f64, f64) {

    let W = 0.03649116245 * (t - T) / q.powf(1.5);
    let G = W / 2.0;
    let Y = (G + (G*G + 1.0).sqrt()).cbrt();
    let s = Y - 1.0/Y;
    let v = 2.0 * s.atan();
    let r = q * (1.0 + s*s);

    (v, r)

}

/**
Computes the time of passage of a body through a node of a parabolic
orbit and it's radius vector at that time

# Returns

`(time_of_pass, rad_vec)`

* `time_of_pass`: Time of passage through the node, in Julian
                  (Ephemeris) day
* `rad_vec`     : Radius vector of the body at the time of passage
                  *| in AU*

# Arguments

* `w`   : Argument of the perihelion *| in radians*
* `q`   : Perihelion distance *| in AU*
* `T`   : Time of passage in perihelion, in Julian (Ephemeris) day
* `node`: `Ascend` or `Descend` node
**/

#[fwdad::derive_frule]
#[inline]
pub fn passage_through_node (

    w    : f64,
    q    : f64,
    T    : f64,
    node : &orbit::Node

) -> (f64, f64) {

    match *node {
        orbit::Node::Ascend  => pass_through_node(-w, q, T),
        orbit::Node::Descend => pass_through_node(std::f64::consts::PI - w, q, T)
    }

}

#[fwdad::derive_frule]
fn pass_through_node(v: f64, q: f64, T: f64) -> (f64, f64) {

    let s = (v / 2.0).tan();
    let T_node = T + q.powf(1.5) * (s * (s*s + 3.0)) *  27.403895;
    let rad_vec = q * (1.0 + s*s);

    (T_node, rad_vec)

}
}
pub mod near_parabolic {
//! Near-parabolic orbits

use crate::angle;
use crate::consts;

/**
Computes the true anomaly and radius vector of a body in a near-parabolic
orbit at a given time

# Returns

`(true_anom, rad_vec)`

* `true_anom`: True anomaly of the body at time `t` *| in radians*
* `rad_vec`  : Radius vector of the body at time `t` *| in AU*

# Arguments

* `t`       : Time of interest, in Julian (Ephemeris) day
* `T`       : Time of passage through the perihelion, in Julian (Ephemeris) day
* `ecc`     : Eccentricity of the near-parabolic orbit
* `q`       : Perihelion distance *| in AU*
* `accuracy`: Desired accuracy for the results. For example, passing `0.000001`
              gives that much accuracy in radians and AU.
**/
#[fwdad::derive_frule]
pub fn true_anom_and_rad_vec<'a> (

    t        : f64,
    T        : f64,
    ecc      : f64,
    q        : f64,
    accuracy : f64

) -> Result<(f64, f64), &'a str>  {

    let days_frm_perih = t - T;

    if days_frm_perih == 0.0 {
        return Ok((0.0, q))
    }

    let k = consts::GAUSS_GRAV;
    let d1 = 1000.0;

    let q1 = k * ((1.0 + ecc)/q).sqrt() / (2.0*q);
    let g = (1.0 - ecc) / (1.0 + ecc);

    let q2 = q1 * days_frm_perih;
    let mut s = 2.0 / (3.0 * q2.abs());
    s = 2.0 / (2.0 * (s.atan() / 2.0).tan().cbrt().atan()).tan();

    if days_frm_perih < 0.0 { s = -s; }
    if ecc != 1.0 {
        let mut l = 0.0;
        loop {
            let s0 = s;
            let mut z = 1.0;
            let y = s * s;
            let mut g1 = -y * s;
            let mut q3 = q2 + g*s*y*2.0/3.0;

            loop {
                z += 1.0;
                g1 = -g1 * g * y;
                let z1 = (z - (z + 1.0)*g) / (2.0*z + 1.0);
                let f = z1 * g1;
                q3 += f;
                if z > 50.0 || f.abs() > d1 {
                    return Err("No convergence at orbit::near_parabolic::true_anom_and_rad_vec()");
                }
                if f.abs() <= accuracy { break; }
            }

            l += 1.0;
            if l > 50.0 {
                return Err("No convergence at orbit::near_parabolic::true_anom_and_rad_vec()");
            }

            loop {
                let s1 = s;
                s = (s*s*s*2.0/3.0 + q3)/(s*s + 1.0);
                if (s - s1).abs() <= accuracy { break; }
            }

            if (s - s0).abs() <= accuracy { break; }
        }
    }

    let v = angle::limit_to_two_PI(2.0 * s.atan());
    let r = q * (1.0 + ecc) / (1.0 + ecc*v.cos());

    Ok((v, r))

}
}

/// Represents an orbital node
#[derive(fwdad::Differentiable)]
pub enum Node {
    /// Ascending node
    Ascend,
    /// Descending node
    Descend
}
}

// ---------------------------------------------------------------------------------------
// The tests (not astro's).

#[cfg(test)]
mod tests {
    use super::*;
    use fwdad::prelude::*;

    fn close(got: f64, want: f64, tol: f64, what: &str) {
        assert!(
            (got - want).abs() <= tol * want.abs().max(1.0),
            "{what}: {got}, want {want}"
        );
    }

    /// The angular separation of two points, as a function of the four angles.
    #[derive_frule]
    fn separation(x: &[f64]) -> f64 {
        angle::anglr_sepr(x[0], x[1], x[2], x[3])
    }

    #[test]
    fn angular_separation_in_every_mode() {
        crate::check_modes!(separation {}, separation, [0.3, 0.2, 1.1, -0.4]);
    }

    /// Equatorial → ecliptic → equatorial: the identity, whatever the obliquity.
    #[derive_frule]
    fn round_trip(x: &[f64]) -> [f64; 2] {
        let (asc, dec, oblq) = (x[0], x[1], x[2]);
        let long = coords::ecl_long_frm_eq(asc, dec, oblq);
        let lat = coords::ecl_lat_frm_eq(asc, dec, oblq);
        [
            coords::asc_frm_ecl(long, lat, oblq),
            coords::dec_frm_ecl(long, lat, oblq),
        ]
    }

    #[test]
    fn coordinate_round_trip_has_the_identity_jacobian() {
        let x = [1.2, 0.35, 0.409];
        let (v, jac) = jacobian(round_trip {}, &x);
        let plain = round_trip(&x);
        for k in 0..2 {
            assert_eq!(v[k].to_bits(), plain[k].to_bits());
            for j in 0..3 {
                let want = if j == k { 1.0 } else { 0.0 };
                assert!(
                    (jac[(k, j)] - want).abs() < 1e-12,
                    "({k}, {j}): {}",
                    jac[(k, j)]
                );
            }
        }
    }

    #[test]
    fn kepler_equation_by_iteration() {
        // E − e sin E = M: dE/dM = 1 / (1 − e cos E), dE/de = sin E / (1 − e cos E).
        for (m, e) in [(0.3, 0.1), (2.0, 0.5), (5.5, 0.8)] {
            let (v, g) = gradient(
                bind(orbit::elliptic::ecc_anom {}, (Var(0), Var(1), 1e-14)),
                &[m, e],
            );
            assert_eq!(
                v.to_bits(),
                orbit::elliptic::ecc_anom(m, e, 1e-14).to_bits()
            );
            let den = 1.0 - e * v.cos();
            close(g[0], 1.0 / den, 1e-9, "dE/dM");
            close(g[1], v.sin() / den, 1e-9, "dE/de");
        }
    }

    /// (v, r) of a body in a near-parabolic orbit `t` days after perihelion.
    #[derive_frule]
    fn near_parabolic(t: f64, ecc: f64, q: f64) -> [f64; 2] {
        let (v, r) = orbit::near_parabolic::true_anom_and_rad_vec(t, 0.0, ecc, q, 1e-12).unwrap();
        [v, r]
    }

    #[test]
    fn near_parabolic_orbit_keeps_its_angular_momentum() {
        // Kepler's second law: r² dv/dt = k √(q (1 + e)), k the Gaussian constant.
        let k = consts::GAUSS_GRAV;
        for (t, ecc, q) in [(-20.0, 0.97, 0.8), (35.0, 1.0, 1.1), (80.0, 1.02, 0.5)] {
            let (p, d) = derivative(bind(near_parabolic {}, (Var(0), ecc, q)), t);
            let plain = near_parabolic(t, ecc, q);
            assert_eq!(p[0].to_bits(), plain[0].to_bits());
            assert_eq!(p[1].to_bits(), plain[1].to_bits());
            let h = k * (q * (1.0 + ecc)).sqrt();
            close(p[1] * p[1] * d[0], h, 1e-9, "r² dv/dt");
            // and the radius r = q (1 + e) / (1 + e cos v): dr/dt = r² e sin v / (q (1 + e)) dv/dt.
            let want = p[1] * p[1] * ecc * p[0].sin() / (q * (1.0 + ecc)) * d[0];
            close(d[1], want, 1e-9, "dr/dt");
        }
    }

    #[test]
    fn near_parabolic_orbit_with_respect_to_its_elements() {
        let (t, ecc, q) = (35.0, 0.98, 1.1);
        let (_, jac) = jacobian(
            bind(near_parabolic {}, (Var(0), Var(1), Var(2))),
            &[t, ecc, q],
        );
        for j in 0..3 {
            let h = 1e-5;
            let mut a = [t, ecc, q];
            let mut b = a;
            a[j] += h;
            b[j] -= h;
            let (pa, pb) = (
                near_parabolic(a[0], a[1], a[2]),
                near_parabolic(b[0], b[1], b[2]),
            );
            for k in 0..2 {
                close(jac[(k, j)], (pa[k] - pb[k]) / (2.0 * h), 1e-6, "∂(v, r)");
            }
        }
    }

    /// The time of passage through a node and the radius there, from the argument of
    /// the perihelion `w`.
    #[derive_frule]
    fn passage(w: f64, ascending: bool) -> [f64; 2] {
        let node = if ascending {
            orbit::Node::Ascend
        } else {
            orbit::Node::Descend
        };
        let (t, r) = orbit::elliptic::passage_through_node(w, 0.01, 2.5, 0.3, 2451000.0, &node);
        [t, r]
    }

    #[test]
    fn time_of_passage_through_a_node() {
        for ascending in [true, false] {
            let w = 0.7;
            let (v, d) = derivative(bind(passage {}, (Var(0), ascending)), w);
            let plain = passage(w, ascending);
            let h = 1e-6;
            let (a, b) = (passage(w + h, ascending), passage(w - h, ascending));
            for k in 0..2 {
                assert_eq!(v[k].to_bits(), plain[k].to_bits());
                close(d[k], (a[k] - b[k]) / (2.0 * h), 1e-6, "d(T, r)/dw");
            }
        }
    }

    /// The Julian day of a Gregorian date in April 1987, from its decimal day.
    #[derive_frule]
    fn jd_of(day: f64) -> f64 {
        time::julian_day(&time::Date {
            year: 1987,
            month: time::Month::Apr,
            decimal_day: day,
            cal_type: time::CalType::Gregorian,
        })
    }

    /// The decimal day of a Julian day.
    #[derive_frule]
    fn day_of(jd: f64) -> f64 {
        time::date_frm_julian_day(jd).unwrap().2
    }

    #[test]
    fn julian_day_and_back() {
        // Meeus, example 7.a: 1987 April 10.0 is JD 2446895.5; both advance one for one.
        let (jd, d) = derivative(jd_of {}, 10.0);
        assert_eq!(jd, 2446895.5);
        assert_eq!(jd.to_bits(), jd_of(10.0).to_bits());
        assert_eq!(d, 1.0);
        let (day, d) = derivative(day_of {}, 2446895.8);
        assert_eq!(day.to_bits(), day_of(2446895.8).to_bits());
        assert!((day - 10.3).abs() < 1e-9);
        assert_eq!(d, 1.0);
    }

    /// Nutation in longitude and obliquity.
    #[derive_frule]
    fn nutation_at(jd: f64) -> [f64; 2] {
        let (l, o) = nutation::nutation(jd);
        [l, o]
    }

    #[test]
    fn nutation_against_central_differences() {
        for jd in [2446895.5, 2451545.0, 2460000.25] {
            let (v, d) = derivative(nutation_at {}, jd);
            let plain = nutation_at(jd);
            // A power of two, so that jd ± h are exact; small beside the 9-day terms.
            let h = 1.0 / 1024.0;
            let (a, b) = (nutation_at(jd + h), nutation_at(jd - h));
            for k in 0..2 {
                assert_eq!(v[k].to_bits(), plain[k].to_bits());
                let fd = (a[k] - b[k]) / (2.0 * h);
                assert!(
                    (d[k] - fd).abs() <= 1e-6 * fd.abs() + 1e-14,
                    "{k}: {} against {fd}",
                    d[k]
                );
            }
        }
    }
}
