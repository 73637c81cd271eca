//! Walls users hit in ordinary numeric code, each annotated as written: float methods that
//! had no rule (`round_ties_even`, `midpoint`, the deprecated `abs_sub`) and float queries
//! (`is_subnormal`, `classify`, `to_bits`), a pooling layer flattened with `flat_map` over
//! rows borrowed twice (`Vec<&[f64]>`, `&Vec<f64>`), the user's `impl Sum` and `impl
//! Product` (over values and references) behind `it.sum::<Vec3>()` and
//! `it.product::<Abcd>()`, `peekable()` read by `next()` and `peek()` (a piecewise
//! integrator and a run detector, as tokenizers write them). Each is checked against
//! central differences in every mode (`check_modes!`, primals bit for bit) and against
//! closed forms where there is one.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::iter::{Product, Sum};
use std::ops::{Add, Mul};

// ---------------------------------------------------------------------------------------
// Float methods: `round_ties_even`, `midpoint`, `abs_sub`.

/// A quantisation residual on a grid of step `h` (banker's rounding, as an encoder writes
/// it), a midpoint between two readings, and a one-sided excess (C's `fdim`).
#[derive_frule]
#[allow(deprecated, clippy::incompatible_msrv)] // `abs_sub` and `midpoint` as users write them
fn quantised_energy(x: &[f64]) -> f64 {
    let h = 0.25;
    let centre = (x[0] / h).round_ties_even() * h;
    let mid = x[1].midpoint(x[2]);
    let excess = x[2].abs_sub(x[0]);
    let clipped = f64::abs_sub(x[0], x[2]);
    (x[0] - centre).powi(2) + mid * mid.sin() + excess * x[1] + clipped
}

#[test]
#[allow(clippy::incompatible_msrv)]
fn float_methods_without_rules_before() {
    let x = [0.61, 1.3, 2.2];
    check_modes!(quantised_energy {}, quantised_energy, x);
    // Closed form: centre = 0.5 (0.61 / 0.25 = 2.44 rounds to 2), mid = (x1 + x2)/2,
    // excess = x2 - x0 (x2 > x0), clipped = 0.
    let (_, g) = gradient(quantised_energy {}, &x);
    let mid = 0.5 * (x[1] + x[2]);
    let dmid = 0.5 * (mid.sin() + mid * mid.cos());
    assert_close(g[0], 2.0 * (x[0] - 0.5) - x[1], 1e-12, "d/dx0");
    assert_close(g[1], dmid + (x[2] - x[0]), 1e-12, "d/dx1");
    assert_close(g[2], dmid + x[1], 1e-12, "d/dx2");
    // At a tie, 0.625 / 0.25 = 2.5 rounds to 2 (`round` would give 3): the centre is 0.5.
    let x = [0.625, 1.0, 2.0];
    let (v, g) = gradient(quantised_energy {}, &x);
    assert_eq!(v.to_bits(), quantised_energy(&x).to_bits());
    assert_close(g[0], 2.0 * (x[0] - 0.5) - x[1], 1e-12, "d/dx0 at a tie");
}

/// Queries of a float's representation branch on the primal only.
#[derive_frule]
fn guarded_log(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        let tiny = v.is_subnormal() || v.classify() == std::num::FpCategory::Zero;
        let negative = v.to_bits() >> 63 == 1;
        s += if tiny || negative { v } else { v.ln() * v };
    }
    s
}

#[test]
fn float_queries_read_the_primal() {
    let x = [0.5, -1.5, 2.0];
    check_modes!(guarded_log {}, guarded_log, x);
    let (_, g) = gradient(guarded_log {}, &x);
    assert_close(g[0], x[0].ln() + 1.0, 1e-12, "d/dx0");
    assert_close(g[1], 1.0, 1e-12, "d/dx1");
    assert_close(g[2], x[2].ln() + 1.0, 1e-12, "d/dx2");
}

// ---------------------------------------------------------------------------------------
// A pooling layer: `flat_map` over rows borrowed twice.

/// Max-pooling of one channel in windows of `k`.
#[derive_frule]
fn max_pool(ch: &[f64], k: usize) -> Vec<f64> {
    ch.chunks(k)
        .map(|w| w.iter().copied().fold(f64::NEG_INFINITY, f64::max))
        .collect()
}

