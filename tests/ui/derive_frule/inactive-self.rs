// `inactive(self)` on a method, to keep the receiver's fields constant.
use fwdad::prelude::*;

pub struct Table {
    pub xs: Vec<f64>,
}

impl Table {
    #[derive_frule(inactive(self))]
    pub fn weighted(&self, w: f64) -> f64 {
        self.xs.iter().map(|x| w * x).sum()
    }
}

fn main() {}
