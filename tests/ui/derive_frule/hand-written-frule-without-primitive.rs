// A rule written by hand under the name `cube_frule`, without `#[primitive(rule = ..)]`
// on `cube`: the name alone registers nothing. Instead: `#[primitive(rule = cube_frule)]`
// on `fn cube` (or `#[primitive(d = 3.0 * x * x)]`).
use fwdad::prelude::*;

fn cube(x: f64) -> f64 {
    x * x * x
}

fn cube_frule<T: fwdad::ScalarTangent<f64>>(x: Dual<f64, T>) -> Dual<f64, T> {
    x * x * x
}

#[derive_frule]
fn volume(a: f64) -> f64 {
    cube(a) + a
}

fn main() {}