/// Channels of four as borrowed rows, pooled by two, then a squared readout.
#[derive_frule]
fn pooled_rows(x: &[f64]) -> f64 {
    let chans: Vec<&[f64]> = x.chunks(4).collect();
    let pooled: Vec<f64> = chans.iter().flat_map(|ch| max_pool(ch, 2)).collect();
    pooled
        .iter()
        .enumerate()
        .map(|(i, v)| (i as f64 + 1.0) * v * v)
        .sum()
}

/// The same with owned channels, each lent by `&ch` (a `&&Vec<f64>`).
#[derive_frule]
#[allow(clippy::needless_borrow)] // as users write it
fn pooled_owned(x: &[f64]) -> f64 {
    let chans: Vec<Vec<f64>> = x
        .chunks(4)
        .map(|c| c.iter().map(|v| v.tanh()).collect())
        .collect();
    let pooled: Vec<f64> = chans.iter().flat_map(|ch| max_pool(&ch, 2)).collect();
    pooled.iter().sum()
}

#[test]
fn flat_map_over_borrowed_rows() {
    // Each window's maximum is unique: x1, x3, x4, x7.
    let x = [0.1, 0.9, -0.4, 0.3, 1.2, 0.2, -0.5, 0.7];
    check_modes!(pooled_rows {}, pooled_rows, x);
    check_modes!(pooled_owned {}, pooled_owned, x);
    // Closed forms: d/dx of sum_k (k + 1) m_k^2 is 2 (k + 1) m_k at each window's maximum;
    // of sum tanh(m_k), 1 - tanh^2 there.
    let (_, g) = gradient(pooled_rows {}, &x);
    let mut want = [0.0; 8];
    for (k, &i) in [1, 3, 4, 7].iter().enumerate() {
        want[i] = 2.0 * (k as f64 + 1.0) * x[i];
    }
    for i in 0..8 {
        assert_close(g[i], want[i], 1e-12, &format!("pooled_rows d/dx{i}"));
    }
    let (_, g) = gradient(pooled_owned {}, &x);
    for i in 0..8 {
        let w = if [1, 3, 4, 7].contains(&i) {
            1.0 - x[i].tanh().powi(2)
        } else {
            0.0
        };
        assert_close(g[i], w, 1e-12, &format!("pooled_owned d/dx{i}"));
    }
}

// ---------------------------------------------------------------------------------------
// The user's `Sum` and `Product` impls, taking iterators.

#[derive(Clone, Copy, Debug, Default, PartialEq, Differentiable)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

#[derive_frule]
impl Vec3 {
    pub fn zero() -> Vec3 {
        Vec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        }
    }
}

#[derive_frule]
impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

#[derive_frule]
impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f64) -> Vec3 {
        Vec3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

#[derive_frule]
impl Sum for Vec3 {
    fn sum<I: Iterator<Item = Vec3>>(iter: I) -> Vec3 {
        iter.fold(Vec3::zero(), |a, b| a + b)
    }
}

#[derive_frule]
impl<'a> Sum<&'a Vec3> for Vec3 {
    fn sum<I: Iterator<Item = &'a Vec3>>(iter: I) -> Vec3 {
        iter.fold(Vec3::zero(), |a, b| a + *b)
    }
}

#[derive(Clone, Copy, Differentiable)]
pub struct Body {
    pub pos: Vec3,
    pub m: f64,
}

/// The height of the centre of mass of bodies at `(a, a·m, sin m)` of mass `m`, one per
/// pair `(a, m)` of the inputs.
#[derive_frule]
fn com_height(x: &[f64]) -> f64 {
    let bodies: Vec<Body> = x
        .chunks(2)
        .map(|c| Body {
            pos: Vec3 {
                x: c[0],
                y: c[0] * c[1],
                z: c[1].sin(),
            },
            m: c[1],
        })
        .collect();
    let com: Vec3 = bodies.iter().map(|b| b.pos * b.m).sum();
    let m: f64 = bodies.iter().map(|b| b.m).sum();
    (com.y + com.z) / m
}

/// The resultant of forces over references (`impl Sum<&Vec3>`), all of them and those
/// pointing up.
#[derive_frule]
fn resultant(x: &[f64]) -> f64 {
    let forces: Vec<Vec3> = x
        .iter()
        .map(|&t| Vec3 {
            x: t.cos(),
            y: t.sin(),
            z: t * t,
        })
        .collect();
    let all = forces.iter().sum::<Vec3>();
    let up: Vec3 = forces.iter().filter(|f| f.y > 0.0).sum();
    all.x * all.y + up.z
}

