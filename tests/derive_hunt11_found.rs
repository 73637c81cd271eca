//! Eleventh hunt for wrong primals and derivatives.
//!
//! Found:
//! - A wrong derivative: trait objects built by a plain function and moved into a derived
//!   function that takes them by value (`settle(scene(), g, dt)` with `fn settle(mut
//!   bodies: Vec<Box<dyn Body>>, ..)`), called inside a derived function that keeps the
//!   tangents of passed-in objects (one with a `&mut [Box<dyn Body>]` parameter). The
//!   `&mut self` calls through `dyn` kept what they stored beside the objects in the
//!   caller's scope, keyed by address; the objects died with the call, and the next
//!   `settle(scene(), ..)`'s objects, allocated at the same addresses, started from those
//!   tangents (`outer_moved`: d/dg 27606.26 against 27632.61). Now such a function opens
//!   a `DynOwned` guard, itself a scope: alone (no scope open on entry) the lanes are
//!   dropped with it and the derivative is right (`settle_of`, every mode; it panicked
//!   before, as a `&mut self` call on a constant object outside any scope); inside a scope
//!   a lane made for such an object panics, saying to build the objects in the
//!   differentiated function or pass them `&mut`.
//!
//! - A wrong derivative: a body of a `&mut Vec<Box<dyn Body>>` parameter replaced by one a
//!   plain function built (`bodies[i] = fresh_ball();`, `*last = fresh_ball();`): the old
//!   object's tangent, kept beside it by address, was found by the new one, allocated
//!   where the old one was (`respawn_plain`: d/dg 3.8342 against 3.9323). Now a store
//!   into a place of a parameter whose type holds trait objects first drops the lanes of
//!   the box (or `Vec` of boxes) it overwrites (`fwdad_runtime::traits::Forget`).
//!
//! The other functions are guards that passed, written as users write them, each in one
//! direction, batches of 1 to 16 lanes and second order against central differences or
//! closed forms, primals bit for bit: a library scene stepped directly through `dyn` in a
//! derived helper (the `DynLend` guard panics, as it should); `Option` locals' `take()`
//! and `replace(v)` (of floats and of a user struct), and a `match best.take()`; plain
//! integers to `_frule` (`i32`, `usize`, `i64`, negative); arrays of derived function
//! items and of `std` float functions walked in loops; `step_by` and `rev` cursors,
//! `chunks_exact` with its `remainder()`; `tuple_windows` (pairs and triples) after
//! `map`; closures calling a function value passed on to a generic quadrature; generic
//! `T: Float` code; operators on a user type's values a file function returned inside
//! RK4; a generic trait implemented at concrete arguments for two distributions.
#![allow(
    clippy::vec_box,
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::useless_vec,
    clippy::needless_borrows_for_generic_args
)]
use fwdad::drivers::jvp;
use fwdad::prelude::*;
use itertools::Itertools;
use num_traits::Float;
use std::ops::{Add, Mul, Sub};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

#[derive_frule]
pub trait Body {
    fn update(&mut self, dt: f64, g: f64);
    fn energy(&self, g: f64) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub h: f64,
    pub v: f64,
    pub m: f64,
}

#[derive_frule]
impl Body for Ball {
    fn update(&mut self, dt: f64, g: f64) {
        self.v -= g * dt;
        self.h += self.v * dt;
    }
    fn energy(&self, g: f64) -> f64 {
        self.m * (g * self.h + 0.5 * self.v * self.v)
    }
}

pub fn scene() -> Vec<Box<dyn Body>> {
    vec![
        Box::new(Ball {
            h: 10.0,
            v: 1.0,
            m: 2.0,
        }),
        Box::new(Ball {
            h: 4.0,
            v: -0.5,
            m: 0.5,
        }),
    ]
}

#[derive_frule]
pub fn step_all(bodies: &mut [Box<dyn Body>], dt: f64, g: f64) {
    for b in bodies.iter_mut() {
        b.update(dt, g);
    }
}

/// A library scene stepped in the body itself, directly through dyn.
#[derive_frule]
pub fn fresh_scene(g: f64, dt: f64) -> f64 {
    let mut bodies = scene();
    for b in bodies.iter_mut() {
        b.update(dt, g);
    }
    bodies[0].energy(g) + bodies[1].energy(g)
}

