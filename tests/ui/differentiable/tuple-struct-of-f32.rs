// `#[derive(Differentiable)]` on a tuple struct of `f32` (a graphics vector, `Vec2(x,
// y)`) used in an `f64` function's arithmetic: its fields are `f32`; convert them (`p.0
// as f64`), or declare them `f64`.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Vec2(pub f32, pub f32);

#[derive_frule]
fn dot(a: Vec2, w: f64) -> f64 {
    w * a.0 + w * a.1
}

fn main() {}
