use fwdad::prelude::*;

#[primitive(rule = cube_frule)]
fn cube(x: f64) -> f64 {
    x * x * x
}

fn cube_frule<T: fwdad::ScalarTangent<f64>>(x: Dual<f64, T>) -> Dual<f64, T> {
    x * x * x
}

fn main() {}
