//! A factory returning `Box<dyn Joint>` called inside a derived function, as robotics
//! code builds a chain from a description (`make_joint(kind, length)`): the boxes it
//! returns carry the derivatives of the lengths. Checked against closed forms and central
//! differences in one direction, batched and at second order, primals bit for bit.

#[macro_use]
mod common;

use fwdad::prelude::*;

/// A joint of a planar chain: the displacement along the chain's axis at coordinate `q`.
#[derive_frule]
pub trait Joint {
    fn reach(&self, q: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Revolute {
    pub len: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Prismatic {
    pub offset: f64,
}

#[derive_frule]
impl Joint for Revolute {
    fn reach(&self, q: f64) -> f64 {
        self.len * q.cos()
    }
}

#[derive_frule]
impl Joint for Prismatic {
    fn reach(&self, q: f64) -> f64 {
        self.offset + q
    }
}

/// A joint of the given kind and length.
#[derive_frule]
pub fn make_joint(kind: u8, l: f64) -> Box<dyn Joint> {
    if kind == 0 {
        Box::new(Revolute { len: l })
    } else {
        Box::new(Prismatic { offset: 0.5 * l })
    }
}

/// The tip of a revolute-prismatic-revolute chain: lengths `x[0..3]`, coordinates
/// `x[3..6]`.
#[derive_frule]
fn tip(x: &[f64]) -> f64 {
    let kinds = [0u8, 1, 0];
    let mut total = 0.0;
    for i in 0..3 {
        let j = make_joint(kinds[i], x[i]);
        total += j.reach(x[3 + i]);
    }
    total
}

/// The same chain kept as a `Vec<Box<dyn Joint>>` filled from the factory.
#[derive_frule]
fn tip_of_chain(x: &[f64]) -> f64 {
    let kinds = [0u8, 1, 0];
    let mut joints: Vec<Box<dyn Joint>> = Vec::new();
    for i in 0..3 {
        joints.push(make_joint(kinds[i], x[i]));
    }
    let mut total = 0.0;
    for (j, q) in joints.iter().zip(&x[3..]) {
        total += j.reach(*q);
    }
    total
}

#[test]
fn a_vec_of_boxes_from_the_factory() {
    let x = [1.0, 0.6, 0.8, 0.3, 0.2, -0.9];
    check_modes!(tip_of_chain {}, tip_of_chain, x);
    assert_eq!(tip_of_chain(&x).to_bits(), tip(&x).to_bits());
}

#[test]
fn a_chain_from_a_factory_in_every_mode() {
    let x = [1.0, 0.6, 0.8, 0.3, 0.2, -0.9];
    check_modes!(tip {}, tip, x);
    // ∂/∂l₀ = cos q₀, ∂/∂l₁ = 1/2, ∂/∂q₂ = −l₂ sin q₂, by hand.
    let (v, g) = gradient(tip {}, &x);
    assert_eq!(v.to_bits(), tip(&x).to_bits());
    assert!((g[0] - x[3].cos()).abs() < 1e-14);
    assert!((g[1] - 0.5).abs() < 1e-14);
    assert!((g[5] + x[2] * x[5].sin()).abs() < 1e-14);
}
