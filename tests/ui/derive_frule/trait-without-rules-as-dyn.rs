use fwdad::prelude::*;

pub trait Material {
    fn energy(&self, strain: f64) -> f64;
}

#[derive_frule]
fn total(m: &dyn Material, strains: &[f64]) -> f64 {
    let mut e = 0.0;
    for &s in strains {
        e += m.energy(s);
    }
    e
}

fn main() {}
