// An operator on a field of the user's own type: the macro cannot see the field's type, so
// `s.a + s.b` is taken for float arithmetic; the error is at the operand, names the type and
// says to name the field's value with its type first.
use fwdad::prelude::*;
use std::ops::Add;

#[derive(Clone, Copy, Differentiable)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Copy, Differentiable)]
pub struct Segment {
    pub a: V2,
    pub b: V2,
}

#[derive_frule]
impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 { x: self.x + o.x, y: self.y + o.y }
    }
}

#[derive_frule]
fn midpoint_x(s: Segment) -> f64 {
    let m = s.a + s.b;
    0.5 * m.x
}

fn main() {}
