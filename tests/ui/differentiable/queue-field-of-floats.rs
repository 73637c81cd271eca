// A `VecDeque<f64>` field (an FIR filter's delay line): a queue has no tangent type, so
// the derive says to keep the floats in a `Vec`, at the field's type.
use fwdad::prelude::*;
use std::collections::VecDeque;

#[derive(Differentiable, Clone, Debug)]
pub struct Fir {
    taps: Vec<f64>,
    delay: VecDeque<f64>,
}

fn main() {}
