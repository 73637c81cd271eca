//! Tenth hunt for wrong primals and derivatives.
//!
//! Found:
//! - A wrong derivative: trait objects that a derived function holds without a tangent
//!   (a scene built by a plain library function, `let mut bodies = scene();`, or a
//!   `World { bodies: scene(), .. }` built in the body), lent to a derived function that
//!   steps them through `dyn` (`step_all(&mut bodies, dt, g)`, `w.run(g)`), then read
//!   again (`bodies.iter().map(|b| b.energy(g)).sum()`, a second `step_all`). The callee
//!   keeps the tangents of the objects' state beside them, keyed by address, only while
//!   its `DynScope` is open: when it returned they were dropped, and the caller's reads
//!   saw none (`scene_energy`: d/dg 21.991 against 21.877).
//! - A wrong derivative: the same with the caller's own scope open (it takes bodies as a
//!   `&mut` parameter) and the scene made afresh in a loop (`trials_with`): the tangents
//!   outlived the objects, and the next scene's objects, allocated at the same addresses,
//!   started from them (d/dg 91.971 against 91.873). Keeping them in a scope of the
//!   caller's would make the first right and this one wrong (`trials`).
//!
//!   Now a call that lends such a value to a user function or method runs under a
//!   `DynLend`, which panics when the callee made tangents for objects that had none,
//!   saying to build the objects in the differentiated function (`scene_built_here`,
//!   right in every mode) or to take them as a `&mut` parameter.
//!
//! The other functions are guards that passed, written as users write them, each in one
//! direction, batches of 1 to 16 lanes and second order against central differences or
//! closed forms, primals bit for bit: trait objects passed in under `&mut` (recursion,
//! two objects, a respawn by assignment, objects dropped and pushed again, swapped
//! between steps); methods of constants declared `inactive(..)` with differentiated
//! arguments (boxed layers of a network taking and returning slices, springs by index
//! with a tuple result and a clone moved by the input); `binary_search_by` and
//! `partition_point` over differentiated knots; `match *best` on a `&mut Option<f64>`;
//! `[f64; 3]` points passed to a `&[f64]` parameter; `move` closures capturing closures
//! two deep; an extension trait's `&mut self` methods on ranges with computed bounds and
//! on `chunks_mut` rows; adaptors after `filter` and `take_while`, `find_map`; a ring
//! buffer by `rotate_left`, `copy_within`, `rotate_right` and `reverse`; the drivers'
//! `bind` with a plain settings reference, a fieldless enum and `Option` constants in
//! every combination.
#![allow(
    clippy::vec_box,
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::float_cmp,
    clippy::manual_find_map,
    clippy::redundant_closure
)]
use fwdad::drivers::{bind, Wrt};
use fwdad::drivers::{gradient_with, jvp};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

#[derive_frule]
pub trait Body {
    fn update(&mut self, dt: f64, g: f64);
    fn energy(&self, g: f64) -> f64;
    fn height(&self) -> f64;
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
    fn height(&self) -> f64 {
        self.h
    }
}

#[derive_frule]
pub fn step_all(bodies: &mut [Box<dyn Body>], dt: f64, g: f64) {
    for b in bodies.iter_mut() {
        b.update(dt, g);
    }
}

/// The scene of a plain library function: its bodies are constants.
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

/// A simulation over the library's scene, stepped twice by the library function.
#[derive_frule]
pub fn scene_energy(p: &[f64]) -> f64 {
    let g = p[0];
    let dt = p[1];
    let mut bodies = scene();
    step_all(&mut bodies, dt, g);
    step_all(&mut bodies, dt, g);
    bodies.iter().map(|b| b.energy(g)).sum()
}

/// The same scene built in the differentiated function: the boxes carry its derivative.
#[derive_frule]
pub fn scene_built_here(p: &[f64]) -> f64 {
    let g = p[0];
    let dt = p[1];
    let mut bodies: Vec<Box<dyn Body>> = vec![
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
    ];
    step_all(&mut bodies, dt, g);
    step_all(&mut bodies, dt, g);
    bodies.iter().map(|b| b.energy(g)).sum()
}

