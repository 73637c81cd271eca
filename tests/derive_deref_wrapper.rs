//! A method of the type a wrapper derefs to, called on the wrapper's inner value
//! (`p.0.norm()`, what the error for `p.norm()` says to write,
//! `tests/ui/derive_frule/method-through-deref.rs`), in every mode, against central
//! differences of the plain function (which calls `p.norm()` through `Deref`).

mod common;

use fwdad::prelude::*;
use std::ops::Deref;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Vec3 {
    pub fn norm(&self) -> f64 {
        (self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }
}

/// A position, a `Vec3` with a meaning.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Position(pub Vec3);

impl Deref for Position {
    type Target = Vec3;
    fn deref(&self) -> &Vec3 {
        &self.0
    }
}

#[derive_frule]
fn distance_from_origin(p: &Position) -> f64 {
    p.0.norm()
}

fn via_deref(x: &[f64]) -> f64 {
    let p = Position(Vec3 {
        x: x[0],
        y: x[1],
        z: x[2],
    });
    p.norm()
}

#[derive_frule]
fn radius(x: &[f64]) -> f64 {
    let p = Position(Vec3 {
        x: x[0],
        y: x[1],
        z: x[2],
    });
    distance_from_origin(&p)
}

#[test]
fn method_of_the_deref_target_through_the_inner_value_in_every_mode() {
    check_modes!(radius {}, via_deref, [0.3, -1.2, 2.0]);
}
