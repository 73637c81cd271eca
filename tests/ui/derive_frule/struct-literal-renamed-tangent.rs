// A struct literal of a type whose tangent is renamed with `#[differentiable(tangent = ..)]`:
// the macro builds the literal's tangent as `<Name>Tangent`, which does not exist.
// Workaround: keep the default tangent name, or build the value outside and pass it in.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
#[differentiable(tangent = DPoint)]
struct Point {
    x: f64,
    y: f64,
}

#[derive_frule]
fn product(a: f64) -> f64 {
    let p = Point { x: a, y: 2.0 * a };
    p.x * p.y
}

fn main() {}
