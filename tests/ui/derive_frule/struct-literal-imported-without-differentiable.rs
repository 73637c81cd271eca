// A struct of another file of the crate, imported by a `use`, declared without
// `#[derive(Differentiable)]`: the error says so at the literal and names the file, where
// rustc would say "cannot find struct `P2Tangent`".
use fwdad::prelude::*;

mod shapes {
    pub mod geometry;
}

use shapes::geometry::P2;

#[derive_frule]
fn centroid_x(a: f64, b: f64) -> f64 {
    let p = P2 { x: a, y: b };
    let q = P2 { x: 2.0 * a, y: 0.0 };
    0.5 * (p.x + q.x)
}

fn main() {}
