use fwdad::prelude::*;

#[derive_frule]
pub trait Law {
    type Params;
    const ORDER: usize;
    fn stress(&self, strain: f64) -> f64;
}

fn main() {}
