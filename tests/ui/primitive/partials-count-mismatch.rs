use fwdad::prelude::*;

#[primitive(d = (2.0 * x, 1.0))]
fn square(x: f64) -> f64 {
    x * x
}

#[primitive(d = b)]
fn mul(a: f64, b: f64) -> f64 {
    a * b
}

// The integer parameter has no partial: two `f64` parameters, two partials.
#[primitive(d = (k as f64 * b, k as f64 * a, 0.0))]
fn scaled_mul(a: f64, k: i32, b: f64) -> f64 {
    k as f64 * a * b
}

fn main() {}
