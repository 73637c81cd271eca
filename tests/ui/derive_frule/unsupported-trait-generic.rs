use fwdad::prelude::*;

#[derive_frule]
pub trait Scaled<T> {
    fn scale(&self, x: f64) -> f64;
}

#[derive_frule]
pub trait Field {
    fn at<P: Copy>(&self, p: P, x: f64) -> f64;
}

fn main() {}
