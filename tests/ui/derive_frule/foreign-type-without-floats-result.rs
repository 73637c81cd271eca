// spa 0.5.1's `to_utc` (`tests/spa_verbatim.rs`): a Julian date as chrono's `DateTime<Utc>`,
// another crate's type that holds no float. It has no tangent type, and neither fwdad nor
// this crate can give it one (the orphan rule): such a function stays plain. As a parameter
// the type is taken plain when named in `inactive(..)`.
use chrono::{DateTime, TimeZone, Utc};
use fwdad::prelude::*;

#[derive_frule]
fn to_utc(jd: f64) -> DateTime<Utc> {
    let secs_since_epoch = (jd - 2440587.5) * 86400.0;
    let nanos = secs_since_epoch * (1000.0 * 1000.0 * 1000.0);
    Utc.timestamp_nanos(nanos as i64)
}

#[derive_frule(inactive(utc))]
fn to_julian(utc: DateTime<Utc>) -> f64 {
    let seconds_since_epoch: i64 = utc.timestamp();

    ((seconds_since_epoch as f64) / 86400.0) + 2440587.5
}

fn main() {}
