use fwdad::prelude::*;

#[derive_frule]
pub trait Material {
    fn energy(&self, strain: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Plain {
    pub e: f64,
}

impl Material for Plain {
    fn energy(&self, s: f64) -> f64 {
        0.5 * self.e * s * s
    }
}

#[derive_frule]
fn total<M: Material>(m: &M, strains: &[f64]) -> f64 {
    let mut e = 0.0;
    for &s in strains {
        e += m.energy(s);
    }
    e
}

fn main() {
    let p = Plain { e: 2.0 };
    let _ = gradient(bind(total {}, (&p, Wrt)), &[0.1, 0.2]);
}
