//! Ninth hunt, guards of what the eleventh session added, written as users write them:
//! lists of closures walked by chains (`zip` with fewer or more weights, on either side,
//! `enumerate`, `move` captures changed or shadowed after the list is written);
//! extension traits on `[f64]`, `[f64; 3]` and `Vec<f64>` with `&mut self` methods
//! (normalised halves from `split_at_mut`, an in-place softmax on a caller's buffer, rows of
//! a `Vec<Vec<f64>>`, rotations of an array parameter, features pushed to a `Vec`); a
//! double integral through a quadrature trait's closure-taking method; a Newton solver
//! keeping its iteration count in `&mut self`; stateful stages from a `Box<dyn Stage>`
//! factory over a `Copy` enum. Each in one direction, batches of 1 to 16 lanes and second
//! order against central differences or closed forms, primals bit for bit.
//!
//! Found: a compile error for code that should work, a chain over a list of closures with
//! the list on the right of `zip` (`w.iter().zip(&feats).map(|(wi, f)| wi * f(t)).sum()`),
//! which only a `for` loop could walk so (`long_weights`).
#![allow(
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::type_complexity,
    clippy::let_and_return
)]
use fwdad::drivers::{bind, jvp, Var, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::{check_in_place, same};

// ---------------------------------------------------------------------------------------
// Lists of closures.

/// Three features but two weights: `zip` stops at the shorter side.
#[derive_frule]
pub fn short_weights(p: &[f64]) -> f64 {
    let s = p[0];
    let feats: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(move |t| (s * t).sin()),
        Box::new(move |t| (s + t).exp()),
        Box::new(|t| t * t),
    ];
    let w = [p[1], p[2]];
    feats.iter().zip(&w).map(|(f, wi)| wi * f(p[3])).sum()
}

/// Four weights, three features, the weights first.
#[derive_frule]
pub fn long_weights(p: &[f64]) -> f64 {
    let s = p[0];
    let feats: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(move |t| (s * t).sin()),
        Box::new(move |t| (s + t).exp()),
        Box::new(|t| t * t),
    ];
    let w = [p[1], p[2], p[3], 100.0];
    w.iter()
        .zip(&feats)
        .map(|(wi, f)| wi * f(p[4]))
        .sum::<f64>()
}

/// Features numbered by `enumerate` in the chain.
#[derive_frule]
pub fn numbered_features(p: &[f64]) -> f64 {
    let s = p[0];
    let feats: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(move |t| (s * t).sin()),
        Box::new(move |t| (s - t).powi(2)),
    ];
    feats
        .iter()
        .enumerate()
        .map(|(k, f)| (k as f64 + 1.0) * f(p[1]))
        .sum::<f64>()
}

/// `move` closures keep the value they captured, though the variable changes after.
#[derive_frule]
pub fn captured_then_changed(p: &[f64]) -> f64 {
    let mut a = p[0];
    let fs = [
        Box::new(move |t: f64| a * t) as Box<dyn Fn(f64) -> f64>,
        Box::new(move |t: f64| t + a),
    ];
    a = a * 3.0 + p[1];
    let y: f64 = fs.iter().map(|f| f(p[1])).product();
    y + a
}

/// A closure's captured name shadowed after the list is written.
#[derive_frule]
pub fn captured_then_shadowed(p: &[f64]) -> f64 {
    let a = p[0];
    let fs: Vec<Box<dyn Fn(f64) -> f64>> = vec![Box::new(move |t| a * t), Box::new(move |t| a - t)];
    let a = 10.0 * p[1];
    let ys: Vec<f64> = fs.iter().map(|f| f(a)).collect();
    ys[0] * ys[1] + a
}

// ---------------------------------------------------------------------------------------
// Extension traits with `&mut self` methods.

#[derive_frule]
pub trait InPlace {
    fn normalize(&mut self) -> f64;
    fn axpy(&mut self, a: f64, x: &[f64]);
    fn softmax_inplace(&mut self);
}