#[test]
fn user_sum_impls() {
    let x = [0.3, 1.2, -0.7, 0.8, 1.1, 2.0];
    check_modes!(com_height {}, com_height, x);
    // N / M with N = sum m (a m + sin m), M = sum m.
    let (big_n, big_m): (f64, f64) = x.chunks(2).fold((0.0, 0.0), |(n, m), c| {
        (n + c[1] * (c[0] * c[1] + c[1].sin()), m + c[1])
    });
    let (_, g) = gradient(com_height {}, &x);
    for (k, c) in x.chunks(2).enumerate() {
        let (a, m) = (c[0], c[1]);
        assert_close(g[2 * k], m * m / big_m, 1e-12, "d/da");
        let dn = 2.0 * a * m + m.sin() + m * m.cos();
        assert_close(
            g[2 * k + 1],
            (dn * big_m - big_n) / (big_m * big_m),
            1e-12,
            "d/dm",
        );
    }
    let t = [0.4, 2.0, -0.5, 1.3];
    check_modes!(resultant {}, resultant, t);
    // all = (sum cos, sum sin, .), up.z = sum of t² over sin t > 0.
    let (sc, ss): (f64, f64) = (
        t.iter().map(|v| v.cos()).sum(),
        t.iter().map(|v| v.sin()).sum(),
    );
    let (_, g) = gradient(resultant {}, &t);
    for (k, &v) in t.iter().enumerate() {
        let up = if v.sin() > 0.0 { 2.0 * v } else { 0.0 };
        assert_close(g[k], -v.sin() * ss + sc * v.cos() + up, 1e-12, "d/dt");
    }
}

/// A generic vector whose `Sum` accumulates in a loop.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct V2<T> {
    pub x: T,
    pub y: T,
}

#[derive_frule]
impl<T: num_traits::Float> Add for V2<T> {
    type Output = V2<T>;
    fn add(self, o: V2<T>) -> V2<T> {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

#[derive_frule]
impl<T: num_traits::Float> Sum for V2<T> {
    fn sum<I: Iterator<Item = V2<T>>>(iter: I) -> V2<T> {
        let mut acc = V2 {
            x: T::zero(),
            y: T::zero(),
        };
        for v in iter {
            acc = acc + v;
        }
        acc
    }
}

/// `(sum p)·(sum p²)` through the generic vector's `Sum`.
#[derive_frule]
fn moments(p: &[f64]) -> f64 {
    let c: V2<f64> = p.iter().map(|&x| V2 { x, y: x * x }).sum();
    c.x * c.y
}

#[test]
fn generic_sum_impl() {
    let p = [1.0, -0.5, 2.0];
    check_modes!(moments {}, moments, p);
    let (s1, s2): (f64, f64) = (p.iter().sum(), p.iter().map(|v| v * v).sum());
    let (_, g) = gradient(moments {}, &p);
    for k in 0..3 {
        assert_close(g[k], s2 + s1 * 2.0 * p[k], 1e-12, "d/dp");
    }
}

/// A ray-transfer (ABCD) matrix of paraxial optics.
#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub struct Abcd {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
}

#[derive_frule]
impl Abcd {
    pub fn identity() -> Abcd {
        Abcd {
            a: 1.0,
            b: 0.0,
            c: 0.0,
            d: 1.0,
        }
    }
    pub fn lens(f: f64) -> Abcd {
        Abcd {
            a: 1.0,
            b: 0.0,
            c: -1.0 / f,
            d: 1.0,
        }
    }
    pub fn gap(d: f64) -> Abcd {
        Abcd {
            a: 1.0,
            b: d,
            c: 0.0,
            d: 1.0,
        }
    }
}

#[derive_frule]
impl Mul for Abcd {
    type Output = Abcd;
    fn mul(self, o: Abcd) -> Abcd {
        Abcd {
            a: self.a * o.a + self.b * o.c,
            b: self.a * o.b + self.b * o.d,
            c: self.c * o.a + self.d * o.c,
            d: self.c * o.b + self.d * o.d,
        }
    }
}

#[derive_frule]
impl Product for Abcd {
    fn product<I: Iterator<Item = Abcd>>(iter: I) -> Abcd {
        iter.fold(Abcd::identity(), |m, e| m * e)
    }
}

#[derive_frule]
impl<'a> Product<&'a Abcd> for Abcd {
    fn product<I: Iterator<Item = &'a Abcd>>(iter: I) -> Abcd {
        iter.fold(Abcd::identity(), |m, e| m * *e)
    }
}