/// Bodies passed in, and a fresh scene evaluated twice by a derived helper.
#[derive_frule]
pub fn outer(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64) -> f64 {
    step_all(bodies, dt, g);
    let a = fresh_scene(g, dt);
    let b = fresh_scene(2.0 * g, dt);
    a + b + bodies[0].energy(g)
}

/// Owned scene moved into a derived function.
#[derive_frule]
pub fn settle(mut bodies: Vec<Box<dyn Body>>, g: f64, dt: f64) -> f64 {
    for b in bodies.iter_mut() {
        b.update(dt, g);
    }
    bodies.iter().map(|b| b.energy(g)).sum()
}

#[derive_frule]
pub fn outer_moved(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64) -> f64 {
    step_all(bodies, dt, g);
    let a = settle(scene(), g, dt);
    let b = settle(scene(), 3.0 * g, dt);
    a * b + bodies[0].energy(g)
}

fn mk() -> Vec<Box<dyn Body>> {
    vec![Box::new(Ball {
        h: 1.0,
        v: 0.0,
        m: 1.0,
    })]
}

fn fd2(f: &dyn Fn(f64, f64) -> f64, a: f64, b: f64) -> [f64; 2] {
    let h = 1e-6;
    [
        (f(a + h, b) - f(a - h, b)) / (2.0 * h),
        (f(a, b + h) - f(a, b - h)) / (2.0 * h),
    ]
}

/// The moved scene's function on its own, from a derived function without a scope.
#[derive_frule]
pub fn settle_of(p: &[f64]) -> f64 {
    settle(scene(), p[0], p[1]) + settle(scene(), p[1], p[0])
}

/// A scene of two settled in one call, returning the objects: their derivative would be
/// lost with the result.
#[derive_frule]
pub fn settled(mut bodies: Vec<Box<dyn Body>>, g: f64, dt: f64) -> Vec<Box<dyn Body>> {
    for b in bodies.iter_mut() {
        b.update(dt, g);
    }
    bodies
}

/// A scene built in the derived function (its boxes carry the derivative) moved into
/// `settle` inside a scope: no lane is made, and nothing panics.
#[derive_frule]
pub fn outer_built(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64) -> f64 {
    step_all(bodies, dt, g);
    let mine: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: 3.0,
            v: 0.5,
            m: 1.0,
        }),
        Box::new(Ball {
            h: 1.0,
            v: -1.0,
            m: 0.5,
        }),
    ];
    let a = settle(mine, g, dt);
    a + bodies[0].energy(g)
}

fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let e = std::panic::catch_unwind(f).expect_err("a panic");
    match (e.downcast_ref::<String>(), e.downcast_ref::<&str>()) {
        (Some(s), _) => s.clone(),
        (_, Some(s)) => s.to_string(),
        _ => String::new(),
    }
}

