// A `#[differentiable(skip)]` field read in a derived body: the field has no tangent, and
// the macro cannot see that it is skipped. Workaround: read it in a plain helper function
// marked `#[non_differentiable]` and call that.
use fwdad::prelude::*;

#[derive(Clone, Debug, Differentiable)]
struct Model {
    k: f64,
    #[differentiable(skip)]
    label: String,
}

#[derive_frule]
fn energy(m: &Model, x: f64) -> f64 {
    let n = m.label.len() as f64;
    m.k * x * x * n
}

fn main() {}
