// An `f32` parameter mixed with `f64` arithmetic (a sensor reading kept in `f32`):
// Rust does not convert floats implicitly; write `dt as f64`, or take `f64`.
use fwdad::prelude::*;

#[derive_frule]
fn integrate(v: f64, dt: f32) -> f64 {
    v * dt
}

fn main() {}
