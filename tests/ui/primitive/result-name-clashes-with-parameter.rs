use fwdad::prelude::*;

#[primitive(d = (x / r, y / r), result = x)]
fn hypot(x: f64, y: f64) -> f64 {
    x.hypot(y)
}

fn main() {}
