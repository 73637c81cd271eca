use fwdad::prelude::*;

trait Halve {
    fn halve(self) -> f64;
}

impl Halve for f64 {
    fn halve(self) -> f64 {
        self / 2.0
    }
}

#[derive_frule]
fn f(x: f64) -> f64 {
    x.halve() * x
}

fn main() {}
