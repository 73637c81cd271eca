// `derivative` takes an `f64` point; a function of `f32` is differentiated by
// `derivative_f32` (and `gradient_f32`, `jacobian_f32` for `&[f32]`).
use fwdad::prelude::*;

#[derive_frule]
fn ease(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

fn main() {
    let _ = derivative(ease {}, 0.25f32);
}
