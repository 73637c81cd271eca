// An operator on the user's own type is not applied through its `impl Add`: the error is
// at the operand and says to call the method.
use fwdad::prelude::*;
use std::ops::Add;

#[derive(Clone, Copy, Differentiable)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

#[derive_frule]
impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 { x: self.x + o.x, y: self.y + o.y }
    }
}

#[derive_frule]
fn midpoint_x(a: V2, b: V2) -> f64 {
    let s = a + b;
    0.5 * s.x
}

fn main() {}
