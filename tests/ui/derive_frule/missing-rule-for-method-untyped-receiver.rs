// A method of a plain `impl` called on receivers whose type the macro cannot see (a
// field, a value a rule returned) and on a generic type's instance: the error still names
// the receiver's type and the method.
use fwdad::prelude::*;
use num_traits::Float;

#[derive(Clone, Copy, Debug, Differentiable)]
struct Vec3 {
    x: f64,
    y: f64,
    z: f64,
}

impl Vec3 {
    fn length(&self) -> f64 {
        (self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Particle {
    pos: Vec3,
    mass: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct V2<T> {
    x: T,
    y: T,
}

impl<T: Float> V2<T> {
    fn norm(&self) -> T {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

#[derive_frule]
fn helix(t: f64) -> Vec3 {
    Vec3 { x: t.cos(), y: t.sin(), z: t }
}

#[derive_frule]
fn moment(p: &Particle) -> f64 {
    p.mass * p.pos.length()
}

#[derive_frule]
fn arc(t: f64) -> f64 {
    let r = helix(t);
    r.length()
}

#[derive_frule]
fn planar(v: &V2<f64>) -> f64 {
    v.norm()
}

fn main() {}
