// A trait object built in the body from a value that depends on the inputs: a trait
// object's fields are constants, so its derivative would be lost; the error is at
// `Box::new` (limits.md: take a generic `J: Joint`, or build the objects outside).
use fwdad::prelude::*;

#[derive_frule]
pub trait Joint {
    fn reach(&self, q: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Revolute {
    pub len: f64,
}

#[derive_frule]
impl Joint for Revolute {
    fn reach(&self, q: f64) -> f64 {
        self.len * q.cos()
    }
}

#[derive_frule]
fn total(joints: &[Box<dyn Joint>], q: f64) -> f64 {
    joints.iter().map(|j| j.reach(q)).sum()
}

#[derive_frule]
fn arm(p: &[f64]) -> f64 {
    let joints: Vec<Box<dyn Joint>> = vec![Box::new(Revolute { len: p[1] })];
    total(&joints, p[0])
}

#[derive_frule]
pub trait Shape {
    fn area(&self) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Circle {
    pub r: f64,
}

#[derive(Clone, Copy, Differentiable)]
pub struct Square {
    pub a: f64,
}

#[derive_frule]
impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.r * self.r
    }
}

#[derive_frule]
impl Shape for Square {
    fn area(&self) -> f64 {
        self.a * self.a
    }
}

#[derive_frule]
fn total_area(x: &[f64]) -> f64 {
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle { r: x[0] }), Box::new(Square { a: x[1] })];
    shapes.iter().map(|s| s.area()).sum()
}

fn main() {}
