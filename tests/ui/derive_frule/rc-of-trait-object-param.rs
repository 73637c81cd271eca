// Layers shared through `Arc<dyn Layer>` passed in: not supported; `&[Box<dyn Layer>]`
// is, reported at the type.
use fwdad::prelude::*;
use std::sync::Arc;

#[derive_frule]
pub trait Layer {
    fn forward(&self, x: f64) -> f64;
}

#[derive_frule]
pub fn run(layers: &[Arc<dyn Layer + Send + Sync>], x: f64) -> f64 {
    let mut y = x;
    for l in layers {
        y = l.forward(y);
    }
    y
}

fn main() {}
