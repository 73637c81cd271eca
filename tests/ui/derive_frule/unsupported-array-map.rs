// `[f64; N]::map` with a closure on an array the macro cannot see as one (a method's
// result; a struct's field is one when the file declares it, `p: [f64; 3]`, and so is a
// call of a function of the file whose result is written `[f64; 3]`).
// Workaround: bind it with its type first, `let p: [f64; 3] = t.corners();`, then `p.map(..)`.
use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
pub struct Tri {
    pub s: f64,
}

#[derive_frule]
impl Tri {
    pub fn corners(&self) -> [f64; 3] {
        [self.s, 2.0 * self.s, 3.0 * self.s]
    }
}

#[derive_frule]
fn sum_of_squares(t: &Tri) -> f64 {
    let q = t.corners().map(|v| v * v);
    q[0] + q[1] + q[2]
}

fn main() {}
