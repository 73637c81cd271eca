// A generic trait implemented twice for one type, `#[derive_frule]` on each `impl`
// (geographiclib's `impl InverseGeodesic<(f64, f64)> for Geodesic`, eight of them): each
// `impl`'s methods get the type's rules, and two `inverse`s of one type collide. The first
// error names the trait and the type.
use fwdad::prelude::*;

pub trait Inverse<T> {
    fn inverse(&self, lat: f64) -> T;
}

#[derive(Clone, Copy, fwdad::Differentiable)]
pub struct Geodesic {
    a: f64,
}

#[derive_frule]
impl Inverse<f64> for Geodesic {
    fn inverse(&self, lat: f64) -> f64 {
        self.a * lat.cos()
    }
}

#[derive_frule]
impl Inverse<(f64, f64)> for Geodesic {
    fn inverse(&self, lat: f64) -> (f64, f64) {
        (self.a * lat.cos(), self.a * lat.sin())
    }
}

fn main() {}
