use fwdad::prelude::*;

#[primitive(rule = square_rul)]
fn square(x: f64) -> f64 {
    x * x
}

fn square_rule<T: fwdad::ScalarTangent<f64>>(x: Dual<f64, T>) -> Dual<f64, T> {
    x * x
}

fn main() {}
