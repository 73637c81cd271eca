//! Iterators of the user's: `impl Iterator for T` with `#[derive_frule]` on the impl, read
//! by `for` loops (`for t in Linspace::new(..)`, `.enumerate()`, a local, a struct
//! literal), by chains ending in `sum`/`fold`/`collect`, and, for an endless one (a
//! Halton sequence, a learning-rate schedule, an explicit Euler integrator), through
//! `take(n)`. Each function is
//! differentiated unmodified and checked in one direction, batched and at second order
//! against central differences of the plain function (primals bit for bit), and against
//! closed forms where the sum has one.
// Written as users write them.
#![allow(clippy::needless_range_loop, clippy::while_let_on_iterator)]

use fwdad::drivers::{bind, gradient, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// `n` evenly spaced points from `a` to `b`, as numpy's `linspace`.
#[derive(Clone, Debug, Differentiable)]
pub struct Linspace {
    a: f64,
    b: f64,
    n: usize,
    i: usize,
}

#[derive_frule]
impl Linspace {
    pub fn new(a: f64, b: f64, n: usize) -> Self {
        Linspace { a, b, n, i: 0 }
    }
}

#[derive_frule]
impl Iterator for Linspace {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        if self.i >= self.n {
            return None;
        }
        let t = self.a + (self.b - self.a) * self.i as f64 / (self.n - 1) as f64;
        self.i += 1;
        Some(t)
    }
}

/// The van der Corput / Halton radical inverse in base `base`: an endless low-discrepancy
/// sequence in (0, 1), its digits taken from integer fields.
#[derive(Clone, Debug, Differentiable)]
pub struct Halton {
    base: u32,
    i: u32,
}

#[derive_frule]
impl Iterator for Halton {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        self.i += 1;
        let mut f = 1.0;
        let mut r = 0.0;
        let mut i = self.i;
        while i > 0 {
            f /= self.base as f64;
            r += f * (i % self.base) as f64;
            i /= self.base;
        }
        Some(r)
    }
}

/// A learning-rate schedule: an endless geometric sequence.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Schedule {
    lr: f64,
    decay: f64,
}

#[derive_frule]
impl Iterator for Schedule {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        let current = self.lr;
        self.lr *= self.decay;
        Some(current)
    }
}

/// Explicit Euler steps of x' = -k x: an endless trajectory.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Decay {
    k: f64,
    x: f64,
    dt: f64,
}

#[derive_frule]
impl Iterator for Decay {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        self.x -= self.k * self.x * self.dt;
        Some(self.x)
    }
}

/// Simpson's rule for ∫₀ᵇ exp(-a t²) dt on 101 points.
#[derive_frule]
pub fn simpson(p: &[f64]) -> f64 {
    let (a, b) = (p[0], p[1]);
    let n = 101;
    let h = b / (n - 1) as f64;
    let mut s = 0.0;
    for (k, t) in Linspace::new(0.0, b, n).enumerate() {
        let w = if k == 0 || k == n - 1 {
            1.0
        } else if k % 2 == 1 {
            4.0
        } else {
            2.0
        };
        s += w * (-a * t * t).exp();
    }
    s * h / 3.0
}

/// The mean of cos(t²) over `linspace(a, b, 50)`.
#[derive_frule]
pub fn mean_cos(p: &[f64]) -> f64 {
    let n = 50;
    Linspace::new(p[0], p[1], n)
        .map(|t| (t * t).cos())
        .sum::<f64>()
        / n as f64
}

/// A loop over a local bound to the iterator, with `continue`.
#[derive_frule]
pub fn skipping_sum(p: &[f64]) -> f64 {
    let grid = Linspace::new(p[0], p[1], 30);
    let mut acc = 0.0;
    for t in grid {
        if t < 0.9 {
            continue;
        }
        acc += t.sin() * p[1];
    }
    acc
}

/// A `while let` over `it.next()` of a local `Linspace::new(..)` gave, its type unwritten.
#[derive_frule]
pub fn while_next(p: &[f64]) -> f64 {
    let mut it = Linspace::new(p[0], p[1], 25);
    let mut acc = 0.0;
    while let Some(t) = it.next() {
        acc += (t * p[1]).cos();
    }
    acc
}

/// Samples collected, then read by index.
#[derive_frule]
pub fn collected(p: &[f64]) -> f64 {
    let ts: Vec<f64> = Linspace::new(p[0], p[1], 11).map(|t| t * t).collect();
    ts[3] + ts[10] * p[0]
}

/// Quasi-Monte Carlo: the mean of a·sin(ω u) over the first 64 Halton points.
#[derive_frule]
pub fn qmc_mean(p: &[f64]) -> f64 {
    let omega = p[0];
    Halton { base: 2, i: 0 }
        .take(64)
        .map(|u| (omega * u).sin() * p[1])
        .sum::<f64>()
        / 64.0
}

/// The distance gradient descent travels on a slope `g` in 20 steps of the schedule.
#[derive_frule]
pub fn travelled(p: &[f64]) -> f64 {
    let (lr0, decay, slope) = (p[0], p[1], p[2]);
    Schedule { lr: lr0, decay }
        .take(20)
        .map(|lr| lr * slope)
        .sum::<f64>()
}

