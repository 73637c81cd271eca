use fwdad::prelude::*;

#[derive_frule]
pub trait Material {
    fn energy(&self, strain: f64) -> f64;
}

#[derive_frule]
fn layered(ms: &[&dyn Material], strains: &[f64]) -> f64 {
    let mut e = 0.0;
    for (m, &s) in ms.iter().zip(strains) {
        e += m.energy(s);
    }
    e
}

fn main() {}
