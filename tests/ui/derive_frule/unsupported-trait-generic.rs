// A generic trait: its rules would depend on the parameters.
use fwdad::prelude::*;

#[derive_frule]
pub trait Scaled<T> {
    fn scale(&self, x: f64) -> f64;
}

fn main() {}
