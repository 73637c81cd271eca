// `take`, `enumerate` and `copied` after a `filter` as counted stages: loop-carried counts
// started before the loop, the loop's head breaking once the `take`'s count is spent.
fn filter_take_enumerate(x: &[f64]) -> f64 {
    x.iter()
        .filter(|v| **v > 0.0)
        .copied()
        .take(3)
        .enumerate()
        .map(|(k, v)| k as f64 * v)
        .sum()
}
