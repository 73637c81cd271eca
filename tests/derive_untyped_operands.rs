//! Operators of the user's state types whose other operand is a value a function returned,
//! bound without its type: `let k1 = deriv(&s); let mid = s + k1 * (0.5 * dt);`, as
//! people write Runge-Kutta steps on a `State` struct. The macro cannot see `k1`'s type;
//! beside a user value's operator it is taken for a user value (a float taken so is still
//! right: the operators' rules serve floats too). Every derivative is checked against
//! central differences of the plain function in every mode (`check_modes!`), primals bit
//! for bit, and an orbit against its closed form.
// Written as users write Runge-Kutta steps (`s = s + k * dt`).
#![allow(clippy::assign_op_pattern)]

use fwdad::prelude::*;
use std::ops::{Add, Mul, Sub};

mod common;
use common::modes::assert_close;

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct State {
    pub x: f64,
    pub v: f64,
}

#[derive_frule]
impl Add for State {
    type Output = State;
    fn add(self, o: State) -> State {
        State {
            x: self.x + o.x,
            v: self.v + o.v,
        }
    }
}

#[derive_frule]
impl Sub for State {
    type Output = State;
    fn sub(self, o: State) -> State {
        State {
            x: self.x - o.x,
            v: self.v - o.v,
        }
    }
}

#[derive_frule]
impl Mul<f64> for State {
    type Output = State;
    fn mul(self, k: f64) -> State {
        State {
            x: self.x * k,
            v: self.v * k,
        }
    }
}

/// A damped oscillator's right-hand side.
#[derive_frule]
fn deriv(s: &State, omega: f64, zeta: f64) -> State {
    State {
        x: s.v,
        v: -omega * omega * s.x - 2.0 * zeta * omega * s.v,
    }
}

/// The spring's stiffness as a helper returns it (a float, bound without its type).
#[derive_frule]
fn stiffness(omega: f64) -> f64 {
    omega * omega
}

#[derive_frule]
fn rk2_final_x(p: &[f64]) -> f64 {
    let (omega, zeta) = (p[0], p[1]);
    let dt = 0.05;
    let mut s = State { x: p[2], v: 0.0 };
    for _ in 0..40 {
        let k1 = deriv(&s, omega, zeta);
        let mid = s + k1 * (0.5 * dt);
        let k2 = deriv(&mid, omega, zeta);
        s = s + k2 * dt;
    }
    s.x
}

#[derive_frule]
fn rk4_energy(p: &[f64]) -> f64 {
    let (omega, zeta) = (p[0], p[1]);
    let dt = 0.05;
    let mut s = State { x: p[2], v: 0.0 };
    for _ in 0..40 {
        let k1 = deriv(&s, omega, zeta);
        let k2 = deriv(&(s + k1 * (dt / 2.0)), omega, zeta);
        let k3 = deriv(&(s + k2 * (dt / 2.0)), omega, zeta);
        let k4 = deriv(&(s + k3 * dt), omega, zeta);
        s = s + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (dt / 6.0);
    }
    let k = stiffness(omega);
    0.5 * s.v * s.v + 0.5 * k * s.x * s.x
}

/// A float a helper returned, beside a user value's operator: the operators' float rows.
#[derive_frule]
fn drifted(p: &[f64]) -> f64 {
    let s = State { x: p[0], v: p[1] };
    let d = State { x: 1.0, v: -0.5 };
    let moved = s - d * (stiffness(p[2]) * 0.1);
    moved.x * moved.v
}

#[test]
fn rk2_with_stages_bound_without_types() {
    let p = [2.0, 0.1, 1.0];
    check_modes!(rk2_final_x {}, rk2_final_x, p);
}

#[test]
fn rk4_with_stages_bound_without_types() {
    let p = [1.5, 0.05, 0.8];
    check_modes!(rk4_energy {}, rk4_energy, p);
    // Undamped: RK4 keeps the energy to O(dt^4); d/dx0 of 0.5 w^2 x0^2 is w^2 x0.
    let q = [1.5, 0.0, 0.8];
    let (_, g) = fwdad::gradient(rk4_energy {}, &q);
    assert_close(g[2], 1.5 * 1.5 * 0.8, 1e-6, "d/dx0 of the energy");
}

#[test]
fn a_float_beside_a_user_operator() {
    let p = [0.3, 0.7, 1.2];
    check_modes!(drifted {}, drifted, p);
    // moved = (x - 0.1 w^2, v + 0.05 w^2)
    let (v, g) = fwdad::gradient(drifted {}, &p);
    let (a, b) = (0.3 - 0.1 * 1.44, 0.7 + 0.05 * 1.44);
    assert_eq!(v, drifted(&p));
    assert_close(g[0], b, 1e-14, "d/dx");
    assert_close(g[1], a, 1e-14, "d/dv");
    assert_close(g[2], -0.2 * 1.2 * b + 0.1 * 1.2 * a, 1e-14, "d/dw");
}

/// Explicit Euler written with `+=` (the user's `AddAssign`).
#[derive_frule]
fn euler_compound(p: &[f64]) -> f64 {
    let dt = 0.01;
    let mut s = State { x: p[0], v: p[1] };
    for _ in 0..50 {
        let k = deriv(&s, 1.3, 0.2);
        s += k * dt;
    }
    s.x + s.v
}

#[derive_frule]
impl std::ops::AddAssign for State {
    fn add_assign(&mut self, o: State) {
        self.x += o.x;
        self.v += o.v;
    }
}

#[test]
fn compound_assignment_with_a_stage_bound_without_its_type() {
    check_modes!(euler_compound {}, euler_compound, [0.4, -0.2]);
}
