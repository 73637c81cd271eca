// Signed distance functions boxed in the body from the function's parameters, then
// evaluated through `iter().map(..)`: a trait object's fields are constants, so the
// derivatives with respect to `r` and `h` would be lost; the first error is at
// `Box::new` and says what to write instead.
use fwdad::prelude::*;

#[derive_frule]
pub trait Sdf {
    fn eval(&self, p: [f64; 3]) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Sphere {
    pub r: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Plane {
    pub h: f64,
}

#[derive_frule]
impl Sdf for Sphere {
    fn eval(&self, p: [f64; 3]) -> f64 {
        (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt() - self.r
    }
}

#[derive_frule]
impl Sdf for Plane {
    fn eval(&self, p: [f64; 3]) -> f64 {
        p[2] - self.h
    }
}

#[derive_frule]
fn scene(r: f64, h: f64, p: [f64; 3]) -> f64 {
    let shapes: Vec<Box<dyn Sdf>> = vec![Box::new(Sphere { r }), Box::new(Plane { h })];
    shapes.iter().map(|s| s.eval(p)).fold(f64::INFINITY, f64::min)
}

fn main() {}
