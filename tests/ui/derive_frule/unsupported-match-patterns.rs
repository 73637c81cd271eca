use fwdad::prelude::*;

#[derive(Differentiable, Clone, Debug)]
pub enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
}

#[derive_frule]
fn by_ref(s: &Shape) -> f64 {
    match s {
        Shape::Circle { ref r } => 3.0 * r * r,
        Shape::Rect { w, h } => w * h,
    }
}

#[derive_frule]
fn by_slice(x: &[f64]) -> f64 {
    match x {
        [a, b] => a * b,
        _ => 0.0,
    }
}

fn main() {}
