//! What the eleventh session's newcomer programs found, written as they were written.
//!
//! - A list of closures mapped by an iterator chain (`features.iter().map(|f| f(x))
//!   .collect()`, `features.iter().zip(&w).map(|(f, wi)| wi * f(x)).sum()`): a
//!   regression on basis functions; only `for` loops over such a list compiled.
//! - A field of a value whose type the macro cannot see (a `match` arm's binding of a
//!   call's result, `Some(h) => h`): `hit.normal * 1e-6` was read as float arithmetic,
//!   although the file declares `normal` only as a `V3`.
//!
//! Each against central differences and closed forms in one direction, every batch width
//! and second order, primals bit for bit.
#![allow(clippy::needless_range_loop, clippy::type_complexity)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;
use std::ops::{Add, Mul, Sub};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// Basis functions as a list of boxed closures, walked by chains.

#[derive_frule]
fn basis_fit_error(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let ell = p[0];
    let features: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(|_x| 1.0),
        Box::new(move |x| (-(x * x) / (2.0 * ell * ell)).exp()),
        Box::new(move |x| (x / ell).tanh()),
    ];
    let w = [p[1], p[2], p[3]];
    let mut err = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let phi: Vec<f64> = features.iter().map(|f| f(*x)).collect();
        let pred: f64 = features.iter().zip(&w).map(|(f, wi)| wi * f(*x)).sum();
        let check = phi[0] * w[0] + phi[1] * w[1] + phi[2] * w[2];
        err += (pred - y).powi(2) + 0.1 * (check - pred).abs();
    }
    err
}

fn basis_closed(p: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let (ell, w) = (p[0], [p[1], p[2], p[3]]);
    let mut err = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let phi = [1.0, (-(x * x) / (2.0 * ell * ell)).exp(), (x / ell).tanh()];
        let pred = w[0] * phi[0] + w[1] * phi[1] + w[2] * phi[2];
        err += (pred - y).powi(2);
    }
    err
}

#[derive_frule]
fn product_of_factors(p: &[f64]) -> f64 {
    let a = p[0];
    let factors = [
        Box::new(move |t: f64| 1.0 + a * t) as Box<dyn Fn(f64) -> f64>,
        Box::new(move |t: f64| (a * t).cos()),
    ];
    let mut total = 0.0;
    for k in 1..4 {
        let t = k as f64 * p[1];
        total += factors.iter().map(|f| f(t)).product::<f64>();
    }
    total
}

#[test]
fn closures_in_a_list_mapped_by_chains() {
    let xs: Vec<f64> = (0..9).map(|i| -2.0 + 0.5 * i as f64).collect();
    let ys: Vec<f64> = xs.iter().map(|x| 0.3 + (x * 1.3).sin()).collect();
    let p = [1.1, 0.4, -0.3, 0.8];
    // The two sums agree to rounding, so the |check - pred| term is 0 or a few ulps: compare
    // with the closed form without it, to a tolerance far above that.
    let plain = |p: &[f64]| basis_fit_error(p, &xs, &ys);
    assert!((plain(&p) - basis_closed(&p, &xs, &ys)).abs() < 1e-12);
    let rule = bind(basis_fit_error {}, (Wrt, &xs[..], &ys[..]));
    let (v, g) = gradient(rule, &p[..]);
    assert_eq!(v.to_bits(), plain(&p).to_bits());
    let want = fd_gradient(&|p: &[f64]| basis_closed(p, &xs, &ys), &p);
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-6, &format!("d/dp{k}"));
    }
    // one direction
    let (v1, d1): (f64, f64) = jvp(rule, &p, &[1.0, 0.0, 0.0, 0.0]);
    assert_eq!(v1.to_bits(), v.to_bits());
    assert_close(d1, want[0], 1e-6, "jvp d/dell");

    let q = [0.7, 0.4];
    check_widths!(product_of_factors {}, product_of_factors, q);
}

// ---------------------------------------------------------------------------------------
// A ray caster's closest hit, bound by a `match` on a call's `Option`.

#[derive(Clone, Copy, Debug, Differentiable)]
struct V3 {
    x: f64,
    y: f64,
    z: f64,
}

#[derive_frule]
impl V3 {
    fn new(x: f64, y: f64, z: f64) -> Self {
        V3 { x, y, z }
    }
    fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
}

#[derive_frule]
impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

#[derive_frule]
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

#[derive_frule]
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, s: f64) -> V3 {
        V3::new(self.x * s, self.y * s, self.z * s)
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Hit {
    t: f64,
    point: V3,
    normal: V3,
}

#[derive_frule]
fn hit_sphere(center: V3, radius: f64, origin: V3, dir: V3) -> Option<Hit> {
    let oc = origin - center;
    let b = oc.dot(dir);
    let c = oc.dot(oc) - radius * radius;
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    let point = origin + dir * t;
    let normal = (point - center) * (1.0 / radius);
    Some(Hit { t, point, normal })
}

/// Where a ray from `p[0..2]` (on the plane z = 0) straight down −z, bounced off the
/// unit sphere at depth 3, is pushed off the surface by 1e-3 along the normal: its z.
#[derive_frule]
fn offset_point_z(p: &[f64]) -> f64 {
    let origin = V3::new(p[0], p[1], 0.0);
    let dir = V3::new(0.0, 0.0, -1.0);
    let hit = match hit_sphere(V3::new(0.0, 0.0, -3.0), p[2], origin, dir) {
        Some(h) => h,
        None => return 0.0,
    };
    let lifted = hit.point + hit.normal * 1e-3;
    lifted.z + hit.t * 0.0
}

/// The same by hand: z of the hit is −3 + √(r² − x² − y²), the normal's z is that over r.
fn offset_point_z_closed(p: &[f64]) -> f64 {
    let (x, y, r) = (p[0], p[1], p[2]);
    let h = (r * r - x * x - y * y).sqrt();
    -3.0 + h + 1e-3 * h / r
}

#[test]
fn field_of_a_match_binding_takes_its_declared_type() {
    let p = [0.2, -0.3, 1.0];
    assert!((offset_point_z(&p) - offset_point_z_closed(&p)).abs() < 1e-14);
    check_widths!(offset_point_z {}, offset_point_z, p);
    let (_, g) = gradient(offset_point_z {}, &p[..]);
    let want = fd_gradient(&offset_point_z_closed, &p);
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-6, &format!("closed d/dp{k}"));
    }
    let (_, _, h) = hessian(offset_point_z {}, &p[..]);
    let want = fd_hessian(&offset_point_z_closed, &p);
    for i in 0..3 {
        for j in 0..3 {
            assert_close(h[(i, j)], want[i][j], 1e-4, &format!("closed h{i}{j}"));
        }
    }
}
