//! `Option::filter` as ray tracers and solvers write it: the nearest root in front of the
//! camera (`Some(t0).filter(|t| *t > EPS).or_else(|| Some(t1).filter(..))`), a root kept
//! only inside an interval, a filter on an untyped local and on a helper's result. Each
//! function is differentiated unmodified and checked in one direction, batched and at
//! second order against central differences of the plain function (primals bit for bit),
//! and the ray's hit distance against its closed form.
use fwdad::drivers::{bind, gradient, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

const EPS: f64 = 1e-9;

/// The nearest positive hit of the ray `o + t·d` (`d` of unit length) with the sphere of
/// centre `c` and radius `r`.
#[derive_frule]
pub fn hit(o: [f64; 3], d: [f64; 3], c: [f64; 3], r: f64) -> Option<f64> {
    let oc = [o[0] - c[0], o[1] - c[1], o[2] - c[2]];
    let b = oc[0] * d[0] + oc[1] * d[1] + oc[2] * d[2];
    let cc = oc[0] * oc[0] + oc[1] * oc[1] + oc[2] * oc[2] - r * r;
    let disc = b * b - cc;
    if disc < 0.0 {
        return None;
    }
    let s = disc.sqrt();
    Some(-b - s)
        .filter(|t| *t > EPS)
        .or_else(|| Some(-b + s).filter(|t| *t > EPS))
}

/// Depth of the sphere seen from `o` along the unit ray `(p0, p1, √(1-p0²-p1²))`, with
/// radius `p2`; 100 when the ray misses.
#[derive_frule]
pub fn depth(p: &[f64]) -> f64 {
    let d = [p[0], p[1], (1.0 - p[0] * p[0] - p[1] * p[1]).sqrt()];
    hit([0.0, 0.0, -5.0], d, [0.2, 0.1, 0.0], p[2]).map_or(100.0, |t| t * 2.0)
}

/// A quadratic's larger root, if it lies in `[lo, hi]`.
#[derive_frule]
pub fn root_in(a: f64, b: f64, c: f64, lo: f64, hi: f64) -> Option<f64> {
    let disc = b * b - 4.0 * a * c;
    let root = if disc >= 0.0 {
        Some((-b + disc.sqrt()) / (2.0 * a))
    } else {
        None
    };
    root.filter(|x| *x >= lo && *x <= hi)
}

/// The root of `a x² + b x + c` in `[0, 10]`, else a penalty.
#[derive_frule]
pub fn root_or_penalty(p: &[f64]) -> f64 {
    match root_in(p[0], p[1], p[2], 0.0, 10.0) {
        Some(x) => x * x,
        None => 1e3,
    }
}

/// A filter on a helper's result, then unwrapped with a default.
#[derive_frule]
pub fn positive_part_sum(p: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in p {
        s += Some(v * v - 1.0).filter(|q| *q > 0.0).unwrap_or(0.0);
    }
    s
}

#[test]
fn ray_depth_in_every_mode() {
    check_modes!(depth {}, depth, [0.05, 0.02, 1.0]);
}

#[test]
fn ray_depth_matches_the_closed_form() {
    // o = (0,0,-5), d = (0,0,1), c = (0,0,0): the near hit is at t = 5 - r, depth 2(5 - r),
    // so d depth / d r = -2.
    let (v, g) = gradient(depth {}, &[0.0, 0.0, 1.5][..]);
    let oc = [-0.2, -0.1, -5.0];
    let b: f64 = oc[2];
    let cc: f64 = oc.iter().map(|v| v * v).sum::<f64>() - 1.5 * 1.5;
    let t = -b - (b * b - cc).sqrt();
    assert_eq!(v.to_bits(), (2.0 * t).to_bits());
    // t = -b - √(b² - |oc|² + r²): ∂t/∂r = -r / √(b² - |oc|² + r²).
    assert_close(
        g[2],
        2.0 * (-1.5 / (b * b - cc).sqrt()),
        1e-12,
        "d depth / d r",
    );
}

#[test]
fn inside_the_sphere_the_far_root_is_taken() {
    // From inside (|o - c| < r) the near root is negative and filtered out.
    let p = [0.01, -0.02, 6.0];
    check_modes!(depth {}, depth, p);
    assert!(depth(&p) < 100.0);
}

#[test]
fn a_root_kept_inside_an_interval() {
    check_modes!(root_or_penalty {}, root_or_penalty, [1.0, -3.0, 1.5]);
    // No root in [0, 10]: the penalty, a zero gradient.
    let (v, g) = gradient(root_or_penalty {}, &[1.0, 30.0, 1.0][..]);
    assert_eq!(v, 1e3);
    assert!(g.iter().all(|d| *d == 0.0));
}

#[test]
fn filter_on_a_helper_result() {
    check_modes!(positive_part_sum {}, positive_part_sum, [1.5, 0.5, -2.0]);
    // d/dp Σ max(p² - 1, 0) = 2p where |p| > 1.
    let (_, g) = gradient(bind(positive_part_sum {}, (Wrt,)), &[1.5, 0.5, -2.0]);
    assert_eq!(g, [3.0, 0.0, -4.0]);
}
