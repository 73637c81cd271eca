use fwdad::prelude::*;

pub trait Named {
    fn name(&self) -> String;
}

#[derive_frule]
pub trait Material: Named {
    fn stress(&self, strain: f64) -> f64;
}

fn main() {}
