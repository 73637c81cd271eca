// Another crate's inline vector of floats (kurbo's `solve_quadratic` returns
// `arrayvec::ArrayVec<f64, 2>`): it has no tangent type.
use arrayvec::ArrayVec;
use fwdad::prelude::*;

#[derive_frule]
pub fn solve_quadratic(c0: f64, c1: f64, c2: f64) -> ArrayVec<f64, 2> {
    let mut result = ArrayVec::new();
    let sc0 = c0 * c2.recip();
    let sc1 = c1 * c2.recip();
    let arg = sc1 * sc1 - 4. * sc0;
    let root1 = -0.5 * (sc1 + arg.sqrt().copysign(sc1));
    result.push(root1);
    result.push(sc0 / root1);
    result
}

#[derive_frule]
fn smallest_root(c: &[f64]) -> f64 {
    let roots: ArrayVec<f64, 2> = ArrayVec::new();
    roots.iter().fold(c[0], |m, &r| m.min(r))
}

fn main() {}