/// Trials over fresh scenes of the library, each stepped once and read.
#[derive_frule]
pub fn trials(p: &[f64]) -> f64 {
    let mut total = 0.0;
    for k in 0..3 {
        let mut bodies = scene();
        step_all(&mut bodies, p[1], p[0] * (k as f64 + 1.0));
        total += bodies[0].energy(p[0]) + 2.0 * bodies[1].energy(p[0]);
    }
    total
}

/// Trials over fresh scenes of the library beside bodies passed in.
#[derive_frule]
pub fn trials_with(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64) -> f64 {
    let mut total = 0.0;
    for k in 0..3 {
        let mut extra = scene();
        step_all(&mut extra, dt, g * (k as f64 + 1.0));
        total += extra[0].energy(g) + 2.0 * extra[1].energy(g);
    }
    step_all(bodies, dt, g);
    total + bodies[0].energy(g)
}

/// Recursion on a body passed in.
#[derive_frule]
pub fn advance_rec(b: &mut dyn Body, dt: f64, g: f64, n: usize) {
    if n > 0 {
        b.update(dt, g);
        advance_rec(b, dt, g, n - 1);
    }
}

#[derive_frule]
pub fn rec_energy(b: &mut dyn Body, g: f64, dt: f64) -> f64 {
    advance_rec(b, dt, g, 5);
    let e1 = b.energy(g);
    advance_rec(b, dt, g, 3);
    e1 + b.energy(g)
}

/// Two bodies passed in.
#[derive_frule]
pub fn pair_energy(a: &mut dyn Body, b: &mut dyn Body, g: f64, dt: f64) -> f64 {
    for _ in 0..4 {
        a.update(dt, g);
        b.update(dt, 2.0 * g);
        a.update(dt, g);
    }
    a.energy(g) * b.energy(g)
}

/// A respawn: a body that fell below the ground is replaced by a fresh one.
#[derive_frule]
pub fn respawn(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        for b in bodies.iter_mut() {
            b.update(dt, g);
        }
        for i in 0..bodies.len() {
            if bodies[i].height() < 0.0 {
                bodies[i] = Box::new(Ball {
                    h: 10.0,
                    v: 0.0,
                    m: 1.0,
                });
            }
        }
    }
    bodies.iter().map(|b| b.energy(g)).sum()
}

/// Bodies swapped and sorted between steps.
#[derive_frule]
pub fn sorted_steps(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64) -> f64 {
    for k in 0..6 {
        bodies.iter_mut().for_each(|b| b.update(dt, g));
        if k % 2 == 0 {
            bodies.swap(0, 1);
        }
    }
    bodies[0].energy(g) - 0.5 * bodies[1].energy(g)
}

fn balls() -> Vec<Box<dyn Body>> {
    vec![
        Box::new(Ball {
            h: 0.3,
            v: 0.0,
            m: 1.5,
        }),
        Box::new(Ball {
            h: 5.0,
            v: 2.0,
            m: 0.7,
        }),
    ]
}

fn nt(n: usize) -> Vec<Box<NoTangent>> {
    (0..n).map(|_| Box::new(NoTangent)).collect()
}

fn fd2(f: &dyn Fn(f64, f64) -> f64, a: f64, b: f64) -> [f64; 2] {
    let h = 1e-6;
    [
        (f(a + h, b) - f(a - h, b)) / (2.0 * h),
        (f(a, b + h) - f(a, b - h)) / (2.0 * h),
    ]
}

/// The message of the panic of `f`, which must panic.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let e = std::panic::catch_unwind(f).expect_err("a panic");
    match (e.downcast_ref::<String>(), e.downcast_ref::<&str>()) {
        (Some(s), _) => s.clone(),
        (_, Some(s)) => s.to_string(),
        _ => String::new(),
    }
}

