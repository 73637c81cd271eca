// An operator between a field of the user's own type and a float, where the file declares
// a field of that name with two types (`a: V2` in `Segment`, `a: f64` in `Gains`): the
// macro reads a field's type from the file's structs only when every field of the name has
// one type, so `s.a * 0.5` is taken for float arithmetic; the error is at the operand,
// names the type and says to name the field's value with its type first. (With one `a`
// in the file, or `s.a + s.b` of two fields, the operator's rule is found.)
use fwdad::prelude::*;
use std::ops::Mul;

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

#[derive(Clone, Copy, Differentiable)]
pub struct Gains {
    pub a: f64,
}

#[derive_frule]
impl Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, k: f64) -> V2 {
        V2 { x: self.x * k, y: self.y * k }
    }
}

#[derive_frule]
fn midpoint_x(s: Segment) -> f64 {
    let m = s.a * 0.5;
    0.5 * m.x
}

fn main() {}
