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

// A renamed tangent enum: patterns look for `ToolTangent`.
#[derive(Differentiable, Clone, Debug)]
#[differentiable(tangent = DTool)]
pub enum Tool {
    Blade(f64),
    Drill { d: f64 },
}

#[derive_frule]
fn size(t: &Tool) -> f64 {
    match t {
        Tool::Blade(l) => *l,
        Tool::Drill { d } => 2.0 * d,
    }
}

fn main() {}