/// The state after 100 Euler steps, read by a `for` loop over `take`.
#[derive_frule]
pub fn decayed(p: &[f64]) -> f64 {
    let mut last = p[1];
    for x in (Decay {
        k: p[0],
        x: p[1],
        dt: 0.01,
    })
    .take(100)
    {
        last = x;
    }
    last
}

/// The trajectory's sum by `fold` over `take`.
#[derive_frule]
pub fn decay_area(p: &[f64]) -> f64 {
    let d = Decay {
        k: p[0],
        x: p[1],
        dt: 0.01,
    };
    d.take(50).fold(0.0, |acc, x| acc + x * 0.01)
}

#[test]
fn simpson_over_a_linspace_in_every_mode() {
    check_modes!(simpson {}, simpson, [0.7, 1.3]);
}

#[test]
fn a_map_and_sum_over_a_linspace_in_every_mode() {
    check_modes!(mean_cos {}, mean_cos, [0.2, 1.7]);
}

#[test]
fn a_loop_with_continue_over_a_local_iterator_in_every_mode() {
    check_modes!(skipping_sum {}, skipping_sum, [0.3, 2.1]);
}

#[test]
fn next_on_an_untyped_local_in_every_mode() {
    check_modes!(while_next {}, while_next, [0.2, 1.4]);
}

#[test]
fn collected_samples_in_every_mode() {
    check_modes!(collected {}, collected, [0.4, 1.5]);
}

#[test]
fn an_endless_sequence_of_integer_digits_in_every_mode() {
    check_modes!(qmc_mean {}, qmc_mean, [2.3, 1.1]);
}

#[test]
fn qmc_mean_matches_the_sum_written_out() {
    // The first 64 base-2 radical inverses, computed here independently.
    let us: Vec<f64> = (1..=64u32)
        .map(|mut i| {
            let (mut f, mut r) = (1.0, 0.0);
            while i > 0 {
                f /= 2.0;
                r += f * (i % 2) as f64;
                i /= 2;
            }
            r
        })
        .collect();
    let (w, a) = (2.3, 1.1);
    let (_, g) = gradient(bind(qmc_mean {}, (Wrt,)), &[w, a]);
    let dw: f64 = us.iter().map(|u| u * (w * u).cos() * a).sum::<f64>() / 64.0;
    let da: f64 = us.iter().map(|u| (w * u).sin()).sum::<f64>() / 64.0;
    assert_close(g[0], dw, 1e-13, "d/dω");
    assert_close(g[1], da, 1e-13, "d/da");
}

#[test]
fn an_endless_schedule_bounded_by_take_in_every_mode() {
    check_modes!(travelled {}, travelled, [0.1, 0.9, 2.0]);
}

#[test]
fn travelled_matches_the_geometric_sum() {
    // Σₖ₌₀¹⁹ lr₀ dᵏ g: ∂/∂lr₀ = g Σ dᵏ, ∂/∂d = lr₀ g Σ k dᵏ⁻¹, ∂/∂g = lr₀ Σ dᵏ.
    let (lr0, d, g0) = (0.1, 0.9, 2.0);
    let (_, g) = gradient(bind(travelled {}, (Wrt,)), &[lr0, d, g0]);
    let s: f64 = (0..20).map(|k| d.powi(k)).sum();
    let sk: f64 = (1..20).map(|k| k as f64 * d.powi(k - 1)).sum();
    assert_close(g[0], g0 * s, 1e-13, "d/dlr0");
    assert_close(g[1], lr0 * g0 * sk, 1e-12, "d/ddecay");
    assert_close(g[2], lr0 * s, 1e-13, "d/dslope");
}

#[test]
fn euler_steps_match_the_closed_form() {
    // x₁₀₀ = x₀ (1 - k dt)¹⁰⁰.
    let (k, x0, dt) = (0.8, 2.0, 0.01);
    check_modes!(decayed {}, decayed, [k, x0]);
    let (v, g) = gradient(bind(decayed {}, (Wrt,)), &[k, x0]);
    let q: f64 = 1.0 - k * dt;
    assert_close(v, x0 * q.powi(100), 1e-13, "x₁₀₀");
    assert_close(g[0], -x0 * 100.0 * q.powi(99) * dt, 1e-12, "d/dk");
    assert_close(g[1], q.powi(100), 1e-13, "d/dx₀");
}

#[test]
fn a_fold_over_a_bounded_trajectory_in_every_mode() {
    check_modes!(decay_area {}, decay_area, [0.8, 2.0]);
    // Σₙ₌₁⁵⁰ x₀ qⁿ dt, d/dx₀ = dt Σ qⁿ.
    let q: f64 = 1.0 - 0.8 * 0.01;
    let want: f64 = (1..=50).map(|n| q.powi(n) * 0.01).sum();
    let (_, g) = gradient(bind(decay_area {}, (Wrt,)), &[0.8, 2.0]);
    assert_close(g[1], want, 1e-13, "d/dx₀");
}
