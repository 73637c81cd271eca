// A trait implemented for every type implementing another trait of one's own (`impl<T:
// Shape> Area for T`) has rules for concrete receivers and for parameters bounded by
// `Shape` (tests/derive_traits6.rs); a parameter bounded by `Area` itself cannot check
// that the type's rules are derived (no `impl` of the runtime's can be written for every
// `T`): the error names the type and says to bound the parameter by `Shape`.
use fwdad::prelude::*;

#[derive_frule]
pub trait Shape {
    fn width(&self) -> f64;
    fn height(&self) -> f64;
}

#[derive_frule]
pub trait Area {
    fn area(&self) -> f64;
}

#[derive_frule]
impl<T: Shape> Area for T {
    fn area(&self) -> f64 {
        self.width() * self.height()
    }
}

#[derive(Clone, Copy, Differentiable)]
pub struct Rect {
    pub w: f64,
    pub h: f64,
}

#[derive_frule]
impl Shape for Rect {
    fn width(&self) -> f64 {
        self.w
    }
    fn height(&self) -> f64 {
        self.h
    }
}

#[derive_frule]
fn doubled<A: Area>(a: &A) -> f64 {
    2.0 * a.area()
}

#[derive_frule]
fn plate(w: f64, h: f64) -> f64 {
    doubled(&Rect { w, h })
}

fn main() {}
