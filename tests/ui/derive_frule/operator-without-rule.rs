// An operator on the user's own type whose `impl` has no `#[derive_frule]`: the error is at
// the operator, names both operand types and says what to annotate.
use fwdad::prelude::*;
use std::ops::Sub;

#[derive(Clone, Copy, Differentiable)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2 { x: self.x - o.x, y: self.y - o.y }
    }
}

#[derive_frule]
fn gap_x(a: V2, b: V2) -> f64 {
    let d = a - b;
    d.x
}

fn main() {}
