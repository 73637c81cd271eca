// A cast `&p as &dyn Trait` in a derived body of a value whose type's derived `impl` is
// generic (`impl<const N: usize> Material for Plies<N>`): its trait object would have no
// table of rules, and the call through it would panic; the cast is an error instead.
// Through a generic parameter (`fn f<M: Material>(m: &M, ..)`) it works.
use fwdad::prelude::*;

#[derive_frule]
pub trait Material {
    fn stress(&self, strain: f64) -> f64;
}

/// A laminate of `N` equal plies.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Plies<const N: usize> {
    pub e: f64,
}

#[derive_frule]
impl<const N: usize> Material for Plies<N> {
    fn stress(&self, s: f64) -> f64 {
        self.e * s * N as f64
    }
}

#[derive_frule]
fn energy(m: &dyn Material, s: f64) -> f64 {
    0.5 * s * m.stress(s)
}

#[derive_frule]
fn layered(s: f64) -> f64 {
    let p = Plies::<4> { e: 2.0 };
    energy(&p as &dyn Material, s)
}

#[derive_frule]
fn layered_let(s: f64) -> f64 {
    let m: &dyn Material = &Plies::<2> { e: 2.0 };
    energy(m, s)
}

fn main() {}