#[test]
fn scene_of_a_plain_function_stepped_twice() {
    let p = [9.81, 0.05];
    let want = "build the objects in the differentiated function";
    assert!(panic_message(|| {
        jvp(scene_energy {}, &p[..], &[1.0, 0.0][..]);
    })
    .contains(want));
    assert!(panic_message(|| {
        gradient_with::<2>(scene_energy {}, &p[..]);
    })
    .contains(want));
    assert!(panic_message(|| {
        hessian(scene_energy {}, &p[..]);
    })
    .contains(want));
    assert!(panic_message(|| {
        jvp(world_energy {}, &[9.81, 1.1][..], &[1.0, 0.0][..]);
    })
    .contains(want));
    assert!(panic_message(|| {
        jvp(trials {}, &p[..], &[1.0, 0.0][..]);
    })
    .contains(want));
    assert!(panic_message(|| {
        let mut b = scene();
        let mut t = nt(2);
        trials_with_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(p[0], 1.0),
            Dual::new(p[1], 0.0),
        );
    })
    .contains(want));
    // The plain functions are untouched.
    assert!(scene_energy(&p).is_finite() && trials(&p).is_finite());
    assert!(trials_with(&mut scene(), p[0], p[1]).is_finite());
    // The same scene built in the differentiated function, as the message says.
    check_widths!(scene_built_here {}, scene_built_here, p);
    // Semi-implicit Euler from (h₀, v₀): after n steps vₙ = v₀ − n g dt and
    // hₙ = h₀ + n dt v₀ − g dt² n(n + 1)/2; E = m (g hₙ + vₙ²/2) summed over the scene.
    let (g, dt, n) = (p[0], p[1], 2.0);
    let mut de_dg = 0.0;
    for (h0, v0, m) in [(10.0, 1.0, 2.0), (4.0, -0.5, 0.5)] {
        let hn = h0 + n * dt * v0 - g * dt * dt * n * (n + 1.0) / 2.0;
        let vn = v0 - n * g * dt;
        de_dg += m * (hn + g * (-dt * dt * n * (n + 1.0) / 2.0) + vn * (-n * dt));
    }
    let (_, d) = jvp(scene_built_here {}, &p[..], &[1.0, 0.0][..]);
    assert_close(d, de_dg, 1e-13, "dE/dg in closed form");
}

#[test]
fn recursion_on_a_body_passed_in() {
    let plain = |g: f64, dt: f64| {
        let mut b = Ball {
            h: 3.0,
            v: 0.5,
            m: 1.2,
        };
        rec_energy(&mut b, g, dt)
    };
    let (g, dt) = (9.81, 0.03);
    let want = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let mut b = Ball {
            h: 3.0,
            v: 0.5,
            m: 1.2,
        };
        let y = rec_energy_frule(
            Dual::new(&mut b as &mut dyn Body, &mut NoTangent),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, want[k], 1e-6, "rec");
    }
}

#[test]
fn two_bodies_passed_in() {
    let mk = || {
        (
            Ball {
                h: 3.0,
                v: 0.5,
                m: 1.2,
            },
            Ball {
                h: 1.0,
                v: -0.5,
                m: 0.4,
            },
        )
    };
    let plain = |g: f64, dt: f64| {
        let (mut a, mut b) = mk();
        pair_energy(&mut a, &mut b, g, dt)
    };
    let (g, dt) = (9.81, 0.03);
    let want = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let (mut a, mut b) = mk();
        let y = pair_energy_frule(
            Dual::new(&mut a as &mut dyn Body, &mut NoTangent),
            Dual::new(&mut b as &mut dyn Body, &mut NoTangent),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, want[k], 1e-6, "pair");
    }
}

#[test]
fn respawned_bodies() {
    let plain = |g: f64, dt: f64| respawn(&mut balls(), g, dt, 12);
    let (g, dt) = (9.81, 0.08);
    let want = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let (mut b, mut t) = (balls(), nt(2));
        let y = respawn_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
            Dual::constant(12),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, want[k], 1e-6, &format!("respawn {k}"));
    }
}

