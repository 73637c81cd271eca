// A vector returned by a derived method, bound without its type: the macro reads the
// result types of the file's free functions only (generic ones too, `fn helix<T:
// RealField>(t: T) -> Vector3<T>`), so it cannot see that `p` is a `Vector3`.
use fwdad::prelude::*;
use nalgebra::Vector3;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Helix {
    pub pitch: f64,
}

#[derive_frule]
impl Helix {
    pub fn at(&self, t: f64) -> Vector3<f64> {
        Vector3::new(t.cos(), t.sin(), self.pitch * t)
    }
}

#[derive_frule]
fn height_over_radius(t: f64) -> f64 {
    let h = Helix { pitch: 0.5 };
    let p = h.at(t);
    p.z / p.xy().norm()
}

fn main() {}
