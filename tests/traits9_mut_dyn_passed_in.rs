//! `&mut self` methods through trait objects a derived function is *given*: a physics
//! library's `step_all(bodies: &mut [Box<dyn Body>], dt, g)` and `advance(b: &mut dyn
//! Body, dt, g, n)`, written as a library author writes them, called from a derived
//! simulation that builds its bodies from its parameters, and called directly on bodies
//! built outside (constants) under a differentiated gravity and time step. The state the
//! steps store depends on `g` and `dt`; later `energy` calls read its derivative. Checked
//! in one direction, in batches and at second order against the closed form of
//! semi-implicit Euler and against central differences of the plain functions, each
//! primal bit for bit.

// The tangent of a `Vec<Box<dyn Body>>` is a `Vec<Box<NoTangent>>`.
#![allow(clippy::vec_box)]

#[macro_use]
mod common;

use fwdad::prelude::*;
use fwdad::{Batch, Hyper};

/// A body falling under gravity `g`.
#[derive_frule]
pub trait Body {
    fn update(&mut self, dt: f64, g: f64);
    fn energy(&self, g: f64) -> f64;
}

/// A ball of mass `m`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub h: f64,
    pub v: f64,
    pub m: f64,
}

/// A feather of unit mass with linear drag.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Feather {
    pub h: f64,
    pub v: f64,
    pub drag: f64,
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

#[derive_frule]
impl Body for Feather {
    fn update(&mut self, dt: f64, g: f64) {
        self.v += (-g - self.drag * self.v) * dt;
        self.h += self.v * dt;
    }
    fn energy(&self, g: f64) -> f64 {
        g * self.h + 0.5 * self.v * self.v
    }
}

/// One step of every body.
#[derive_frule]
pub fn step_all(bodies: &mut [Box<dyn Body>], dt: f64, g: f64) {
    for b in bodies.iter_mut() {
        b.update(dt, g);
    }
}

/// One body advanced by `n` steps.
#[derive_frule]
pub fn advance(b: &mut dyn Body, dt: f64, g: f64, n: usize) {
    for _ in 0..n {
        b.update(dt, g);
    }
}

/// The total energy of the given bodies after `steps` steps.
#[derive_frule]
pub fn energy_after(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        for b in bodies.iter_mut() {
            b.update(dt, g);
        }
    }
    bodies.iter().map(|b| b.energy(g)).sum()
}

/// The energy of one given body after `n` steps of `advance`.
#[derive_frule]
pub fn energy_of_advanced(b: &mut dyn Body, g: f64, dt: f64, n: usize) -> f64 {
    advance(b, dt, g, n);
    b.energy(g)
}

/// A simulation over bodies built from its parameters `x = [h0, v0, m, h1, v1, drag, g]`,
/// stepped by the library's `step_all`.
#[derive_frule]
pub fn simulate(x: &[f64], dt: f64, steps: usize) -> f64 {
    let g = x[6];
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[0],
            v: x[1],
            m: x[2],
        }),
        Box::new(Feather {
            h: x[3],
            v: x[4],
            drag: x[5],
        }),
    ];
    for _ in 0..steps {
        step_all(&mut bodies, dt, g);
    }
    bodies.iter().map(|b| b.energy(g)).sum()
}

const X: [f64; 7] = [2.0, 0.5, 1.3, 1.5, -0.2, 0.4, 9.81];

#[test]
fn bodies_built_in_the_simulation_stepped_by_a_library_function_in_every_mode() {
    check_modes!(
        bind(simulate {}, (Wrt, 0.01, 40)),
        |x: &[f64]| simulate(x, 0.01, 40),
        X
    );
}

fn ball() -> Ball {
    Ball {
        h: 10.0,
        v: 1.5,
        m: 2.0,
    }
}

fn bodies() -> Vec<Box<dyn Body>> {
    vec![
        Box::new(ball()),
        Box::new(Feather {
            h: 5.0,
            v: 0.0,
            drag: 0.3,
        }),
    ]
}

fn no_tangents() -> Vec<Box<NoTangent>> {
    vec![Box::new(NoTangent), Box::new(NoTangent)]
}