#[test]
fn scene_moved_into_a_derived_function() {
    let (g, dt) = (9.81, 0.1);
    // Inside a scope (`outer_moved` takes bodies `&mut`): was d/dg 27606.26 against
    // 27632.61 of central differences; now a panic naming the way out.
    let want = "moved into a differentiated function";
    for s in [(1.0, 0.0), (0.0, 1.0)] {
        let msg = panic_message(move || {
            let mut b = mk();
            let mut t: Vec<Box<NoTangent>> = vec![Box::new(NoTangent)];
            outer_moved_frule(
                Dual::new(&mut b, &mut t),
                Dual::new(g, s.0),
                Dual::new(dt, s.1),
            );
        });
        assert!(msg.contains(want), "{msg}");
    }
    assert!(panic_message(|| {
        settled_frule(
            Dual::constant(scene()),
            Dual::new(g, 1.0),
            Dual::new(dt, 0.0),
        );
    })
    .contains(want));
    assert!(outer_moved(&mut mk(), g, dt).is_finite());
    // Objects built in the derived function, moved in: right inside the scope too.
    let plain = |g: f64, dt: f64| outer_built(&mut mk(), g, dt);
    let d = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let mut b = mk();
        let mut t: Vec<Box<NoTangent>> = vec![Box::new(NoTangent)];
        let y = outer_built_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, d[k], 1e-6, "built here, moved in");
    }
    // Alone: right, in every mode (was a panic: a `&mut self` call through `dyn` on a
    // constant object outside any scope).
    let plain = |g: f64, dt: f64| settle(scene(), g, dt);
    let d = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let y = settle_frule(
            Dual::constant(scene()),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, d[k], 1e-6, "settle alone");
    }
    check_widths!(settle_of {}, settle_of, [9.81, 0.1]);
    // Semi-implicit Euler, one step from (h₀, v₀): v₁ = v₀ − g dt, h₁ = h₀ + dt v₁, and
    // E = m (g h₁ + v₁²/2): dE/dg = m (h₁ − g dt² − v₁ dt).
    let mut de = 0.0;
    for (h0, v0, m) in [(10.0, 1.0, 2.0), (4.0, -0.5, 0.5)] {
        let v1: f64 = v0 - g * dt;
        let h1 = h0 + dt * v1;
        de += m * (h1 - g * dt * dt - v1 * dt);
    }
    let y = settle_frule(
        Dual::constant(scene()),
        Dual::new(g, 1.0),
        Dual::new(dt, 0.0),
    );
    assert_close(y.tangent, de, 1e-12, "dE/dg in closed form");
}

#[test]
fn library_scene_stepped_through_dyn_in_a_helper() {
    // The helper's own `DynLend` guard panics, alone and inside a scope.
    let want = "build the objects in the differentiated function";
    assert!(panic_message(|| {
        fresh_scene_frule(Dual::new(9.81, 1.0), Dual::new(0.1, 0.0));
    })
    .contains(want));
    assert!(panic_message(|| {
        let mut b = mk();
        let mut t: Vec<Box<NoTangent>> = vec![Box::new(NoTangent)];
        outer_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(9.81, 1.0),
            Dual::new(0.1, 0.0),
        );
    })
    .contains(want));
    assert!(outer(&mut mk(), 9.81, 0.1).is_finite());
}

/// A body of the library's, from a plain function.
pub fn fresh_ball() -> Box<dyn Body> {
    Box::new(Ball {
        h: 2.0,
        v: 0.0,
        m: 1.0,
    })
}

/// Bodies whose energy fell below a threshold are replaced by fresh ones from a plain
/// function, in place.
#[derive_frule]
pub fn respawn_plain(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64, steps: usize) -> f64 {
    let mut lost = 0.0;
    for _ in 0..steps {
        step_all(bodies, dt, g);
        for i in 0..bodies.len() {
            if bodies[i].energy(g) < 15.0 {
                lost += bodies[i].energy(g);
                bodies[i] = fresh_ball();
            }
        }
    }
    bodies.iter().map(|b| b.energy(g)).sum::<f64>() + lost
}

/// The same through a `&mut` to the element.
#[derive_frule]
pub fn respawn_deref(bodies: &mut [Box<dyn Body>], g: f64, dt: f64) -> f64 {
    let mut lost = 0.0;
    for _ in 0..6 {
        step_all(bodies, dt, g);
        let last = &mut bodies[1];
        if last.energy(g) < 15.0 {
            lost += last.energy(g);
            *last = fresh_ball();
        }
    }
    bodies[0].energy(g) + bodies[1].energy(g) + lost
}

fn mk2() -> Vec<Box<dyn Body>> {
    vec![
        Box::new(Ball {
            h: 1.0,
            v: 0.0,
            m: 1.0,
        }),
        Box::new(Ball {
            h: 0.3,
            v: 0.0,
            m: 2.0,
        }),
    ]
}

fn nt(n: usize) -> Vec<Box<NoTangent>> {
    (0..n).map(|_| Box::new(NoTangent)).collect()
}

