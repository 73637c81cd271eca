// A histogram in a `BTreeMap<i64, f64>` written on its `let`: a bin's value lent by
// `entry(..).or_insert(..)` and written through (the map becomes active), read back by
// key (`hist[&0]`) and by its own iterator, whose key stays plain Rust.
fn map_histogram(x: &[f64]) -> f64 {
    let mut hist: BTreeMap<i64, f64> = BTreeMap::new();
    for &xi in x {
        *hist.entry(xi.floor() as i64).or_insert(0.0) += xi * xi;
    }
    let mut e = hist[&0];
    for (k, v) in &hist {
        e += v * *k as f64;
    }
    e
}
