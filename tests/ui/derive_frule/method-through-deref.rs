// A method of the type a wrapper derefs to (`impl Deref for Position`), called on the
// wrapper: the method probe meets the stand-in for the wrapper's missing rule before it
// derefs to `Vec3`'s. The note says to call it on the inner value (`p.0.norm()`), which
// works (`tests/derive_deref_wrapper.rs`).
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

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Position(pub Vec3);

impl Deref for Position {
    type Target = Vec3;
    fn deref(&self) -> &Vec3 {
        &self.0
    }
}

#[derive_frule]
fn dist(p: &Position) -> f64 {
    p.norm()
}

fn main() {}