#[test]
fn bodies_replaced_by_a_plain_functions() {
    // Was d/dg 3.8342 against 3.9323: the new body, allocated where the old one was,
    // started from the old one's tangent.
    let (g, dt) = (9.81, 0.1);
    let plain = |g: f64, dt: f64| respawn_plain(&mut mk2(), g, dt, 8);
    let want = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let (mut b, mut t) = (mk2(), nt(2));
        let y = respawn_plain_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
            8,
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, want[k], 1e-6, &format!("respawn {k}"));
    }
    let plain = |g: f64, dt: f64| respawn_deref(&mut mk2(), g, dt);
    let want = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let (mut b, mut t) = (mk2(), nt(2));
        let y = respawn_deref_frule(
            Dual::new(&mut b[..], &mut t[..]),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(
            y.tangent,
            want[k],
            1e-6,
            &format!("respawn through &mut {k}"),
        );
    }
}

// --- 4. Option take() / replace() on untyped locals.
#[derive_frule]
fn roughness(xs: &[f64]) -> f64 {
    let mut prev: Option<f64> = None;
    let mut acc = 0.0;
    for &x in xs {
        if let Some(p) = prev.take() {
            acc += (x - p) * (x - p);
        }
        prev = Some(x * 1.5);
    }
    acc + prev.unwrap_or(0.0)
}

#[derive_frule]
fn replaced(xs: &[f64]) -> f64 {
    let mut last = None;
    let mut acc = 0.0;
    for &x in xs {
        if let Some(o) = last.replace(x.sin()) {
            acc += o * x;
        }
    }
    acc + last.map(|l: f64| l * l).unwrap_or(0.0)
}

#[derive_frule]
fn best_take(xs: &[f64]) -> f64 {
    let mut best = None;
    for &x in xs {
        let cand = (x - 0.3).powi(2);
        match best.take() {
            Some(b) if b < cand => best = Some(b),
            _ => best = Some(cand),
        }
    }
    best.unwrap_or(f64::MAX)
}

#[test]
fn t04_option_take_replace() {
    check_widths!(roughness {}, roughness, [0.3, 1.1, -0.4, 2.0]);
    check_widths!(replaced {}, replaced, [0.3, 1.1, -0.4, 2.0]);
    check_widths!(best_take {}, best_take, [0.9, 0.4, -0.4, 2.0]);
}

// --- 5. Plain integers to _frule.
#[derive_frule]
fn powered(x: f64, n: i32) -> f64 {
    x.powi(n) / (n as f64)
}

#[derive_frule]
fn shifted_sum(x: f64, n: usize, k: i64) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += (x + (i as i64 - k) as f64).exp();
    }
    s
}

#[test]
fn t05_int_arguments() {
    let y = powered_frule(Dual::new(1.3, 1.0), -3);
    assert_eq!(y.primal.to_bits(), powered(1.3, -3).to_bits());
    assert_close(y.tangent, 1.3f64.powi(-4), 1e-12, "powered");
    let y = shifted_sum_frule(Dual::new(0.2, 1.0), 4, -2);
    assert_eq!(y.primal.to_bits(), shifted_sum(0.2, 4, -2).to_bits());
    assert_close(y.tangent, shifted_sum(0.2, 4, -2), 1e-12, "shifted");
    let n: usize = 3;
    let y = shifted_sum_frule(Dual::new(0.2, 1.0), n, 1);
    assert_eq!(y.primal.to_bits(), shifted_sum(0.2, 3, 1).to_bits());
}

// --- 6. Arrays of function items in loops.
#[derive_frule]
fn basis0(x: f64) -> f64 {
    1.0 + 0.0 * x
}
#[derive_frule]
fn basis1(x: f64) -> f64 {
    x
}
#[derive_frule]
fn basis2(x: f64) -> f64 {
    1.5 * x * x - 0.5
}

#[derive_frule]
fn legendre_fit(p: &[f64]) -> f64 {
    let basis = [basis0, basis1, basis2];
    let x = p[0];
    let mut s = 0.0;
    for (i, b) in basis.iter().enumerate() {
        s += p[i + 1] * b(x);
    }
    let mut t = 0.0;
    for f in basis {
        t += f(x).powi(2);
    }
    s + t
}

#[test]
fn t06_function_arrays() {
    check_widths!(legendre_fit {}, legendre_fit, [0.4, 1.0, -0.5, 0.3]);
}

