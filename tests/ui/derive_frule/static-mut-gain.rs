// A tuning gain kept in a `static mut`, read in the differentiated function (C habit):
// reading it needs `unsafe`, and a `static mut` may change between the plain function and
// its rule. Pass the gain as a parameter, or make it a `const`.
use fwdad::prelude::*;

static mut GAIN: f64 = 2.5;

#[derive_frule]
fn response(x: f64) -> f64 {
    unsafe { GAIN * x.tanh() }
}

fn main() {}