#[derive_frule]
impl InPlace for [f64] {
    fn normalize(&mut self) -> f64 {
        let n = self.iter().map(|v| v * v).sum::<f64>().sqrt();
        for v in self.iter_mut() {
            *v /= n;
        }
        n
    }
    fn axpy(&mut self, a: f64, x: &[f64]) {
        for (s, xi) in self.iter_mut().zip(x) {
            *s += a * xi;
        }
    }
    fn softmax_inplace(&mut self) {
        let m = self.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut z = 0.0;
        for v in self.iter_mut() {
            *v = (*v - m).exp();
            z += *v;
        }
        for v in self.iter_mut() {
            *v /= z;
        }
    }
}

/// The tail of a local `Vec` normalised in place, through `split_at_mut`.
#[derive_frule]
pub fn tail_normalized(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let (_, tail) = v.split_at_mut(1);
    let n = tail.normalize();
    v[0] * v[1] + v[2] * n + v[3]
}

/// A softmax written into the caller's buffer.
#[derive_frule]
pub fn softmax_out(x: &[f64], out: &mut [f64]) {
    out.copy_from_slice(x);
    out.softmax_inplace();
}

/// A buffer updated in place by the extension method.
#[derive_frule]
pub fn softmax_here(v: &mut [f64]) {
    v.softmax_inplace();
    let head = v[0];
    v.axpy(head, &[1.0, 2.0, 3.0, 4.0, 5.0]);
}

/// An array local updated by `axpy`, then normalised.
#[derive_frule]
pub fn array_axpy(x: &[f64]) -> f64 {
    let mut a = [x[0], x[1], x[2]];
    a.axpy(x[3], &x[1..]);
    let n = a.normalize();
    n + a[0] - a[2] * a[1]
}

/// Rows of a `Vec<Vec<f64>>` each turned into probabilities.
#[derive_frule]
pub fn row_softmax(x: &[f64]) -> f64 {
    let mut rows: Vec<Vec<f64>> = x.chunks(3).map(|c| c.to_vec()).collect();
    for r in rows.iter_mut() {
        r.softmax_inplace();
    }
    let mut s = 0.0;
    for (i, r) in rows.iter().enumerate() {
        s += r[i % 3] * (i as f64 + 1.0);
    }
    s
}

/// Both halves of a buffer normalised through `split_at_mut`.
#[derive_frule]
pub fn halves_normalized(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let (a, b) = v.split_at_mut(2);
    let na = a.normalize();
    let nb = b.normalize();
    v[0] * na + v[3] * nb + v[1] * v[2]
}

/// An array helper rotating in place.
#[derive_frule]
pub trait Rot {
    fn rotate_z(&mut self, th: f64);
}

#[derive_frule]
impl Rot for [f64; 3] {
    fn rotate_z(&mut self, th: f64) {
        let (s, c) = th.sin_cos();
        let x = self[0];
        self[0] = c * x - s * self[1];
        self[1] = s * x + c * self[1];
    }
}

/// Two rotations of a point, one of a parameter array.
#[derive_frule]
pub fn rotated_twice(q: &[f64]) -> f64 {
    let mut p = [q[0], q[1], q[2]];
    p.rotate_z(q[3]);
    p.rotate_z(0.5 * q[3]);
    p[0] * 2.0 + p[1] * p[2]
}

#[derive_frule]
pub fn rotate_param(p: &mut [f64; 3], th: f64) {
    p.rotate_z(th);
    p[2] += p[0] * p[1];
}

/// A `Vec` extension that pushes.
#[derive_frule]
pub trait Features {
    fn push_poly(&mut self, t: f64, deg: usize);
}

#[derive_frule]
impl Features for Vec<f64> {
    fn push_poly(&mut self, t: f64, deg: usize) {
        let mut p = 1.0;
        for _ in 0..deg {
            p *= t;
            self.push(p);
        }
    }
}

#[derive_frule]
pub fn poly_features(x: &[f64]) -> f64 {
    let mut phi = Vec::new();
    phi.push_poly(x[0], 3);
    phi.push_poly(x[1], 2);
    phi.iter().zip(&x[2..]).map(|(a, b)| a * b).sum()
}

// ---------------------------------------------------------------------------------------
// Closures through a type parameter.