// --- 7. step_by / rev cursors, len(), remainder().
#[derive_frule]
fn strided(xs: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in (0..xs.len()).step_by(2).rev() {
        s = s * 0.5 + xs[i] * xs[i];
    }
    let n = (xs.len() + 2) as f64 / 3.0;
    let odd: f64 = xs.iter().skip(1).step_by(2).rev().map(|v| v.sin()).sum();
    let chunks = xs.chunks_exact(3);
    let tail: f64 = chunks.remainder().iter().map(|v| v * v * v).sum();
    let body: f64 = xs.chunks_exact(3).map(|c| c[0] * c[2] - c[1]).sum();
    s + n * odd + tail + body
}

#[test]
fn t07_cursors() {
    check_widths!(
        strided {},
        strided,
        [0.3, 1.1, -0.4, 2.0, 0.9, -1.3, 0.2, 0.5]
    );
}

// --- 8. tuple_windows after map.

#[derive_frule]
fn path_length(xs: &[f64]) -> f64 {
    let l: f64 = xs
        .iter()
        .map(|x| x * x)
        .tuple_windows()
        .map(|(a, b)| (b - a).abs())
        .sum();
    let c: f64 = xs
        .iter()
        .map(|x| x.cos())
        .tuple_windows::<(_, _, _)>()
        .map(|(a, b, c)| a - 2.0 * b + c)
        .map(|d| d * d)
        .sum();
    l + c
}

#[test]
fn t08_tuple_windows_after_map() {
    check_widths!(path_length {}, path_length, [0.3, 1.1, -0.4, 2.0, 0.9]);
}

// --- 9. A closure calling a function value passed on.
#[derive_frule]
fn integrate<F: Fn(f64) -> f64>(f: F, a: f64, b: f64) -> f64 {
    let n = 8;
    let h = (b - a) / n as f64;
    let mut s = 0.5 * (f(a) + f(b));
    for i in 1..n {
        s += f(a + i as f64 * h);
    }
    s * h
}

#[derive_frule]
fn moment<F: Fn(f64) -> f64>(f: F, k: i32, b: f64) -> f64 {
    integrate(|t| f(t) * t.powi(k), 0.0, b)
}

#[derive_frule]
fn moments(p: &[f64]) -> f64 {
    let a = p[0];
    let density = |t: f64| (-a * t).exp();
    moment(density, 2, p[1]) + moment(&density, 1, p[1]) * a
}

#[test]
fn t09_closure_calling_function_value() {
    check_widths!(moments {}, moments, [0.8, 1.7]);
}

