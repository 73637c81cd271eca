// Closures given to methods that are not adaptors of a supported chain: the error names
// the method (helper hunt 28: it said closures may be passed to `map`, which is what the
// user wrote). `Option::map`, `map_or`, `and_then` are supported (tests/derive_idioms.rs).
use fwdad::prelude::*;

// std::iter::zip (free-function form of .zip)
#[derive_frule]
fn dot_zip_fn(a: &[f64], b: &[f64]) -> f64 {
    std::iter::zip(a, b).map(|(x, y)| x * y).sum()
}

fn main() {}
