// Closures given to methods that are not adaptors of a supported chain: the error names
// the method (helper hunt 28: it said closures may be passed to `map`, which is what the
// user wrote). `Option::map`, `map_or`, `and_then` are supported (tests/derive_idioms.rs),
// and so are chains from `std::iter::zip(a, b)` (tests/derive_iter_constructors.rs).
use fwdad::prelude::*;

// `iter::successors` builds no indexed chain.
#[derive_frule]
fn geometric(r: f64) -> f64 {
    std::iter::successors(Some(1.0), |p| Some(p * r)).take(5).map(|p| p * p).sum()
}

fn main() {}
