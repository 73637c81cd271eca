//! Extension traits on slices, arrays and `Vec`s, as numerics code writes its small vector
//! helpers: `trait VecOps { fn dot(&self, o: &Self) -> f64; fn norm(&self) -> f64; }`
//! implemented for `[f64]`, then `a.dot(b)` on slices, arrays and `Vec`s in derived
//! bodies. Checked against central differences and closed forms in one direction, batched
//! and at second order, primals bit for bit.

#[macro_use]
mod common;

use fwdad::drivers::{bind, Var};
use fwdad::prelude::*;

/// Vector helpers on slices.
#[derive_frule]
pub trait VecOps {
    fn dot(&self, o: &Self) -> f64;
    fn norm(&self) -> f64;
    fn scale(&mut self, k: f64);
}

#[derive_frule]
impl VecOps for [f64] {
    fn dot(&self, o: &Self) -> f64 {
        self.iter().zip(o).map(|(a, b)| a * b).sum()
    }
    fn norm(&self) -> f64 {
        self.dot(self).sqrt()
    }
    fn scale(&mut self, k: f64) {
        for v in self.iter_mut() {
            *v *= k;
        }
    }
}

/// The same helpers taking the other operand as a slice: a trait that is dyn compatible.
#[derive_frule]
pub trait SliceOps {
    fn inner(&self, other: &[f64]) -> f64;
    fn sq_dist(&self, other: &[f64]) -> f64;
}

#[derive_frule]
impl SliceOps for [f64] {
    fn inner(&self, other: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..self.len() {
            s += self[i] * other[i];
        }
        s
    }
    fn sq_dist(&self, other: &[f64]) -> f64 {
        self.iter().zip(other).map(|(a, b)| (a - b) * (a - b)).sum()
    }
}

/// Statistics of samples, on `Vec<f64>`.
#[derive_frule]
pub trait Stats {
    fn mean(&self) -> f64;
    fn variance(&self) -> f64;
}

#[derive_frule]
impl Stats for Vec<f64> {
    fn mean(&self) -> f64 {
        self.iter().sum::<f64>() / self.len() as f64
    }
    fn variance(&self) -> f64 {
        let m = self.mean();
        self.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (self.len() - 1) as f64
    }
}

/// 3-vectors as plain arrays, as robotics and graphics code keeps them.
#[derive_frule]
pub trait V3 {
    fn cross(&self, o: &[f64; 3]) -> [f64; 3];
    fn length(&self) -> f64;
}

#[derive_frule]
impl V3 for [f64; 3] {
    fn cross(&self, o: &[f64; 3]) -> [f64; 3] {
        [
            self[1] * o[2] - self[2] * o[1],
            self[2] * o[0] - self[0] * o[2],
            self[0] * o[1] - self[1] * o[0],
        ]
    }
    fn length(&self) -> f64 {
        (self[0] * self[0] + self[1] * self[1] + self[2] * self[2]).sqrt()
    }
}

/// A fixed-size helper for every length.
#[derive_frule]
pub trait SumSq {
    fn sum_sq(&self) -> f64;
}

#[derive_frule]
impl<const N: usize> SumSq for [f64; N] {
    fn sum_sq(&self) -> f64 {
        let mut s = 0.0;
        for v in self {
            s += v * v;
        }
        s
    }
}

/// A potential over two points given as arrays.
#[derive_frule]
fn pair_energy(x: &[f64]) -> f64 {
    let p = [x[0], x[1]];
    let q = [x[2], x[3], x[4]];
    (1.0 + p.sum_sq()).ln() * q.sum_sq().sqrt()
}

/// Cosine distance of the two halves of `x`.
#[derive_frule]
fn cosine_distance(x: &[f64]) -> f64 {
    let (a, b) = x.split_at(x.len() / 2);
    1.0 - a.dot(b) / (a.norm() * b.norm())
}