#[test]
fn swapped_bodies() {
    let plain = |g: f64, dt: f64| sorted_steps(&mut balls(), g, dt);
    let (g, dt) = (9.81, 0.05);
    let want = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let (mut b, mut t) = (balls(), nt(2));
        let y = sorted_steps_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, want[k], 1e-6, &format!("swapped {k}"));
    }
}

/// Bodies that fell are dropped and fresh ones pushed in their place.
#[derive_frule]
pub fn recycle(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64, steps: usize) -> f64 {
    let mut lost = 0.0;
    for _ in 0..steps {
        step_all(bodies, dt, g);
        while bodies.len() > 1 && bodies[bodies.len() - 1].height() < 0.0 {
            lost += bodies[bodies.len() - 1].energy(g);
            bodies.pop();
            bodies.push(Box::new(Ball {
                h: 3.0,
                v: 0.0,
                m: 1.0,
            }));
        }
    }
    bodies.iter().map(|b| b.energy(g)).sum::<f64>() + lost
}

#[derive(Differentiable)]
pub struct World {
    pub bodies: Vec<Box<dyn Body>>,
    pub dt: f64,
}

#[derive_frule]
impl World {
    pub fn run(&mut self, g: f64, n: usize) -> f64 {
        for _ in 0..n {
            step_all(&mut self.bodies, self.dt, g);
        }
        self.bodies.iter().map(|b| b.energy(g)).sum()
    }
}

#[derive_frule]
pub fn world_energy(p: &[f64]) -> f64 {
    let mut w = World {
        bodies: scene(),
        dt: 0.05,
    };
    let e1 = w.run(p[0], 3);
    let e2 = w.run(p[0] * p[1], 2);
    e1 * e2
}

#[test]
fn recycled_bodies() {
    let mk = || -> Vec<Box<dyn Body>> {
        vec![
            Box::new(Ball {
                h: 10.0,
                v: 0.0,
                m: 1.0,
            }),
            Box::new(Ball {
                h: 0.2,
                v: 0.0,
                m: 2.0,
            }),
        ]
    };
    let plain = |g: f64, dt: f64| recycle(&mut mk(), g, dt, 10);
    let (g, dt) = (9.81, 0.1);
    let want = fd2(&plain, g, dt);
    for (k, s) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let (mut b, mut t) = (mk(), nt(2));
        let y = recycle_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(g, s.0),
            Dual::new(dt, s.1),
            Dual::constant(10),
        );
        assert_eq!(y.primal.to_bits(), plain(g, dt).to_bits());
        assert_close(y.tangent, want[k], 1e-6, &format!("recycle {k}"));
    }
}

#[derive_frule]
pub trait Layer {
    fn apply(&self, x: &[f64]) -> Vec<f64>;
    fn penalty(&self, x: f64) -> f64;
}

#[derive(Clone, Debug, Differentiable)]
pub struct Affine {
    pub w: Vec<f64>,
    pub b: f64,
}

#[derive(Clone, Debug, Differentiable)]
pub struct Tanh {
    pub gain: f64,
}

#[derive_frule]
impl Layer for Affine {
    fn apply(&self, x: &[f64]) -> Vec<f64> {
        x.iter()
            .zip(&self.w)
            .map(|(xi, wi)| xi * wi + self.b)
            .collect()
    }
    fn penalty(&self, x: f64) -> f64 {
        self.w.iter().map(|w| w * x * x).sum()
    }
}

#[derive_frule]
impl Layer for Tanh {
    fn apply(&self, x: &[f64]) -> Vec<f64> {
        x.iter().map(|v| (self.gain * v).tanh()).collect()
    }
    fn penalty(&self, x: f64) -> f64 {
        self.gain * x.abs()
    }
}

