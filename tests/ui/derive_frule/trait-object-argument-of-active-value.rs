// A value that depends on the differentiated inputs passed straight to a `&dyn Trait`
// parameter: a trait object's fields are constants in a rule, so its derivative would be
// lost. Built from constants it is fine (`tests/derive_traits_dyn_args.rs`).
use fwdad::prelude::*;

#[derive_frule]
pub trait Material {
    fn stress(&self, strain: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Linear {
    pub e: f64,
}

#[derive_frule]
impl Material for Linear {
    fn stress(&self, s: f64) -> f64 {
        self.e * s
    }
}

#[derive_frule]
fn energy(m: &dyn Material, s: f64) -> f64 {
    0.5 * s * m.stress(s)
}

#[derive_frule]
fn fitted(e: f64, s: f64) -> f64 {
    energy(&Linear { e }, s)
}

#[derive_frule]
fn through(m: &Linear, s: f64) -> f64 {
    energy(m, s)
}

fn main() {}