/// Semi-implicit Euler for the ball from `ball()`: after `n` steps `vₙ = v₀ - n g dt`,
/// `hₙ = h₀ + n dt v₀ - g dt² n(n+1)/2`; `E = m (g hₙ + vₙ²/2)`. Returns `E`, `∂E/∂g`,
/// `∂E/∂dt`, `∂²E/∂g²`, `∂²E/∂g∂dt`.
fn ball_closed_form(g: f64, dt: f64, n: usize) -> [f64; 5] {
    let Ball { h, v, m } = ball();
    let nf = n as f64;
    let c = nf * (nf + 1.0) / 2.0;
    let hn = h + nf * dt * v - g * dt * dt * c;
    let vn = v - nf * g * dt;
    let (hg, hdt) = (-dt * dt * c, nf * v - 2.0 * g * dt * c);
    let (vg, vdt) = (-nf * dt, -nf * g);
    let e = m * (g * hn + 0.5 * vn * vn);
    let eg = m * (hn + g * hg + vn * vg);
    let edt = m * (g * hdt + vn * vdt);
    // ∂hg/∂g = 0, ∂vg/∂g = 0; ∂hg/∂dt = -2 dt c, ∂vg/∂dt = -n.
    let egg = m * (2.0 * hg + vg * vg);
    let egdt = m * (hdt + g * (-2.0 * dt * c) + vdt * vg + vn * (-nf));
    [e, eg, edt, egg, egdt]
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

#[test]
fn a_ball_passed_in_as_dyn_against_semi_implicit_euler_in_every_mode() {
    let (g, dt, n) = (9.81, 0.02, 25usize);
    let [e, eg, edt, egg, egdt] = ball_closed_form(g, dt, n);
    let plain = energy_of_advanced(&mut ball(), g, dt, n);
    assert!(close(plain, e, 1e-12), "{plain} against {e}");
    // One direction each.
    for (seed, want) in [((1.0, 0.0), eg), ((0.0, 1.0), edt)] {
        let mut b = ball();
        let y = energy_of_advanced_frule(
            Dual::new(&mut b as &mut dyn Body, &mut NoTangent),
            Dual::new(g, seed.0),
            Dual::new(dt, seed.1),
            Dual::constant(n),
        );
        assert_eq!(y.primal.to_bits(), plain.to_bits());
        assert!(close(y.tangent, want, 1e-9), "{} against {want}", y.tangent);
        // The body was stepped as the plain function steps it.
        let mut p = ball();
        advance(&mut p, dt, g, n);
        assert_eq!(
            (b.h.to_bits(), b.v.to_bits()),
            (p.h.to_bits(), p.v.to_bits())
        );
    }
    // Both directions at once.
    let mut b = ball();
    let y = <energy_of_advanced as Frule<_, Batch<f64, 2>>>::frule(
        &energy_of_advanced {},
        (
            Dual::new(&mut b as &mut dyn Body, &mut NoTangent),
            Dual::new(g, Batch([1.0, 0.0])),
            Dual::new(dt, Batch([0.0, 1.0])),
            Dual::constant(n),
        ),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    assert!(close(y.tangent.0[0], eg, 1e-9), "{:?}", y.tangent);
    assert!(close(y.tangent.0[1], edt, 1e-9), "{:?}", y.tangent);
    // Second order: ∂²E/∂g² and ∂²E/∂g∂dt.
    for (d2, want) in [((1.0, 0.0), egg), ((0.0, 1.0), egdt)] {
        let mut b = ball();
        let h = |d1: f64, d2: f64| Hyper { d1, d2, d12: 0.0 };
        let y = <energy_of_advanced as Frule<_, Hyper<f64, f64>>>::frule(
            &energy_of_advanced {},
            (
                Dual::new(&mut b as &mut dyn Body, &mut NoTangent),
                Dual::new(g, h(1.0, d2.0)),
                Dual::new(dt, h(0.0, d2.1)),
                Dual::constant(n),
            ),
        );
        assert_eq!(y.primal.to_bits(), plain.to_bits());
        assert!(close(y.tangent.d1, eg, 1e-9), "{:?}", y.tangent);
        assert!(
            close(y.tangent.d12, want, 1e-8),
            "{:?} against {want}",
            y.tangent
        );
    }
}

/// `energy_after` on fresh bodies, as a function of `(g, dt)`.
fn energy_after_plain(g: f64, dt: f64) -> f64 {
    energy_after(&mut bodies(), g, dt, 30)
}

fn fd(f: impl Fn(f64, f64) -> f64, g: f64, dt: f64, k: usize) -> f64 {
    let h = 1e-6;
    match k {
        0 => (f(g + h, dt) - f(g - h, dt)) / (2.0 * h),
        _ => (f(g, dt + h * 0.01) - f(g, dt - h * 0.01)) / (2.0 * h * 0.01),
    }
}

#[test]
fn bodies_passed_in_stepped_under_a_differentiated_gravity_in_every_mode() {
    let (g, dt, n) = (9.81, 0.01, 30usize);
    let plain = energy_after_plain(g, dt);
    let want = [
        fd(energy_after_plain, g, dt, 0),
        fd(energy_after_plain, g, dt, 1),
    ];
    for (k, seed) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
        let (mut b, mut t) = (bodies(), no_tangents());
        let y = energy_after_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(g, seed.0),
            Dual::new(dt, seed.1),
            Dual::constant(n),
        );
        assert_eq!(y.primal.to_bits(), plain.to_bits());
        assert!(
            close(y.tangent, want[k], 1e-6),
            "{k}: {} against {}",
            y.tangent,
            want[k]
        );
    }
    let (mut b, mut t) = (bodies(), no_tangents());
    let y = <energy_after as Frule<_, Batch<f64, 2>>>::frule(
        &energy_after {},
        (
            Dual::new(&mut b, &mut t),
            Dual::new(g, Batch([1.0, 0.0])),
            Dual::new(dt, Batch([0.0, 1.0])),
            Dual::constant(n),
        ),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    for (k, want) in want.iter().enumerate() {
        assert!(close(y.tangent.0[k], *want, 1e-6), "{k}: {:?}", y.tangent);
    }
    // ∂²E/∂g² against central differences of the derived ∂E/∂g.
    let eg = |g: f64| {
        let (mut b, mut t) = (bodies(), no_tangents());
        energy_after_frule(
            Dual::new(&mut b, &mut t),
            Dual::new(g, 1.0),
            Dual::new(dt, 0.0),
            Dual::constant(n),
        )
        .tangent
    };
    let fd_gg = (eg(g + 1e-5) - eg(g - 1e-5)) / 2e-5;
    let (mut b, mut t) = (bodies(), no_tangents());
    let one = Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    };
    let y = <energy_after as Frule<_, Hyper<f64, f64>>>::frule(
        &energy_after {},
        (
            Dual::new(&mut b, &mut t),
            Dual::new(g, one),
            Dual::new(
                dt,
                Hyper {
                    d1: 0.0,
                    d2: 0.0,
                    d12: 0.0,
                },
            ),
            Dual::constant(n),
        ),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    assert!(close(y.tangent.d1, want[0], 1e-6), "{:?}", y.tangent);
    assert!(
        close(y.tangent.d12, fd_gg, 1e-6),
        "{:?} against {fd_gg}",
        y.tangent
    );
}

#[test]
fn bodies_passed_in_twice_start_from_a_zero_derivative_each_time() {
    // The state the first call stored beside the bodies is gone when it returns: a second
    // call on the same (stepped) bodies sees constants again.
    let (g, dt, n) = (9.81, 0.01, 10usize);
    let (mut b, mut t) = (bodies(), no_tangents());
    let _ = energy_after_frule(
        Dual::new(&mut b, &mut t),
        Dual::new(g, 1.0),
        Dual::new(dt, 0.0),
        Dual::constant(n),
    );
    let snapshot = |b: &[Box<dyn Body>]| {
        b.iter()
            .map(|b| format!("{:?}", b.energy(1.0)))
            .collect::<Vec<_>>()
    };
    let before = snapshot(&b);
    let y = energy_after_frule(
        Dual::new(&mut b, &mut t),
        Dual::new(g, 1.0),
        Dual::new(dt, 0.0),
        Dual::constant(n),
    );
    assert_ne!(before, snapshot(&b));
    // The plain function from the stepped state, against central differences in g.
    let from = |g: f64| {
        let mut b = bodies();
        energy_after(&mut b, 9.81, dt, n);
        energy_after(&mut b, g, dt, n)
    };
    let want = (from(g + 1e-6) - from(g - 1e-6)) / 2e-6;
    assert_eq!(y.primal.to_bits(), from(g).to_bits());
    assert!(close(y.tangent, want, 1e-6), "{} against {want}", y.tangent);
}

#[test]
fn step_all_on_bodies_passed_in_steps_them_as_the_plain_function() {
    let (mut b, mut t) = (bodies(), no_tangents());
    step_all_frule(
        Dual::new(&mut b[..], &mut t[..]),
        Dual::new(0.01, 1.0),
        Dual::new(9.81, 0.0),
    );
    let mut p = bodies();
    step_all(&mut p, 0.01, 9.81);
    for (b, p) in b.iter().zip(&p) {
        assert_eq!(b.energy(9.81).to_bits(), p.energy(9.81).to_bits());
    }
}

/// A world holding its bodies and its gravity.
#[derive(Differentiable)]
pub struct World {
    pub bodies: Vec<Box<dyn Body>>,
    pub g: f64,
}

/// The world's energy after `steps` steps.
#[derive_frule]
pub fn world_energy(w: &mut World, dt: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        for b in w.bodies.iter_mut() {
            b.update(dt, w.g);
        }
    }
    w.bodies.iter().map(|b| b.energy(w.g)).sum()
}