// --- 13. Generic trait implemented at concrete arguments, with a default method.
pub trait Density<T, U> {
    fn pdf(&self, x: T) -> U;
    fn ln_pdf(&self, x: T) -> U;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Gauss {
    pub mu: f64,
    pub sigma: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Laplace {
    pub loc: f64,
    pub scale: f64,
}

#[derive_frule]
impl Density<f64, f64> for Gauss {
    fn pdf(&self, x: f64) -> f64 {
        let z = (x - self.mu) / self.sigma;
        (-0.5 * z * z).exp() / (self.sigma * (2.0 * std::f64::consts::PI).sqrt())
    }
    fn ln_pdf(&self, x: f64) -> f64 {
        let z = (x - self.mu) / self.sigma;
        -0.5 * z * z - self.sigma.ln() - 0.5 * (2.0 * std::f64::consts::PI).ln()
    }
}

#[derive_frule]
impl Density<f64, f64> for Laplace {
    fn pdf(&self, x: f64) -> f64 {
        (-(x - self.loc).abs() / self.scale).exp() / (2.0 * self.scale)
    }
    fn ln_pdf(&self, x: f64) -> f64 {
        self.pdf(x).ln()
    }
}

const DATA: [f64; 5] = [0.3, -1.2, 0.8, 2.1, 0.05];

#[derive_frule]
fn mixture_loglik(p: &[f64]) -> f64 {
    let g = Gauss {
        mu: p[0],
        sigma: p[1],
    };
    let l = Laplace {
        loc: p[2],
        scale: p[3],
    };
    let w = 0.3;
    DATA.iter()
        .map(|&x| (w * g.pdf(x) + (1.0 - w) * l.pdf(x)).ln())
        .sum::<f64>()
        + g.ln_pdf(p[2])
        + l.ln_pdf(p[0])
}

#[test]
fn t13_generic_trait_at_concrete_args() {
    check_widths!(mixture_loglik {}, mixture_loglik, [0.2, 1.1, -0.1, 0.7]);
}

// --- 14. Arrays of std function items.
#[derive_frule]
fn activations(p: &[f64]) -> f64 {
    let acts = [f64::tanh, f64::sin, f64::exp];
    let mut s = 0.0;
    for (i, f) in acts.iter().enumerate() {
        s += f(p[i]) * p[(i + 1) % 3];
    }
    let table: [fn(f64) -> f64; 2] = [f64::cos, f64::sqrt];
    for f in table.iter() {
        s += f(p[0] * p[0] + 0.5);
    }
    s
}

#[test]
fn t14_std_function_arrays() {
    check_widths!(activations {}, activations, [0.4, -0.3, 0.9]);
}

// --- 15. Option of a user struct: take/replace.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Sample {
    pub t: f64,
    pub y: f64,
}

#[derive_frule]
fn slope_sum(ts: &[f64], ys: &[f64]) -> f64 {
    let mut prev: Option<Sample> = None;
    let mut s = 0.0;
    for i in 0..ts.len() {
        let cur = Sample { t: ts[i], y: ys[i] };
        if let Some(p) = prev.replace(cur) {
            s += (cur.y - p.y) / (cur.t - p.t);
        }
    }
    if let Some(last) = prev.take() {
        s += last.y * last.t;
    }
    s
}

#[derive_frule]
fn slope_sum_of(v: &[f64]) -> f64 {
    slope_sum(&v[..3], &v[3..])
}

#[test]
fn t15_option_user_struct() {
    check_widths!(
        slope_sum_of {},
        slope_sum_of,
        [0.1, 0.5, 1.2, 0.3, -0.2, 0.8]
    );
}

#[derive(Clone, Copy, Debug, Default, Differentiable)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

#[derive_frule]
impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

#[derive_frule]
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2 {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
}

#[derive_frule]
impl Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, s: f64) -> V2 {
        V2 {
            x: self.x * s,
            y: self.y * s,
        }
    }
}

#[derive_frule]
impl Mul<V2> for f64 {
    type Output = V2;
    fn mul(self, v: V2) -> V2 {
        V2 {
            x: self * v.x,
            y: self * v.y,
        }
    }
}

#[derive_frule]
impl V2 {
    pub fn dot(self, o: V2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn norm(self) -> f64 {
        self.dot(self).sqrt()
    }
}

#[derive_frule]
fn field(p: V2, w: f64) -> V2 {
    V2 {
        x: -w * p.y + p.x * p.x,
        y: w * p.x,
    }
}

/// RK4 on a planar field, written with the returned values in operators.
#[derive_frule]
fn rk4(v: &[f64]) -> f64 {
    let mut p = V2 { x: v[0], y: v[1] };
    let w = v[2];
    let h = 0.05;
    for _ in 0..10 {
        let k1 = field(p, w);
        let k2 = field(p + k1 * (0.5 * h), w);
        let k3 = field(p + k2 * (0.5 * h), w);
        let k4 = field(p + k3 * h, w);
        p = p + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0);
    }
    let d = field(p, w) - p;
    d.norm() + field(p, w).x * 2.0 + (field(p, w) - p).y
}

#[test]
fn t10_operators_on_returned_values() {
    check_widths!(rk4 {}, rk4, [0.3, 0.5, 1.2]);
}

// Generic T: Float with a user struct of T.
#[derive_frule]
pub fn softplus_sum<T: Float>(xs: &[T], beta: T) -> T {
    let mut s = T::zero();
    for &x in xs {
        s = s + (T::one() + (beta * x).exp()).ln() / beta;
    }
    s
}

#[derive_frule]
fn softplus_of(v: &[f64]) -> f64 {
    softplus_sum(&v[1..], v[0])
}

#[test]
fn t11_generic() {
    check_widths!(softplus_of {}, softplus_of, [1.5, 0.3, -0.7, 1.2]);
}
