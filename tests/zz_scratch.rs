use fwdad::prelude::*;
use std::collections::BTreeMap;
#[derive_frule(dump)]
fn relax_series(ts: &mut BTreeMap<i64, f64>, rate: f64) -> f64 {
    let values: Vec<f64> = ts.values().copied().collect();
    let mut k = 0;
    for v in ts.values_mut() {
        *v += rate * values[k];
        k += 1;
    }
    values[0]
}
