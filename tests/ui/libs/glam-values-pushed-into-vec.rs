// glam values pushed into a `Vec` made empty (`Vec::new()`, then `push`) are not seen as
// library values: the `Vec`'s elements are taken for floats.
use fwdad::prelude::*;
use glam::DVec3;

#[derive_frule]
fn spread(x: &[f64]) -> f64 {
    let mut pos = Vec::new();
    for i in 0..3 {
        pos.push(DVec3::new(i as f64, x[0], 0.0));
    }
    pos[2].distance(pos[0])
}

fn main() {}
