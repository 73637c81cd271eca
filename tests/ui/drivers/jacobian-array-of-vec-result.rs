// `jacobian_array` returns arrays, so the rule's result needs a length known at compile
// time (`f64` or `[f64; M]`); a `Vec<f64>` result is reported at the call, with a pointer
// to `jacobian`.
use fwdad::drivers::jacobian_array;
use fwdad::prelude::*;

#[derive_frule]
fn cumulative(x: &[f64]) -> Vec<f64> {
    let mut s = 0.0;
    let mut out = Vec::new();
    for v in x {
        s += v;
        out.push(s);
    }
    out
}

fn main() {
    let _ = jacobian_array(cumulative {}, &[1.0, 2.0, 3.0]);
}
