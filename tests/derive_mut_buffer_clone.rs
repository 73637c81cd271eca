//! A `&mut Vec<f64>` parameter cloned before it is updated in place (`let old = u.clone();`,
//! an explicit finite-difference step): the rule clones the buffer's tangent with it. The
//! heat equation on a rod, d(heat left)/d(κ, amplitude), in every mode against central
//! differences, the primal bit for bit, the buffer left as the plain step leaves it.
// The step takes `&mut Vec<f64>` as its author wrote it (the point of the test).
#![allow(clippy::ptr_arg)]

use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

#[derive_frule]
fn step(u: &mut Vec<f64>, kappa: f64, dt: f64, dx: f64) {
    let n = u.len();
    let old = u.clone();
    for i in 1..n - 1 {
        u[i] = old[i] + kappa * dt / (dx * dx) * (old[i - 1] - 2.0 * old[i] + old[i + 1]);
    }
}

#[derive_frule]
fn heat_left(p: &[f64]) -> f64 {
    let (kappa, amp) = (p[0], p[1]);
    let n = 21;
    let dx = 1.0 / (n - 1) as f64;
    let mut u: Vec<f64> = (0..n)
        .map(|i| amp * (std::f64::consts::PI * i as f64 * dx).sin())
        .collect();
    let dt = 0.4 * dx * dx;
    for _ in 0..60 {
        step(&mut u, kappa, dt, dx);
    }
    u.iter().sum::<f64>() * dx
}

#[test]
fn heat_equation_in_every_mode() {
    check_modes!(heat_left {}, heat_left, [0.9, 1.3]);
}

#[test]
fn the_buffer_and_its_tangent_after_one_step() {
    // One step from u = (0, a, 2a, a, 0) with r = κ dt / dx²: u₂ = 2a + r (a - 4a + a).
    let (kappa, dt, dx) = (0.5, 0.1, 0.5);
    let r = kappa * dt / (dx * dx);
    let a = 1.5;
    let mut plain = vec![0.0, a, 2.0 * a, a, 0.0];
    step(&mut plain, kappa, dt, dx);
    let mut u = vec![0.0, a, 2.0 * a, a, 0.0];
    let mut du = vec![0.0, 1.0, 2.0, 1.0, 0.0]; // d/da
    step_frule(
        Dual::new(&mut u, &mut du),
        Dual::constant(kappa),
        Dual::constant(dt),
        Dual::constant(dx),
    );
    assert_eq!(u, plain);
    assert_close(du[2], 2.0 - 2.0 * r, 1e-15, "d u₂ / da");
    assert_close(du[1], 1.0 + r * (0.0 - 2.0 + 2.0), 1e-15, "d u₁ / da");
}
