// A `map` closure passing on a tuple that holds a `&mut` element, driven by `count()`
// (argmin_testfunctions' `levy_derivative_const`). Workaround: a `for` loop over
// `x.iter().zip(out.iter_mut())` that writes `*o`.
use fwdad::prelude::*;

#[derive_frule]
fn doubled(x: &[f64; 3]) -> [f64; 3] {
    let mut out = [0.0; 3];
    x.iter()
        .zip(out.iter_mut())
        .map(|(&v, o)| (v, o))
        .map(|(v, o)| *o = 2.0 * v)
        .count();
    out
}

fn main() {}
