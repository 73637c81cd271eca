// A method taking `self` by value in a `#[derive_frule] impl` of a struct declared without
// `#[derive(Differentiable)]`. Instead: take `&self`, or derive `Clone` and
// `Differentiable` for the struct.
use fwdad::prelude::*;

#[derive(Clone, Copy)]
pub struct Orbit {
    pub a: f64,
    pub mu: f64,
}

#[derive_frule]
impl Orbit {
    pub fn period(self, scale: f64) -> f64 {
        scale * 2.0 * std::f64::consts::PI * (self.a.powi(3) / self.mu).sqrt()
    }
}

fn main() {}