/// The effective focal length of two thin lenses `f1`, `f2` a distance `d` apart, from the
/// system's matrix (the last element first, as light meets them in reverse order).
#[derive_frule]
fn focal_length(x: &[f64]) -> f64 {
    let (f1, d, f2) = (x[0], x[1], x[2]);
    let elements = [Abcd::lens(f2), Abcd::gap(d), Abcd::lens(f1)];
    let system: Abcd = elements.iter().product();
    let again = elements.iter().copied().product::<Abcd>();
    -0.5 / system.c - 0.5 / again.c
}

#[test]
fn user_product_impls() {
    let x = [0.5, 0.2, -0.8];
    check_modes!(focal_length {}, focal_length, x);
    // 1/f = 1/f1 + 1/f2 - d/(f1 f2).
    let (f1, d, f2) = (x[0], x[1], x[2]);
    let phi = 1.0 / f1 + 1.0 / f2 - d / (f1 * f2);
    let dphi = [
        -1.0 / (f1 * f1) + d / (f1 * f1 * f2),
        -1.0 / (f1 * f2),
        -1.0 / (f2 * f2) + d / (f1 * f2 * f2),
    ];
    let (v, g) = gradient(focal_length {}, &x);
    assert_close(v, 1.0 / phi, 1e-12, "f");
    for k in 0..3 {
        assert_close(g[k], -dphi[k] / (phi * phi), 1e-12, "d/dx");
    }
}

// ---------------------------------------------------------------------------------------
// `peekable()`: `next()` and `peek()` as a tokenizer writes them.

/// The trapezoidal integral over knots `t` (the first half of `x`) of values `y` (the
/// second half), walking the knots with a lookahead.
#[derive_frule]
fn piecewise_integral(x: &[f64]) -> f64 {
    let (t, y) = x.split_at(x.len() / 2);
    let mut knots = t.iter().peekable();
    let mut k = 0;
    let mut area = 0.0;
    while let Some(t0) = knots.next() {
        if let Some(&t1) = knots.peek() {
            area += 0.5 * (y[k] + y[k + 1]) * (t1 - t0);
        }
        k += 1;
    }
    area
}

/// Squares weighted double where the next value has the same sign (a run), over copied
/// items and over references (`Some(&&next)`).
#[derive_frule]
fn run_weighted(x: &[f64]) -> f64 {
    let mut it = x.iter().copied().peekable();
    let mut total = 0.0;
    while let Some(v) = it.next() {
        let w = match it.peek() {
            Some(&next) if next * v > 0.0 => 2.0,
            _ => 1.0,
        };
        total += w * v * v;
    }
    let mut refs = x.iter().peekable();
    while let Some(&v) = refs.next() {
        if let Some(&&next) = refs.peek() {
            total += v * next;
        }
    }
    total
}

#[test]
fn peekable_next_and_peek() {
    let x = [0.0, 0.4, 1.1, 2.0, 1.0, 3.0, 2.5, 0.5];
    check_modes!(piecewise_integral {}, piecewise_integral, x);
    let (t, y) = x.split_at(4);
    let (_, g) = gradient(piecewise_integral {}, &x);
    for k in 0..4 {
        let (dt_left, dt_right) = (
            if k > 0 { t[k] - t[k - 1] } else { 0.0 },
            if k < 3 { t[k + 1] - t[k] } else { 0.0 },
        );
        let (y_left, y_right) = (
            if k > 0 { y[k - 1] + y[k] } else { 0.0 },
            if k < 3 { y[k] + y[k + 1] } else { 0.0 },
        );
        assert_close(g[k], 0.5 * (y_left - y_right), 1e-12, "d/dt");
        assert_close(g[4 + k], 0.5 * (dt_left + dt_right), 1e-12, "d/dy");
    }
    let x = [0.5, 1.5, -0.7, -0.2, 0.9];
    check_modes!(run_weighted {}, run_weighted, x);
    // Weights 2, 1, 2, 1, 1 (runs end at x1 and x3), plus the products of neighbours.
    let w = [2.0, 1.0, 2.0, 1.0, 1.0];
    let (_, g) = gradient(run_weighted {}, &x);
    for k in 0..5 {
        let left = if k > 0 { x[k - 1] } else { 0.0 };
        let right = if k < 4 { x[k + 1] } else { 0.0 };
        assert_close(g[k], 2.0 * w[k] * x[k] + left + right, 1e-12, "d/dx");
    }
}
