// A model holding its activation as a shared trait object (`Rc<dyn Activation>`): a
// shared trait object has no tangent type, so the derive says to box it, at the field.
use fwdad::prelude::*;
use std::rc::Rc;

#[derive_frule]
pub trait Activation {
    fn apply(&self, x: f64) -> f64;
}

#[derive(Differentiable, Clone)]
pub struct Neuron {
    w: Vec<f64>,
    b: f64,
    act: Rc<dyn Activation>,
}

fn main() {}
