//! Trait objects in the shape an ML engineer writes a small network: a `Vec<Box<dyn
//! Layer>>` whose trait has `Debug` as a supertrait (so the network prints), built from the
//! parameters, checked in one direction, batched and at second order against central
//! differences, primals bit for bit.

#[macro_use]
mod common;

use fwdad::prelude::*;
use std::fmt::Debug;

/// A layer of a small network.
#[derive_frule]
pub trait Layer: Debug {
    fn forward(&self, x: f64) -> f64;
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Affine {
    pub w: f64,
    pub b: f64,
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Tanh;

#[derive_frule]
impl Layer for Affine {
    fn forward(&self, x: f64) -> f64 {
        self.w * x + self.b
    }
}

#[derive_frule]
impl Layer for Tanh {
    fn forward(&self, x: f64) -> f64 {
        x.tanh()
    }
}

/// A two-layer network built from its parameters `p = [w0, b0, w1, b1, x]`.
#[derive_frule]
pub fn net(p: &[f64]) -> f64 {
    let layers: Vec<Box<dyn Layer>> = vec![
        Box::new(Affine { w: p[0], b: p[1] }),
        Box::new(Tanh),
        Box::new(Affine { w: p[2], b: p[3] }),
    ];
    let mut x = p[4];
    for l in &layers {
        x = l.forward(x);
    }
    x
}

#[test]
fn layers_with_a_debug_supertrait_in_every_mode() {
    check_modes!(net {}, net, [0.7, -0.2, 1.3, 0.1, 0.4]);
}