fn world(g: f64) -> World {
    World {
        bodies: bodies(),
        g,
    }
}

#[test]
fn a_world_holding_its_bodies_passed_in_under_a_differentiated_gravity() {
    let (g, dt, n) = (9.81, 0.01, 30usize);
    let plain = world_energy(&mut world(g), dt, n);
    // The bodies step the same way whether the world or the vector is passed in.
    assert_eq!(
        plain.to_bits(),
        energy_after(&mut bodies(), g, dt, n).to_bits()
    );
    let want = fd(|g, dt| world_energy(&mut world(g), dt, n), g, dt, 0);
    let mut w = world(g);
    let mut t = WorldTangent {
        bodies: no_tangents(),
        g: 1.0,
    };
    let y = world_energy_frule(
        Dual::new(&mut w, &mut t),
        Dual::new(dt, 0.0),
        Dual::constant(n),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    assert!(close(y.tangent, want, 1e-6), "{} against {want}", y.tangent);
    let mut w = world(g);
    let mut t = WorldTangent {
        bodies: no_tangents(),
        g: Batch([1.0, 0.0]),
    };
    let y = <world_energy as Frule<_, Batch<f64, 2>>>::frule(
        &world_energy {},
        (
            Dual::new(&mut w, &mut t),
            Dual::new(dt, Batch([0.0, 1.0])),
            Dual::constant(n),
        ),
    );
    let want_dt = fd(|g, dt| world_energy(&mut world(g), dt, n), g, dt, 1);
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    assert!(close(y.tangent.0[0], want, 1e-6), "{:?}", y.tangent);
    assert!(close(y.tangent.0[1], want_dt, 1e-6), "{:?}", y.tangent);
}

#[derive_frule]
impl World {
    /// Steps every body once.
    pub fn step(&mut self, dt: f64) {
        for b in self.bodies.iter_mut() {
            b.update(dt, self.g);
        }
    }
}

/// The world's energy after `steps` steps of its own `step`.
#[derive_frule]
pub fn world_energy_by_method(w: &mut World, dt: f64, steps: usize) -> f64 {
    for _ in 0..steps {
        w.step(dt);
    }
    w.bodies.iter().map(|b| b.energy(w.g)).sum()
}

#[test]
fn a_world_stepped_by_its_own_method() {
    let (g, dt, n) = (9.81, 0.01, 30usize);
    let plain = world_energy_by_method(&mut world(g), dt, n);
    assert_eq!(
        plain.to_bits(),
        world_energy(&mut world(g), dt, n).to_bits()
    );
    let want = fd(
        |g, dt| world_energy_by_method(&mut world(g), dt, n),
        g,
        dt,
        0,
    );
    let mut w = world(g);
    let mut t = WorldTangent {
        bodies: no_tangents(),
        g: 1.0,
    };
    let y = world_energy_by_method_frule(
        Dual::new(&mut w, &mut t),
        Dual::new(dt, 0.0),
        Dual::constant(n),
    );
    assert_eq!(y.primal.to_bits(), plain.to_bits());
    assert!(close(y.tangent, want, 1e-6), "{} against {want}", y.tangent);
}
