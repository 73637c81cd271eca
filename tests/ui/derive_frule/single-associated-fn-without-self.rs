use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Spring {
    k: f64,
}

impl Spring {
    #[derive_frule]
    pub fn new(k: f64) -> Self {
        Spring { k: 2.0 * k }
    }
}

fn main() {}