/// A fixed network of boxed layers.
#[derive_frule(inactive(layers))]
pub fn forward(x: &[f64], layers: &[Box<dyn Layer>]) -> f64 {
    let mut h = x.to_vec();
    for l in layers {
        h = l.apply(&h);
    }
    let mut pen = 0.0;
    for i in 0..layers.len() {
        pen += layers[i].penalty(h[i % h.len()]);
    }
    h.iter().map(|v| v * v).sum::<f64>() + pen
}

#[derive(Clone, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

#[derive_frule]
impl Spring {
    pub fn energy(&self, len: f64) -> f64 {
        0.5 * self.k * (len - self.rest).powi(2)
    }
    pub fn force(&self, len: f64) -> (f64, f64) {
        let f = -self.k * (len - self.rest);
        (f, f * len)
    }
}

/// Springs by index, a tuple result, and a clone of a fixed spring moved by the input.
#[derive_frule(inactive(springs))]
pub fn lattice(pos: &[f64], springs: &[Spring]) -> f64 {
    let mut e = 0.0;
    let mut virial = 0.0;
    for i in 0..springs.len() {
        let len = (pos[i + 1] - pos[i]).abs();
        e += springs[i].energy(len);
        let (_, w) = springs[i].force(len);
        virial += w;
    }
    let mut s = springs[0].clone();
    s.rest += pos[0];
    e + 0.1 * virial + s.energy(pos[1])
}

fn layers() -> Vec<Box<dyn Layer>> {
    vec![
        Box::new(Affine {
            w: vec![0.5, -1.2, 0.8],
            b: 0.1,
        }),
        Box::new(Tanh { gain: 1.3 }),
        Box::new(Affine {
            w: vec![1.1, 0.4, -0.3],
            b: -0.2,
        }),
    ]
}

#[test]
fn boxed_layers() {
    let ls = layers();
    let x = [0.3, -0.7, 0.9];
    check_widths!(
        bind(forward {}, (Wrt, &ls[..])),
        |x: &[f64]| forward(x, &ls),
        x
    );
}

#[test]
fn springs_by_index() {
    let sp = vec![
        Spring { k: 2.0, rest: 1.0 },
        Spring { k: 0.5, rest: 0.3 },
        Spring { k: 1.5, rest: 0.8 },
    ];
    let x = [0.1, 1.3, 1.9, 3.0];
    check_widths!(
        bind(lattice {}, (Wrt, &sp[..])),
        |x: &[f64]| lattice(x, &sp),
        x
    );
}

/// Piecewise-linear interpolation through knots that are differentiated too.
#[derive_frule]
pub fn interp_knots(p: &[f64]) -> f64 {
    let (xs, rest) = p.split_at(4);
    let ys = &rest[..4];
    let t = rest[4];
    let i = match xs.binary_search_by(|v| v.partial_cmp(&t).unwrap()) {
        Ok(i) => i.min(xs.len() - 2),
        Err(i) => i.clamp(1, xs.len() - 1) - 1,
    };
    let w = (t - xs[i]) / (xs[i + 1] - xs[i]);
    ys[i] * (1.0 - w) + ys[i + 1] * w
}

/// The same located by `partition_point` and `binary_search_by` with `total_cmp`.
#[derive_frule]
pub fn interp_pp(p: &[f64]) -> f64 {
    let (xs, rest) = p.split_at(4);
    let ys = &rest[..4];
    let t = rest[4];
    let k = xs.partition_point(|&v| v <= t).clamp(1, 3) - 1;
    let j = match xs.binary_search_by(|probe| probe.total_cmp(&(t * 0.5))) {
        Ok(j) | Err(j) => j.min(3),
    };
    let w = (t - xs[k]) / (xs[k + 1] - xs[k]);
    ys[k] + w * (ys[k + 1] - ys[k]) + ys[j] * t
}

