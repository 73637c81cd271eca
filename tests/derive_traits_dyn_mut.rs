//! `&mut self` methods through trait objects that carry derivatives: a particle system of
//! two kinds of bodies boxed in the function from its parameters and stepped through
//! `for b in bodies.iter_mut() { b.update(dt, g); }`, then read by `b.energy(g)`, as a
//! physicist writes it; oscillators of two integrators stepped the same way. Checked in one
//! direction, in batches and at second order against central differences of the plain
//! functions and against the closed form of semi-implicit Euler, each primal bit for bit.
//! Bodies passed in from outside are constants there; what stepping them stores keeps its
//! derivative while the function runs (`tests/traits9_mut_dyn_passed_in.rs`).

mod common;

use fwdad::prelude::*;

/// A body falling under gravity `g`.
#[derive_frule]
pub trait Body {
    fn update(&mut self, dt: f64, g: f64);
    fn energy(&self, g: f64) -> f64;
    fn height(&self) -> f64;
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
    fn height(&self) -> f64 {
        self.h
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
    fn height(&self) -> f64 {
        self.h
    }
}

/// The bodies' total energy after `steps` steps: `x = [h0, v0, m, h1, v1, drag, g]`.
#[derive_frule]
pub fn total_energy(x: &[f64], dt: f64, steps: usize) -> f64 {
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
        for b in bodies.iter_mut() {
            b.update(dt, g);
        }
    }
    bodies.iter().map(|b| b.energy(g)).sum()
}

/// The ball's height after `steps` steps, its parameters `x = [h0, v0, g]`.
#[derive_frule]
pub fn ball_height(x: &[f64], dt: f64, steps: usize) -> f64 {
    let mut bodies: Vec<Box<dyn Body>> = vec![Box::new(Ball {
        h: x[0],
        v: x[1],
        m: 1.0,
    })];
    for _ in 0..steps {
        for b in bodies.iter_mut() {
            b.update(dt, x[2]);
        }
    }
    let mut top = 0.0;
    for b in &bodies {
        top += b.height();
    }
    top
}

/// A drop from fixed heights under gravity `g`: the bodies are built from constants, and
/// the steps make their state depend on `g`.
#[derive_frule]
pub fn drop_energy(g: f64, dt: f64, steps: usize) -> f64 {
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: 10.0,
            v: 0.0,
            m: 2.0,
        }),
        Box::new(Feather {
            h: 5.0,
            v: 0.0,
            drag: 0.3,
        }),
    ];
    for _ in 0..steps {
        for b in bodies.iter_mut() {
            b.update(dt, g);
        }
    }
    bodies.iter().map(|b| b.height() * b.height()).sum()
}

