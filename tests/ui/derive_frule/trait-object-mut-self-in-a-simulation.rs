// A simulation stepping `Vec<Box<dyn Body>>` through `update(&mut self, dt)` and a
// `&mut dyn Integrator`: a trait object's fields are constants, and a `&mut self` method
// would store values carrying derivatives in them; the first error is at the call and
// says to take the bodies through a generic parameter.
use fwdad::prelude::*;

#[derive_frule]
pub trait Body {
    fn update(&mut self, dt: f64, g: f64);
    fn height(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub h: f64,
    pub v: f64,
}

#[derive_frule]
impl Body for Ball {
    fn update(&mut self, dt: f64, g: f64) {
        self.v -= g * dt;
        self.h += self.v * dt;
    }
    fn height(&self) -> f64 {
        self.h
    }
}

#[derive_frule]
fn drop_height(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        for b in bodies.iter_mut() {
            b.update(dt, g);
        }
    }
    bodies.iter().map(|b| b.height()).sum()
}

#[derive_frule]
pub trait Integrator {
    fn step(&mut self, k: f64, dt: f64);
    fn position(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Verlet {
    pub x: f64,
    pub v: f64,
}

#[derive_frule]
impl Integrator for Verlet {
    fn step(&mut self, k: f64, dt: f64) {
        self.v -= k * self.x * dt;
        self.x += self.v * dt;
    }
    fn position(&self) -> f64 {
        self.x
    }
}

#[derive_frule]
fn oscillate(it: &mut dyn Integrator, k: f64) -> f64 {
    for _ in 0..10 {
        it.step(k, 0.01);
    }
    it.position()
}

fn main() {}
