use fwdad::prelude::*;

#[primitive(d = 2.0 * x, rule = square_rule)]
fn square(x: f64) -> f64 {
    x * x
}

fn square_rule(x: Dual<f64>) -> Dual<f64> {
    x * x
}

fn main() {}
