// Closures given to methods that are not adaptors of a supported chain: the error names
// the method (helper hunt 28: it said closures may be passed to `map`, which is what the
// user wrote). `Option::map`, `map_or`, `and_then` are supported (tests/derive_idioms.rs),
// and so are chains from `std::iter::zip(a, b)` (tests/derive_iter_constructors.rs) and
// `std::iter::successors` (tests/derive_closure_programs.rs).
use fwdad::prelude::*;

// `iter::repeat_with` builds no indexed chain.
#[derive_frule]
fn geometric(r: f64) -> f64 {
    let mut p = 1.0;
    std::iter::repeat_with(|| {
        p *= r;
        p
    })
    .take(5)
    .map(|p| p * p)
    .sum()
}

fn main() {}