/// A best value kept behind `&mut Option<f64>`, matched by `ref mut`.
#[derive_frule]
pub fn keep_best(best: &mut Option<f64>, x: f64) {
    match *best {
        Some(b) if x > b => *best = Some(x),
        None => *best = Some(x),
        _ => {}
    }
}

#[derive_frule]
pub fn best_of(x: &[f64]) -> f64 {
    let mut best = None;
    for &v in x {
        keep_best(&mut best, v.sin() * v);
    }
    best.unwrap_or(0.0)
}

#[derive_frule]
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// Points built as `[f64; 3]` from the input, each passed to a `&[f64]` parameter.
#[derive_frule]
pub fn cloud(x: &[f64]) -> f64 {
    let pts: Vec<[f64; 3]> = x.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let mut total = 0.0;
    for p in &pts {
        total += norm(p);
    }
    let c = [x[0] - x[3], x[1] - x[4], x[2] - x[5]];
    total + norm(&c) * norm(&pts[1])
}

/// Closures captured by `move` closures, two levels deep.
#[derive_frule]
pub fn nested_moves(p: &[f64]) -> f64 {
    let k = p[0];
    let f = move |t: f64| k * t;
    let g = move |t: f64| f(t).sin() + k;
    let h = move |t: f64| g(f(t)) * t;
    let mut s = 0.0;
    for &t in &p[1..] {
        s += h(t) + g(t);
    }
    s + p.iter().map(|&t| h(t)).sum::<f64>()
}

#[derive_frule]
pub trait Normalize {
    fn normalize(&mut self);
    fn softmax(&mut self);
}

#[derive_frule]
impl Normalize for [f64] {
    fn normalize(&mut self) {
        let n = self.iter().map(|v| v * v).sum::<f64>().sqrt();
        for v in self.iter_mut() {
            *v /= n;
        }
    }
    fn softmax(&mut self) {
        let m = self.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut s = 0.0;
        for v in self.iter_mut() {
            *v = (*v - m).exp();
            s += *v;
        }
        for v in self.iter_mut() {
            *v /= s;
        }
    }
}

/// Ranges with computed bounds, rows by `chunks_mut`.
#[derive_frule]
pub fn heads(x: &[f64]) -> f64 {
    let mut out = x.to_vec();
    let k = out.len() / 2;
    out[..k].normalize();
    out[k..].softmax();
    let mut rows = x.to_vec();
    for r in rows.chunks_mut(3) {
        r.softmax();
    }
    let mut z = 0.0;
    for i in 0..out.len() {
        z += out[i] * rows[i] * (i as f64 + 1.0);
    }
    z
}

/// Adaptors after `filter` and `take_while`.
#[derive_frule]
pub fn after_filter(x: &[f64]) -> f64 {
    let a: f64 = x
        .iter()
        .filter(|v| **v > 0.0)
        .rev()
        .enumerate()
        .map(|(i, v)| (i as f64 + 1.0) * v * v)
        .sum();
    let b = x
        .iter()
        .take_while(|v| v.abs() < 2.0)
        .zip(x.iter().skip(1))
        .map(|(p, q)| p * q)
        .fold(0.0, |acc, t| acc * 0.5 + t);
    let c = x
        .iter()
        .filter(|v| **v < 1.0)
        .step_by(2)
        .map(|v| v.exp())
        .last()
        .unwrap_or(0.0);
    let d = x
        .iter()
        .enumerate()
        .find_map(|(i, v)| if *v > 0.5 { Some(v * i as f64) } else { None })
        .unwrap_or(0.0);
    let e = x
        .iter()
        .copied()
        .filter(|v| *v > -1.0)
        .skip(1)
        .max_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap_or(0.0);
    a + b + c + d + e
}

/// A ring buffer rotated and shifted.
#[derive_frule]
pub fn ring(x: &[f64]) -> f64 {
    let mut buf = x.to_vec();
    buf.rotate_left(2);
    buf.copy_within(1..4, 0);
    buf.rotate_right(1);
    let mut s = 0.0;
    for (i, v) in buf.iter().enumerate() {
        s += (i as f64 + 1.0) * v.sin();
    }
    buf.reverse();
    s + buf[0] * buf[1]
}

