// `inactive(tip)` on a parameter of a type of yours taken by value, passed on to a method's
// rule (found by the user-operator benchmarks). Instead: take it by reference,
// `tip: &V`, and pass `*tip`.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Rot {
    pub c: f64,
    pub s: f64,
}

#[derive_frule]
impl Rot {
    pub fn apply(&self, v: V) -> V {
        V {
            x: self.c * v.x - self.s * v.y,
            y: self.s * v.x + self.c * v.y,
        }
    }
}

#[derive_frule(inactive(tip))]
fn reach(theta: f64, tip: V) -> f64 {
    let r = Rot {
        c: theta.cos(),
        s: theta.sin(),
    };
    let p = r.apply(tip);
    p.x + 2.0 * p.y
}

fn main() {}
