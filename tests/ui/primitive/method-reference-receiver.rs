use fwdad::prelude::*;

pub trait Halve {
    fn halve(&self) -> f64;
}

impl Halve for f64 {
    fn halve(&self) -> f64 {
        self * 0.5
    }
}

#[primitive(d = 0.5, method)]
fn halve(x: &f64) -> f64 {
    x.halve()
}

fn main() {}
