// A velocity-Verlet step as physicists write it: the accelerations are what a function
// returned, bound by name (`let acc = accelerations(..)`), and the step a local bound to a
// literal. The macro sees neither type, so `*a * (0.5 * dt)` and `b.vel * dt` are taken
// for float arithmetic; the first error is at the operand, names the type and says to
// write it (`let acc: Vec<V3> = ..`).
use fwdad::prelude::*;
use std::ops::{AddAssign, Mul};

#[derive(Clone, Copy, Differentiable)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, k: f64) -> V3 {
        V3 { x: self.x * k, y: self.y * k, z: self.z * k }
    }
}

#[derive_frule]
impl AddAssign for V3 {
    fn add_assign(&mut self, o: V3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

#[derive(Clone, Copy, Differentiable)]
pub struct Body {
    pub pos: V3,
    pub vel: V3,
}

#[derive_frule]
fn accelerations(bodies: &[Body]) -> Vec<V3> {
    bodies.iter().map(|b| b.vel).collect()
}

#[derive_frule]
fn kick_drift(bodies: &mut [Body]) {
    let dt = 0.01;
    let acc = accelerations(bodies);
    for (b, a) in bodies.iter_mut().zip(&acc) {
        b.vel += *a * (0.5 * dt);
        b.pos += b.vel * dt;
    }
}

fn main() {}