/// A one-dimensional integrator of `x'' = -k x`.
#[derive_frule]
pub trait Integrator {
    fn step(&mut self, k: f64, dt: f64);
    fn position(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct SymplecticEuler {
    pub x: f64,
    pub v: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Verlet {
    pub x: f64,
    pub x_prev: f64,
}

/// Without `Clone`: stepped through `dyn` in one direction only.
#[derive(Debug, Differentiable)]
pub struct Logged {
    pub x: f64,
    pub v: f64,
    pub steps: usize,
}

#[derive_frule]
impl Integrator for SymplecticEuler {
    fn step(&mut self, k: f64, dt: f64) {
        self.v -= k * self.x * dt;
        self.x += self.v * dt;
    }
    fn position(&self) -> f64 {
        self.x
    }
}

#[derive_frule]
impl Integrator for Verlet {
    fn step(&mut self, k: f64, dt: f64) {
        let next = 2.0 * self.x - self.x_prev - k * self.x * dt * dt;
        self.x_prev = self.x;
        self.x = next;
    }
    fn position(&self) -> f64 {
        self.x
    }
}

#[derive_frule]
impl Integrator for Logged {
    fn step(&mut self, k: f64, dt: f64) {
        self.v -= k * self.x * dt;
        self.x += self.v * dt;
        self.steps += 1;
    }
    fn position(&self) -> f64 {
        self.x
    }
}

/// Two integrators of the same oscillator of stiffness `k` from `x0` at rest, `n` steps:
/// the sum of the squared positions.
#[derive_frule]
pub fn oscillators(k: f64, x0: f64, dt: f64, n: usize) -> f64 {
    let mut its: Vec<Box<dyn Integrator>> = vec![
        Box::new(SymplecticEuler { x: x0, v: 0.0 }),
        Box::new(Verlet { x: x0, x_prev: x0 }),
    ];
    for it in its.iter_mut() {
        for _ in 0..n {
            it.step(k, dt);
        }
    }
    its.iter().map(|it| it.position() * it.position()).sum()
}

/// An integrator whose type is not `Clone`.
#[derive_frule]
pub fn logged(k: f64, x0: f64) -> f64 {
    let mut its: Vec<Box<dyn Integrator>> = vec![Box::new(Logged {
        x: x0,
        v: 0.0,
        steps: 0,
    })];
    for it in its.iter_mut() {
        it.step(k, 0.1);
    }
    its.iter().map(|it| it.position()).sum()
}

/// Stepping bodies that were passed in: constants, whose state comes to depend on `g`.
#[derive_frule]
pub fn step_given(bodies: &mut Vec<Box<dyn Body>>, g: f64, dt: f64) -> f64 {
    for b in bodies.iter_mut() {
        b.update(dt, g);
    }
    bodies.iter().map(|b| b.energy(g)).sum()
}

#[test]
fn a_ball_and_a_feather_stepped_through_dyn_in_every_mode() {
    let x = [2.0, 0.5, 1.3, 1.5, -0.2, 0.4, 9.81];
    check_modes!(
        bind(total_energy {}, (Wrt, 0.01, 40)),
        |x: &[f64]| total_energy(x, 0.01, 40),
        x
    );
}

#[test]
fn a_ball_stepped_through_dyn_against_semi_implicit_euler() {
    // Semi-implicit Euler: vₙ = v₀ - n g dt, hₙ = h₀ + n dt v₀ - g dt² n(n+1)/2, so
    // ∂hₙ/∂h₀ = 1, ∂hₙ/∂v₀ = n dt, ∂hₙ/∂g = -dt² n(n+1)/2.
    let (dt, n) = (0.02, 25usize);
    let x = [3.0, 1.2, 9.81];
    let (h, g) = gradient(bind(ball_height {}, (Wrt, dt, n)), &x);
    assert_eq!(h.to_bits(), ball_height(&x, dt, n).to_bits());
    let nf = n as f64;
    let want = [1.0, nf * dt, -dt * dt * nf * (nf + 1.0) / 2.0];
    for k in 0..3 {
        assert!(
            (g[k] - want[k]).abs() < 1e-9 * (1.0 + want[k].abs()),
            "∂h/∂x{k}: {} against {}",
            g[k],
            want[k]
        );
    }
    check_modes!(
        bind(ball_height {}, (Wrt, dt, n)),
        |x: &[f64]| ball_height(x, dt, n),
        x
    );
}

#[test]
fn bodies_passed_in_take_a_derivative() {
    // One step of a ball at rest from h = 1: v = -g dt, h = 1 - g dt², and
    // E = g h + v²/2 = g - g² dt² / 2, so ∂E/∂g = 1 - g dt² (∂h/∂g, ∂v/∂g through the step).
    let ball = || -> Vec<Box<dyn Body>> {
        vec![Box::new(Ball {
            h: 1.0,
            v: 0.0,
            m: 1.0,
        })]
    };
    let (g, dt) = (9.81, 0.01);
    let mut bodies = ball();
    let mut no_tangents: Vec<Box<NoTangent>> = vec![Box::new(NoTangent)];
    let y = step_given_frule(
        Dual::new(&mut bodies, &mut no_tangents),
        Dual::new(g, 1.0),
        Dual::new(dt, 0.0),
    );
    assert_eq!(y.primal.to_bits(), step_given(&mut ball(), g, dt).to_bits());
    let want = 1.0 - g * dt * dt;
    assert!(
        (y.tangent - want).abs() < 1e-12,
        "{} against {want}",
        y.tangent
    );
}

#[test]
fn bodies_built_from_constants_stepped_under_a_differentiated_gravity_in_every_mode() {
    check_modes!(
        bind(drop_energy {}, (Var(0), 0.01, 50)),
        |x: &[f64]| drop_energy(x[0], 0.01, 50),
        [9.81]
    );
    // The ball: hₙ = 10 - g dt² n(n+1)/2, so ∂(hₙ²)/∂g = -2 hₙ dt² n(n+1)/2; the feather
    // by central differences in `check_modes!`.
    let (dt, n) = (0.01, 50usize);
    let nf = n as f64;
    let hb = |g: f64| 10.0 - g * dt * dt * nf * (nf + 1.0) / 2.0;
    let feather = |g: f64| drop_energy(g, dt, n) - hb(g) * hb(g);
    let (_, d) = derivative(bind(drop_energy {}, (Var(0), dt, n)), 9.81);
    let fd = (feather(9.81 + 1e-6) - feather(9.81 - 1e-6)) / 2e-6;
    let want = -2.0 * hb(9.81) * dt * dt * nf * (nf + 1.0) / 2.0 + fd;
    assert!(
        (d - want).abs() < 1e-6 * (1.0 + want.abs()),
        "{d} against {want}"
    );
}

#[test]
fn two_integrators_stepped_through_dyn_in_every_mode() {
    check_modes!(
        bind(oscillators {}, (Var(0), Var(1), 0.05, 30)),
        |x: &[f64]| oscillators(x[0], x[1], 0.05, 30),
        [4.0, 0.7]
    );
    // Both are linear in x0: ∂f/∂x0 = 2 f / x0.
    let (f, g) = gradient(
        bind(oscillators {}, (Var(0), Var(1), 0.05, 30)),
        &[4.0, 0.7],
    );
    assert!((g[1] - 2.0 * f / 0.7).abs() < 1e-12 * (1.0 + g[1].abs()));
}

#[test]
fn a_type_without_clone_in_one_direction() {
    // One step: v = -k x0 dt, x = x0 (1 - k dt²).
    let (x, d) = derivative(bind(logged {}, (Var(0), 0.8)), 2.0);
    assert_eq!(x.to_bits(), logged(2.0, 0.8).to_bits());
    assert!((d - (-0.8 * 0.01)).abs() < 1e-15, "{d}");
}

#[test]
#[should_panic(expected = "must be `Clone`")]
fn a_type_without_clone_in_a_batch_of_directions() {
    let _ = gradient(bind(logged {}, (Var(0), Var(1))), &[2.0, 0.8]);
}
