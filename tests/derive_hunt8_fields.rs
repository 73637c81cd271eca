//! Eighth hunt, fields read with their declared types (a guard that passed; apart from
//! `derive_hunt8_found.rs`, whose bodies declare a field `v: f64`, which would make
//! `-self.v` below ambiguous: docs/limits.md): an enum of forces whose variants hold vectors
//! and scalars, matched through `&self`; a particle stepped by a `&mut self` method whose
//! locals shadow its fields' names (`let vel = self.vel + ..; self.vel = vel;`); nested
//! fields (`self.p.vel - self.wind`); a vector field negated (`-self.v`) beside a struct
//! whose field of another name is a float. In one direction, batches of 1 to 16 lanes and
//! second order against central differences, primals bit for bit.
#![allow(clippy::needless_range_loop, clippy::float_cmp)]
use fwdad::drivers::jvp;
use fwdad::prelude::*;
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

#[derive(Debug, Clone, Copy, PartialEq, Differentiable)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

#[derive_frule]
impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}
#[derive_frule]
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2 {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
}
#[derive_frule]
impl Neg for V2 {
    type Output = V2;
    fn neg(self) -> V2 {
        V2 {
            x: -self.x,
            y: -self.y,
        }
    }
}
#[derive_frule]
impl Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, s: f64) -> V2 {
        V2 {
            x: self.x * s,
            y: self.y * s,
        }
    }
}
#[derive_frule]
impl AddAssign for V2 {
    fn add_assign(&mut self, o: V2) {
        self.x += o.x;
        self.y += o.y;
    }
}
#[derive_frule]
impl V2 {
    pub fn dot(&self, o: V2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn norm(&self) -> f64 {
        self.dot(*self).sqrt()
    }
}

/// Forces on a particle, variants holding vectors and scalars.
#[derive(Debug, Clone, Copy, Differentiable)]
pub enum Force {
    Spring { anchor: V2, k: f64 },
    Drag { c: f64 },
    Push(V2),
}

#[derive_frule]
impl Force {
    pub fn at(&self, p: V2, vel: V2) -> V2 {
        match self {
            Force::Spring { anchor, k } => (*anchor - p) * *k,
            Force::Drag { c } => -vel * *c,
            Force::Push(f) => *f,
        }
    }
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Particle {
    pub pos: V2,
    pub vel: V2,
    pub mass: f64,
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct World {
    pub p: Particle,
    pub wind: V2,
}

#[derive_frule]
impl Particle {
    /// A step where locals shadow the fields' names.
    pub fn step(&mut self, forces: &[Force], dt: f64) {
        let mut f = V2 { x: 0.0, y: 0.0 };
        for force in forces {
            f += force.at(self.pos, self.vel);
        }
        let vel = self.vel + f * (dt / self.mass);
        let pos = self.pos + vel * dt;
        let mass = self.mass;
        self.vel = vel;
        self.pos = pos * (mass / self.mass);
    }
    pub fn kinetic(&self) -> f64 {
        0.5 * self.mass * self.vel.dot(self.vel)
    }
}

#[derive_frule]
impl World {
    /// Nested fields: the particle's velocity against the wind.
    pub fn drag_power(&self) -> f64 {
        let rel = self.p.vel - self.wind;
        let speed = -self.p.vel;
        rel.norm() * rel.dot(self.p.vel) + speed.dot(self.wind) * 0.1 + self.p.pos.x * self.p.mass
    }
}

/// `x = [px, py, ax, ay, k, c, fx, fy, m]`.
#[derive_frule]
pub fn simulate(x: &[f64]) -> f64 {
    let forces = [
        Force::Spring {
            anchor: V2 { x: x[2], y: x[3] },
            k: x[4],
        },
        Force::Drag { c: x[5] },
        Force::Push(V2 { x: x[6], y: x[7] }),
    ];
    let mut p = Particle {
        pos: V2 { x: x[0], y: x[1] },
        vel: V2 { x: 0.0, y: 0.1 },
        mass: x[8],
    };
    for _ in 0..20 {
        p.step(&forces, 0.05);
    }
    let w = World {
        p,
        wind: V2 { x: 0.3, y: x[5] },
    };
    p.kinetic() + w.drag_power() + p.pos.norm()
}

/// A field whose name other structs use with another type: a scalar `k` in `Gain`, the
/// same name a float in `Force::Spring` too; `v` a vector here and a float in `Sample`.
#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Probe {
    pub v: V2,
    pub w: f64,
}

#[derive(Debug, Clone, Copy, Differentiable)]
pub struct Sample {
    pub val: f64,
    pub t: f64,
}

#[derive_frule]
impl Probe {
    pub fn flux(&self, n: V2) -> f64 {
        let v = -self.v;
        v.dot(n) * self.w
    }
}

#[derive_frule]
impl Sample {
    pub fn weighted(&self) -> f64 {
        -self.val * self.t + self.val * 2.0
    }
}

#[derive_frule]
pub fn probes(x: &[f64]) -> f64 {
    let pr = Probe {
        v: V2 { x: x[0], y: x[1] },
        w: x[2],
    };
    let s = Sample { val: x[0], t: x[2] };
    pr.flux(V2 { x: 0.6, y: 0.8 }) * s.weighted() + s.val * pr.v.x
}

#[test]
fn forces_and_particles() {
    let x = [1.0, 0.5, 0.2, -0.3, 2.0, 0.4, 0.1, -0.2, 1.5];
    check_widths!(simulate {}, simulate, x);
}

#[test]
fn same_field_names() {
    let x = [0.7, -0.4, 1.3];
    check_widths!(probes {}, probes, x);
}
