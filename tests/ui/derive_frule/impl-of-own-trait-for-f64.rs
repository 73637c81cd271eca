// An extension trait on floats (`x.sigmoid()`): the rules' dispatch items would live on
// `f64`, which the crate cannot extend; the error says to write free functions.
use fwdad::prelude::*;

pub trait Activation {
    fn sigmoid(&self) -> f64;
}

#[derive_frule]
impl Activation for f64 {
    fn sigmoid(&self) -> f64 {
        1.0 / (1.0 + (-self).exp())
    }
}

fn main() {}
