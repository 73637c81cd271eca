// An adaptor after `values_mut()` of a map of floats: its values are lent `&mut` one at a
// time; a `for` loop over `values_mut()` itself is supported.
use fwdad::prelude::*;
use std::collections::BTreeMap;

#[derive_frule]
fn decay(series: &mut BTreeMap<i64, f64>, rate: f64) {
    for (age, v) in series.values_mut().rev().enumerate() {
        *v *= (-rate * age as f64).exp();
    }
}

fn main() {}
