//! Rules derived in a `#![no_std]` crate without an allocator: what firmware for a
//! controller or a robot arm writes. The float methods are `num_traits::Float`'s (through
//! `libm` without `std`), as `no_std` code calls them; `#[derive_frule]` generates each
//! `_frule` beside the function, and both build for `thumbv7em-none-eabihf`.
//!
//! The tests (`tests/rules.rs`, which run with `std`) check the rules against analytic
//! derivatives.

#![no_std]

use fwdad::{derive_frule, Differentiable};
// Where `std` is in the build (the tests), its inherent `f64` methods are found first.
#[allow(unused_imports)]
use num_traits::Float;

/// A PID controller: gains and the state it carries from one sample to the next.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Pid {
    pub kp: f64,
    pub ki: f64,
    pub kd: f64,
    pub integral: f64,
    pub prev_error: f64,
}

#[derive_frule]
impl Pid {
    /// One sample: the control output for `measured` against `setpoint`, `dt` after the
    /// previous sample.
    pub fn step(&mut self, setpoint: f64, measured: f64, dt: f64) -> f64 {
        let error = setpoint - measured;
        self.integral += error * dt;
        let derivative = (error - self.prev_error) / dt;
        self.prev_error = error;
        self.kp * error + self.ki * self.integral + self.kd * derivative
    }
}

/// Position of the end effector of a planar two-link arm at joint angles `q`.
#[derive_frule]
pub fn forward_kinematics(q: [f64; 2], l1: f64, l2: f64) -> [f64; 2] {
    let x = l1 * q[0].cos() + l2 * (q[0] + q[1]).cos();
    let y = l1 * q[0].sin() + l2 * (q[0] + q[1]).sin();
    [x, y]
}

/// Joint angles (elbow down) that put the end effector of the two-link arm at `target`.
#[derive_frule]
pub fn inverse_kinematics(target: [f64; 2], l1: f64, l2: f64) -> [f64; 2] {
    let [x, y] = target;
    let c2 = (x * x + y * y - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
    let s2 = (1.0 - c2 * c2).sqrt();
    let q2 = s2.atan2(c2);
    let q1 = y.atan2(x) - (l2 * s2).atan2(l1 + l2 * c2);
    [q1, q2]
}

/// Residual of one implicit Euler step of three masses between hardening springs
/// (`k·s + k·s³`) with damping `c`, fixed to walls at both ends. The state is the three
/// positions, then the three velocities.
#[derive_frule]
pub fn euler_residual(
    next: &[f64; 6],
    prev: &[f64; 6],
    k: f64,
    c: f64,
    dt: f64,
    out: &mut [f64; 6],
) {
    for i in 0..3 {
        let left = if i == 0 { 0.0 } else { next[i - 1] };
        let right = if i == 2 { 0.0 } else { next[i + 1] };
        let s_left = next[i] - left;
        let s_right = right - next[i];
        let force =
            -k * (s_left + s_left.powi(3)) + k * (s_right + s_right.powi(3)) - c * next[3 + i];
        out[i] = next[i] - prev[i] - dt * next[3 + i];
        out[3 + i] = next[3 + i] - prev[3 + i] - dt * force;
    }
}
