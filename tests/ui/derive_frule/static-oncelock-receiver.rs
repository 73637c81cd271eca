// A value read from a `static` through a method of the static's type (geographiclib's
// `Geodesic::wgs84()`: `*WGS84_GEOD.get_or_init(|| Geodesic::new(WGS84_A, WGS84_F))`):
// the `OnceLock` has no tangent type and its method no rule.
use fwdad::prelude::*;
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Ellipsoid {
    pub a: f64,
    pub f: f64,
}

static WGS84: OnceLock<Ellipsoid> = OnceLock::new();

#[derive_frule]
impl Ellipsoid {
    pub fn new(a: f64, f: f64) -> Self {
        Ellipsoid { a, f }
    }

    pub fn wgs84() -> Self {
        *WGS84.get_or_init(|| Ellipsoid::new(6378137.0, 1.0 / 298.257223563))
    }
}

fn main() {}
