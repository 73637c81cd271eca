//! Quickstart: differentiate plain `f64` Rust with `#[derive_frule]`.
//!
//! Run with `cargo run --release --example quickstart`.

// Numeric code is written index-style on purpose: that is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

/// The energy of a chain of springs with stiffness `k` between points `x`, plus a
/// confining potential: ordinary Rust, no generic rewrite.
#[derive_frule]
fn chain_energy(x: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let stretch = x[i + 1] - x[i] - 1.0;
        e += 0.5 * k * stretch * stretch;
    }
    for i in 0..x.len() {
        e += 0.01 * x[i].powi(4);
    }
    e
}

/// Pendulum angle after `steps` steps of a symplectic Euler integrator, from initial angle
/// `theta0`: a simulation with a loop, a branch and `std` math.
#[derive_frule]
fn pendulum(theta0: f64, length: f64, steps: usize) -> f64 {
    let g = 9.81;
    let dt = 0.01;
    let mut theta = theta0;
    let mut omega = 0.0;
    for _ in 0..steps {
        omega -= g / length * theta.sin() * dt;
        theta += omega * dt;
        if theta > std::f64::consts::PI {
            theta -= 2.0 * std::f64::consts::PI;
        }
    }
    theta
}

fn main() {
    let x = [0.0, 1.2, 1.9, 3.4];
    // Gradient of the energy: one forward pass per coordinate direction.
    let mut grad = Vec::new();
    for i in 0..x.len() {
        let mut dx = [0.0; 4];
        dx[i] = 1.0;
        grad.push(chain_energy_frule(Dual::new(&x[..], &dx[..]), Dual::new(2.0, 0.0)).tangent);
    }
    let e = chain_energy(&x, 2.0);
    println!("chain energy E(x) = {e:.6}");
    println!("gradient dE/dx   = {grad:.6?}");

    // Check one component against a central finite difference.
    let h = 1e-6;
    let mut xp = x;
    let mut xm = x;
    xp[1] += h;
    xm[1] -= h;
    let fd = (chain_energy(&xp, 2.0) - chain_energy(&xm, 2.0)) / (2.0 * h);
    println!(
        "  finite difference on x[1]: {fd:.6} (exact: {:.6})",
        grad[1]
    );

    // Sensitivity of a simulation to its initial condition and to a parameter.
    let d_theta0 = pendulum_frule(
        Dual::new(0.5, 1.0),
        Dual::new(1.0, 0.0),
        Dual::constant(500),
    );
    let d_length = pendulum_frule(
        Dual::new(0.5, 0.0),
        Dual::new(1.0, 1.0),
        Dual::constant(500),
    );
    assert_eq!(d_theta0.primal, pendulum(0.5, 1.0, 500)); // the rule's value is the function's
    println!("pendulum angle after 5 s    = {:.6}", d_theta0.primal);
    println!("  d angle / d initial angle = {:.6}", d_theta0.tangent);
    println!("  d angle / d length        = {:.6}", d_length.tangent);

    // Both directions in one pass (batch mode): the same derived rule, batched tangents.
    let both = <pendulum as Frule<_, Batch<f64, 2>>>::frule(
        &pendulum {},
        (
            Dual::new(0.5, Batch([1.0, 0.0])),
            Dual::new(1.0, Batch([0.0, 1.0])),
            Dual::constant(500),
        ),
    );
    println!("  both in one batched pass  = {:.6?}", both.tangent.0);
}
