// financial 1.1.5's scheduled cash flows, `xnpv<T: TimeZone>(rate: f64, values: &[f64],
// dates: &[DateTime<T>])`: a type parameter bounded by another crate's trait (chrono's
// time zone), even one only constant data mentions. The note's way out, `#[derive_frule]`
// on the trait, is not open for another crate's trait. Instead: write the function for
// the type you call it with (`dates: &[DateTime<Utc>]`), or convert the dates to plain
// numbers (days as `f64`, `&[f64]` declared `inactive`) before the derived code.
use chrono::{DateTime, TimeZone};
use fwdad::prelude::*;

#[derive_frule(inactive(dates))]
fn first_discounted<T: TimeZone>(rate: f64, values: &[f64], dates: &[DateTime<T>]) -> f64 {
    values[0] / (1.0 + rate) * dates.len() as f64
}

fn main() {}
