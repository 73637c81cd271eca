// A glam method that the runtime's mirror over duals does not have.
use fwdad::prelude::*;
use glam::DVec3;

#[derive_frule]
fn bounce(v: &DVec3, normal: &DVec3) -> f64 {
    v.project_onto(*normal).z
}

fn main() {}
