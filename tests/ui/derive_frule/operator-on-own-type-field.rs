// An operator between a field of the user's own type and a float, where the file declares
// a field of that name with two types (`a: V2` in `Segment`, `a: f64` in `Gains`) and the
// base's type is not written (a loop's element): the macro reads a field's type from the
// base's written type (`s: Segment`, tests/errors12_found.rs) or from the file's structs
// when every field of the name has one type, so `s.a * 0.5` is taken for float
// arithmetic; the error is at the operand, names the type and says to name the field's
// value with its type first. (With one `a` in the file, or `s.a + s.b` of two fields, the
// operator's rule is found.)
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
fn midpoints_x(segs: &[Segment]) -> f64 {
    let mut t = 0.0;
    for s in segs {
        let m = s.a * 0.5;
        t += m.x;
    }
    t
}

fn main() {}
