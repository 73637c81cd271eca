use fwdad::prelude::*;

#[primitive(d = 2.0 * x)]
fn square_f32(x: f64) -> f32 {
    (x * x) as f32
}

#[primitive(d = x.cos())]
fn sin_cos(x: f64) -> (f64, f64) {
    x.sin_cos()
}

fn main() {}
