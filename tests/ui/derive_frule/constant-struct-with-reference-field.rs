// A struct holding a reference, built from constants and then given differentiated
// values (geographiclib's `PolygonArea::new(&g, ..)` on a `Geodesic` made from literals,
// then `pa.add_point(lat, lon)`): it has no zero tangent to start from.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, fwdad::Differentiable)]
pub struct Ellipsoid {
    pub a: f64,
}

#[derive(Debug, Clone, fwdad::Differentiable)]
pub struct Track<'a> {
    body: &'a Ellipsoid,
    length: f64,
}

#[derive_frule]
impl<'a> Track<'a> {
    pub fn new(body: &'a Ellipsoid) -> Self {
        Track { body, length: 0.0 }
    }

    pub fn add(&mut self, step: f64) {
        self.length += self.body.a * step;
    }
}

#[derive_frule]
fn length(steps: &[f64]) -> f64 {
    let body = Ellipsoid { a: 6378137.0 };
    let mut t = Track::new(&body);
    for &s in steps {
        t.add(s);
    }
    t.length
}

fn main() {}
