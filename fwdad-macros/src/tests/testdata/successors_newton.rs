// `std::iter::successors` with a `take` after it: a `scan` over `0..n` whose state is the
// next iterate (`lower/iter_fns.rs`), then `last` as a loop keeping the latest item.
fn newton_sqrt(a: f64) -> f64 {
    std::iter::successors(Some(1.0), |&x| Some(x - (x * x - a) / (2.0 * x)))
        .take(8)
        .last()
        .unwrap()
}
