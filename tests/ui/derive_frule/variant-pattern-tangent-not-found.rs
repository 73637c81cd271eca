use fwdad::prelude::*;

#[derive(Differentiable, Clone, Debug)]
pub enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
}

// A variant imported by a glob is read as a struct of that name: its tangent is looked
// up as `CircleTangent`.
use Shape::*;

#[derive_frule]
fn area(s: &Shape) -> f64 {
    match s {
        Circle { r } => 3.0 * r * r,
        Rect { w, h } => w * h,
    }
}

fn main() {}
