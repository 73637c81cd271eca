use fwdad::prelude::*;

#[derive(Clone, Differentiable)]
pub struct Horner {
    pub scale: f64,
}

/// Horner's method over any iterator of coefficients, as a method.
#[derive_frule]
impl Horner {
    pub fn eval<I>(&self, x: f64, coefficients: I) -> f64
    where
        I: IntoIterator<Item = f64>,
    {
        let mut acc = 0.0;
        for c in coefficients {
            acc = acc * x + c;
        }
        self.scale * acc
    }
}

fn main() {}
