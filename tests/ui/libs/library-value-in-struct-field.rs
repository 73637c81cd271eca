// Arithmetic on library values read from the fields of a struct of yours (`Complex<f64>`
// fields of an oscillator): the macro does not see a field's type.
use fwdad::prelude::*;
use num_complex::Complex;
use std::f64::consts::PI;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Phasor {
    pub z: Complex<f64>,
    pub step: Complex<f64>,
}

#[derive_frule]
impl Phasor {
    pub fn new(freq: f64, sample_rate: f64) -> Self {
        let w = 2.0 * PI * freq / sample_rate;
        Phasor { z: Complex::new(1.0, 0.0), step: Complex::new(0.0, w).exp() }
    }

    pub fn advance(&mut self) -> Complex<f64> {
        let out = self.z;
        self.z = self.z * self.step;
        out
    }
}

fn main() {}
