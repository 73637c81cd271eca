// glam's `f32` types (`Vec3`, `Quat`, `Mat4`: SIMD code on x86) are not mirrored over
// duals; the `f64` ones (`DVec3`, `DQuat`, `DMat4`) are.
use fwdad::prelude::*;
use glam::Vec3;

#[derive_frule]
fn brightness(c: Vec3, k: f32) -> f32 {
    (c * k).length()
}

fn main() {}
