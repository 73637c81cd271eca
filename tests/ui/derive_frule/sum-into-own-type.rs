// `sum()` of values of the user's own type whose `impl Sum` has no `#[derive_frule]`: the
// error is at the `sum`, and names what to annotate (`add_derive_frule_to_the_impl_of_..`).
use fwdad::prelude::*;
use std::iter::Sum;
use std::ops::{Add, Mul};

#[derive(Clone, Copy, Default, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
}

#[derive_frule]
impl Mul<V3> for f64 {
    type Output = V3;
    fn mul(self, v: V3) -> V3 {
        V3 { x: self * v.x, y: self * v.y, z: self * v.z }
    }
}

impl Sum for V3 {
    fn sum<I: Iterator<Item = V3>>(iter: I) -> V3 {
        iter.fold(V3::default(), |a, b| a + b)
    }
}

#[derive_frule]
fn center_of_mass(m: &[f64], p: &[V3]) -> V3 {
    let total: f64 = m.iter().sum();
    let com: V3 = m.iter().zip(p).map(|(&mi, &pi)| (mi / total) * pi).sum();
    com
}

#[derive_frule]
fn weighted(m: &[f64], p: &[V3]) -> f64 {
    m.iter().zip(p).map(|(&mi, &pi)| mi * pi).sum::<V3>().x
}

fn main() {}
