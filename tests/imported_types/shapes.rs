use fwdad::Differentiable;

/// A point or direction in space.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

/// Signed-distance primitives.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub enum Shape {
    Sphere { c: Vec3, r: f64 },
    Plane(Vec3, f64),
}

/// A time stamp of a propagator, a tuple struct.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Minutes(pub f64);