#[derive_frule]
pub trait Quad {
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Mid {
    pub n: usize,
}

#[derive_frule]
impl Quad for Mid {
    fn integrate<F: Fn(f64) -> f64>(&self, f: F, a: f64, b: f64) -> f64 {
        let h = (b - a) / self.n as f64;
        let mut s = 0.0;
        for i in 0..self.n {
            s += f(a + (i as f64 + 0.5) * h);
        }
        s * h
    }
}

/// A double integral: the inner integral inside the outer integrand.
#[derive_frule]
fn double_area<Q: Quad>(q: &Q, k: f64) -> f64 {
    q.integrate(|y| q.integrate(|x| (k * x * y).sin(), 0.0, 1.0), 0.0, 1.0)
}

/// A Newton solver that keeps its iteration count.
#[derive(Clone, Debug, Differentiable)]
pub struct Newton {
    pub iters: usize,
    pub tol: f64,
}

#[derive_frule]
impl Newton {
    fn solve<F: Fn(f64) -> f64, G: Fn(f64) -> f64>(&mut self, f: F, df: G, x0: f64) -> f64 {
        let mut x = x0;
        self.iters = 0;
        for _ in 0..50 {
            let step = f(x) / df(x);
            x -= step;
            self.iters += 1;
            if step.abs() < self.tol {
                break;
            }
        }
        x
    }
}

/// The root of `x³ + a x − b`.
#[derive_frule]
pub fn cubic_root(p: &[f64]) -> f64 {
    let mut s = Newton {
        iters: 0,
        tol: 1e-15,
    };
    let (a, b) = (p[0], p[1]);
    let r = s.solve(|x| x * x * x + a * x - b, |x| 3.0 * x * x + a, 1.0);
    r + 1e-3 * s.iters as f64
}

// ---------------------------------------------------------------------------------------
// A factory of boxed trait objects with state.

#[derive_frule]
pub trait Stage {
    fn step(&mut self, u: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Lag {
    pub y: f64,
    pub a: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Gain {
    pub k: f64,
}

#[derive_frule]
impl Stage for Lag {
    fn step(&mut self, u: f64) -> f64 {
        self.y += self.a * (u - self.y);
        self.y
    }
}

#[derive_frule]
impl Stage for Gain {
    fn step(&mut self, u: f64) -> f64 {
        self.k * u.tanh()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub enum Kind {
    Lag,
    Gain,
}

#[derive_frule]
pub fn make_stage(kind: Kind, p: f64) -> Box<dyn Stage> {
    match kind {
        Kind::Lag => Box::new(Lag { y: 0.0, a: p }),
        Kind::Gain => Box::new(Gain { k: p }),
    }
}

/// A chain of stages from a description, run over a signal.
#[derive_frule]
pub fn run_chain(p: &[f64], u: &[f64]) -> f64 {
    let kinds = [Kind::Lag, Kind::Gain, Kind::Lag];
    let mut stages: Vec<Box<dyn Stage>> = kinds
        .iter()
        .zip(p)
        .map(|(k, v)| make_stage(*k, *v))
        .collect();
    let mut out = 0.0;
    for &ut in u {
        let mut v = ut;
        for s in stages.iter_mut() {
            v = s.step(v);
        }
        out += v * v;
    }
    out
}

// ---------------------------------------------------------------------------------------

#[test]
fn zip_of_closures_with_fewer_weights() {
    let p = [0.7, 0.4, -0.3, 0.9];
    check_widths!(short_weights {}, short_weights, p);
    let want = 0.4 * (0.7f64 * 0.9).sin() - 0.3 * (0.7f64 + 0.9).exp();
    assert!((short_weights(&p) - want).abs() < 1e-15);
}

#[test]
fn zip_of_closures_with_more_weights() {
    check_widths!(long_weights {}, long_weights, [0.7, 0.4, -0.3, 0.9, 0.6]);
}

#[test]
fn closures_numbered() {
    check_widths!(numbered_features {}, numbered_features, [0.7, 0.4]);
}

#[test]
fn closures_keep_their_captures() {
    let p = [0.7, 0.4];
    let want = (0.7 * 0.4) * (0.4 + 0.7) + (0.7 * 3.0 + 0.4);
    assert!((captured_then_changed(&p) - want).abs() < 1e-15);
    check_widths!(captured_then_changed {}, captured_then_changed, p);
    check_widths!(captured_then_shadowed {}, captured_then_shadowed, p);
}

#[test]
fn extension_mut_self() {
    check_widths!(tail_normalized {}, tail_normalized, [0.7, 0.4, -0.3, 0.9]);
    check_widths!(array_axpy {}, array_axpy, [0.7, 0.4, -0.3, 0.9]);
    check_widths!(row_softmax {}, row_softmax, [0.7, 0.4, -0.3, 0.9, 0.1, 0.5]);
    check_widths!(
        halves_normalized {},
        halves_normalized,
        [0.7, 0.4, -0.3, 0.9]
    );
    check_widths!(rotated_twice {}, rotated_twice, [0.7, 0.4, -0.3, 0.9]);
    check_widths!(
        poly_features {},
        poly_features,
        [0.7, 0.4, -0.3, 0.9, 0.2, 1.1, 0.5]
    );
}

#[test]
fn extension_mut_self_buffers() {
    let x = [0.7, 0.4, -0.3, 0.9];
    for k in 0..4 {
        let mut out = [0.0; 4];
        let mut dout = [0.0; 4];
        let mut dx = [0.0; 4];
        dx[k] = 1.0;
        softmax_out_frule(
            fwdad::Dual::new(&x[..], &dx[..]),
            fwdad::Dual::new(&mut out[..], &mut dout[..]),
        );
        let mut want = [0.0; 4];
        softmax_out(&x, &mut want);
        let h = 1e-6;
        let (mut xp, mut xm) = (x, x);
        xp[k] += h;
        xm[k] -= h;
        let (mut op, mut om) = ([0.0; 4], [0.0; 4]);
        softmax_out(&xp, &mut op);
        softmax_out(&xm, &mut om);
        for i in 0..4 {
            assert_eq!(out[i].to_bits(), want[i].to_bits());
            assert_close(dout[i], (op[i] - om[i]) / (2.0 * h), 1e-6, "softmax_out");
        }
    }
    check_in_place(
        |v, dv| {
            softmax_here_frule(fwdad::Dual::new(v, dv));
        },
        softmax_here,
        &[0.7, 0.4, -0.3, 0.9, 0.1],
    );
}

#[test]
fn extension_on_array_param() {
    let p0 = [0.7, 0.4, -0.3];
    let th = 0.6;
    for k in 0..4 {
        let mut p = p0;
        let mut dp = [0.0; 3];
        let mut dth = 0.0;
        if k < 3 {
            dp[k] = 1.0;
        } else {
            dth = 1.0;
        }
        rotate_param_frule(fwdad::Dual::new(&mut p, &mut dp), fwdad::Dual::new(th, dth));
        let mut want = p0;
        rotate_param(&mut want, th);
        let h = 1e-6;
        let f = |e: f64| {
            let mut q = p0;
            let mut t = th;
            if k < 3 {
                q[k] += e;
            } else {
                t += e;
            }
            rotate_param(&mut q, t);
            q
        };
        let (a, b) = (f(h), f(-h));
        for i in 0..3 {
            assert_eq!(p[i].to_bits(), want[i].to_bits());
            assert_close(dp[i], (a[i] - b[i]) / (2.0 * h), 1e-6, "rotate_param");
        }
    }
}

#[test]
fn double_integral_through_a_type_parameter() {
    let q = Mid { n: 40 };
    check_widths!(
        bind(double_area {}, (&q, Var(0))),
        |x: &[f64]| double_area(&q, x[0]),
        [1.3]
    );
}

#[test]
fn newton_with_state() {
    check_widths!(cubic_root {}, cubic_root, [0.7, 2.0]);
    // Implicit: r³ + a r − b = 0, dr/db = 1/(3r² + a), dr/da = −r/(3r² + a).
    let p = [0.7, 2.0];
    let (_, g) = gradient(cubic_root {}, &p[..]);
    let mut s = Newton {
        iters: 0,
        tol: 1e-15,
    };
    let root = s.solve(|x| x * x * x + 0.7 * x - 2.0, |x| 3.0 * x * x + 0.7, 1.0);
    assert_close(g[1], 1.0 / (3.0 * root * root + 0.7), 1e-12, "dr/db");
    assert_close(g[0], -root / (3.0 * root * root + 0.7), 1e-12, "dr/da");
}

#[test]
fn stages_from_a_factory() {
    let u = [0.5, 1.0, -0.3, 0.8];
    check_widths!(
        bind(run_chain {}, (Wrt, &u[..])),
        |p: &[f64]| run_chain(p, &u),
        [0.4, 1.5, 0.6]
    );
}