const X6: [f64; 6] = [0.7, -0.4, 1.3, 0.2, -1.1, 0.9];

#[test]
fn interpolation_with_differentiated_knots() {
    let p = [0.0, 1.0, 2.5, 4.0, 1.0, 3.0, -1.0, 0.5, 1.7];
    check_widths!(interp_knots {}, interp_knots, p);
    let p = [0.0, 1.0, 2.5, 4.0, 1.0, 3.0, -1.0, 0.5, 3.1];
    check_widths!(interp_knots {}, interp_knots, p);
    let p = [0.0, 1.0, 2.5, 4.0, 1.0, 3.0, -1.0, 0.5, 1.7];
    check_widths!(interp_pp {}, interp_pp, p);
}

#[test]
fn option_behind_mut() {
    check_widths!(best_of {}, best_of, X6);
}

#[test]
fn arrays_to_slices() {
    check_widths!(cloud {}, cloud, X6);
}

#[test]
fn move_closures() {
    check_widths!(nested_moves {}, nested_moves, X6);
}

#[test]
fn extension_ranges() {
    check_widths!(heads {}, heads, X6);
}

#[test]
fn filter_adaptors() {
    check_widths!(after_filter {}, after_filter, X6);
    let x = [0.3, 0.9, 1.5, -0.2, 2.5, 0.6];
    check_widths!(after_filter {}, after_filter, x);
}

#[test]
fn ring_buffer() {
    check_widths!(ring {}, ring, X6);
}

/// Solver settings, plain data.
#[derive(Clone, Debug)]
pub struct Settings {
    pub steps: usize,
    pub damping: f64,
    pub names: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
pub enum Rule {
    Euler,
    Midpoint,
    Heun,
}

/// An ODE x' = -k x + sin(t) integrated by a chosen rule, a plain settings reference,
/// an optional clamp and an optional scale.
#[derive_frule(inactive(cfg))]
pub fn integrate(
    cfg: &Settings,
    rule: Rule,
    p: &[f64],
    clamp: Option<f64>,
    scale: Option<usize>,
    tag: Option<Rule>,
) -> f64 {
    let k = p[0];
    let mut x = p[1];
    let h = 1.0 / cfg.steps as f64;
    let f = |t: f64, x: f64| -k * x + (t * cfg.damping).sin();
    for i in 0..cfg.steps {
        let t = i as f64 * h;
        x = match rule {
            Rule::Euler => x + h * f(t, x),
            Rule::Midpoint => x + h * f(t + 0.5 * h, x + 0.5 * h * f(t, x)),
            Rule::Heun => {
                let a = f(t, x);
                let b = f(t + h, x + h * a);
                x + 0.5 * h * (a + b)
            }
        };
        if let Some(c) = clamp {
            x = x.min(c);
        }
    }
    let s = match scale {
        Some(n) => n as f64,
        None => 1.0,
    };
    let extra = if tag == Some(Rule::Heun) { k * k } else { 0.0 };
    s * x * x + extra
}

#[test]
fn bound_settings_rules_and_options() {
    let cfg = Settings {
        steps: 20,
        damping: 0.7,
        names: vec!["a".into()],
    };
    for p in [[0.8, 1.1], [0.8, 1.6]] {
        for rule in [Rule::Euler, Rule::Midpoint, Rule::Heun] {
            for clamp in [None, Some(1.25)] {
                for scale in [None, Some(3)] {
                    for tag in [None, Some(Rule::Heun), Some(Rule::Euler)] {
                        check_widths!(
                            bind(integrate {}, (&cfg, rule, Wrt, clamp, scale, tag)),
                            |p: &[f64]| integrate(&cfg, rule, p, clamp, scale, tag),
                            p
                        );
                    }
                }
            }
        }
    }
}
