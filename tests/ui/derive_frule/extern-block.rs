// A newcomer annotates the `extern` block that declares a C library's function, hoping to
// differentiate through it. The macro cannot see its body; the rule is hand-written.
use fwdad::prelude::*;

#[derive_frule]
extern "C" {
    fn cbrt(x: f64) -> f64;
}

fn main() {}