/// A normalised direction's component along an axis, on a local `Vec` scaled in place.
#[derive_frule]
fn along(x: &[f64]) -> f64 {
    let mut d = x.to_vec();
    let n = d.norm();
    d.scale(1.0 / n);
    let axis = [0.6, 0.8, 0.0];
    d.dot(&axis) + d.sq_dist(&axis)
}

/// A Gaussian log-likelihood's pieces from `Vec` statistics.
#[derive_frule]
fn spread(x: &[f64]) -> f64 {
    let v: Vec<f64> = x.iter().map(|t| t.exp()).collect();
    v.variance().ln() + v.mean() * x.inner(x)
}

/// The area of the triangle `p0 p1 p2` (nine coordinates), by the cross product of arrays.
#[derive_frule]
fn triangle_area(x: &[f64]) -> f64 {
    let p0 = [x[0], x[1], x[2]];
    let e1 = [x[3] - p0[0], x[4] - p0[1], x[5] - p0[2]];
    let e2 = [x[6] - p0[0], x[7] - p0[1], x[8] - p0[2]];
    0.5 * e1.cross(&e2).length()
}

/// An inactive slice's method beside an active one's.
#[derive_frule]
fn fit(w: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let pred: Vec<f64> = xs.iter().map(|x| w * x).collect();
    pred.sq_dist(ys) + 0.1 * xs.norm() * w * w
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

#[test]
fn cosine_distance_on_slices() {
    let x = [0.3, -1.2, 2.0, 0.7, 0.4, -0.5];
    check_modes!(cosine_distance {}, cosine_distance, x);
    // ∂/∂a of 1 − a·b/(|a||b|) = −b/(|a||b|) + (a·b) a/(|a|³|b|), by hand.
    let (a, b) = x.split_at(3);
    let dot: f64 = a.iter().zip(b).map(|(p, q)| p * q).sum();
    let na = a.iter().map(|p| p * p).sum::<f64>().sqrt();
    let nb = b.iter().map(|p| p * p).sum::<f64>().sqrt();
    let (_, g) = gradient(cosine_distance {}, &x);
    for i in 0..3 {
        let want = -b[i] / (na * nb) + dot * a[i] / (na.powi(3) * nb);
        assert!(close(g[i], want, 1e-13), "{i}: {} {want}", g[i]);
    }
}

#[test]
fn a_vec_scaled_in_place_through_the_slice_impl() {
    check_modes!(along {}, along, [1.0, 2.0, -0.5]);
}

#[test]
fn vec_statistics() {
    check_modes!(spread {}, spread, [0.1, -0.3, 0.8, 0.25]);
}

#[test]
fn array_cross_product() {
    let x = [0.0, 0.1, 0.2, 1.0, 0.3, -0.2, 0.4, 1.5, 0.6];
    check_modes!(triangle_area {}, triangle_area, x);
}

#[test]
fn arrays_of_every_length() {
    check_modes!(pair_energy {}, pair_energy, [0.3, -0.7, 1.1, 0.2, -0.4]);
}

#[test]
fn constant_data_slices() {
    let xs = [0.5, 1.0, 1.5, 2.0];
    let ys = [1.1, 1.9, 3.2, 3.9];
    let plain = |v: &[f64]| fit(v[0], &xs, &ys);
    check_modes!(bind(fit {}, (Var(0), &xs[..], &ys[..])), plain, [1.7]);
    // d/dw = Σ 2(w x − y) x + 0.2 |x| w.
    let w = 1.7;
    let nx = xs.iter().map(|p| p * p).sum::<f64>().sqrt();
    let want: f64 = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| 2.0 * (w * x - y) * x)
        .sum::<f64>()
        + 0.2 * nx * w;
    let d = fit_frule(
        Dual::new(w, 1.0),
        Dual::constant(&xs[..]),
        Dual::constant(&ys[..]),
    );
    assert_eq!(d.primal.to_bits(), fit(w, &xs, &ys).to_bits());
    assert!(close(d.tangent, want, 1e-13));
}
