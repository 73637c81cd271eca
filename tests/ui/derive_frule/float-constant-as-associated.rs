// `f64::PI`: the constants are in `std::f64::consts` (`std::f64::consts::PI`).
use fwdad::prelude::*;

#[derive_frule]
fn circle_area(r: f64) -> f64 {
    f64::PI * r * r
}

fn main() {}
