// A trait object made of a value that depends on the differentiated inputs: a trait
// object's fields are constants in a rule, so its derivative would be lost. Built from
// constants it is fine (`tests/derive_fuzz_found.rs`); through a generic parameter the
// fields are differentiated.
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
fn typed(e: f64, s: f64) -> f64 {
    let m: &dyn Material = &Linear { e };
    m.stress(s)
}

#[derive_frule]
fn cast(e: f64, s: f64) -> f64 {
    let m = &Linear { e: 2.0 * e } as &dyn Material;
    m.stress(s)
}

fn main() {}
