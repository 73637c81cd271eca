// glam's `f32` types (`Vec3`, `Quat`, `Mat4`) are recognised with the feature `glam-f32`
// only (a type of your own is often named `Vec3`); with `glam` alone, a `Vec3` is taken
// for a type of yours, whose methods have no rule.
use fwdad::prelude::*;
use glam::Vec3;

#[derive_frule]
fn brightness(c: Vec3, k: f32) -> f32 {
    c.length() * k
}

fn main() {}
