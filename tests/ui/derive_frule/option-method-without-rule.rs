// A method of `Option` the macro has no rule for, on a value that depends on the
// differentiated inputs: a reading dropped when it is out of range. The macro takes a method it does
// not know for one of the user's; the first error names the value's type and the method,
// and says to write it with `match` or `if let`, not a runtime helper's name.
use fwdad::prelude::*;

#[derive_frule]
fn cached_scale(x: f64, cache: Option<f64>) -> f64 {
    let mut c = cache.map(|v| v * x);
    let dropped = c.take_if(|v| *v > 10.0);
    dropped.unwrap_or(0.0) + c.unwrap_or(x)
}

fn main() {}
