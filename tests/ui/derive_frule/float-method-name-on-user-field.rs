// A method of the user's named like a float method (`abs`), called on a field whose type
// the macro does not see: it is read as the float method. Workaround: bind the field with
// its type (`let p: &V = &b.pos; p.abs()`), or rename the method.
use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
pub struct V {
    x: f64,
    y: f64,
}

#[derive_frule]
impl V {
    pub fn abs(&self) -> f64 {
        self.x.abs() + self.y.abs()
    }
}

#[derive(Clone, Copy, Differentiable)]
pub struct Body {
    pos: V,
    m: f64,
}

#[derive_frule]
fn manhattan_momentum(b: &Body) -> f64 {
    b.m * b.pos.abs()
}

fn main() {}
