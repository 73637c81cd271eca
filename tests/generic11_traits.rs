//! Generic traits as library authors write them (fourteenth session): a stepper generic
//! over its scalar whose default method loops over the required one (`trait
//! Integrator<T: Float> { fn step(..); fn run(..) { .. self.step(..) .. } }`), an `impl`
//! that keeps the default and one that overrides it, and calls on a concrete value and
//! through a type parameter bounded by the trait (`fn final_state<I: Integrator<f64>>`);
//! ode_solvers' `System<T, V>` (`fn system(&self, x: T, y: &V, dy: &mut V)` with its
//! default `solout`) driven by a Runge-Kutta step generic over `S: System<f64, [f64; 2]>`.
//! Each annotated unmodified.
//!
//! Each is checked by `check_widths!` (one direction, batches of 1 to 16 lanes, second
//! order, against central differences; primals bit for bit) and, where there is one,
//! against a closed form.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::jvp;
use fwdad::prelude::*;
use num_traits::Float;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// A stepper generic over its scalar, with a default method
// ---------------------------------------------------------------------------------------

/// A one-step method for `y' = f(t, y)`, generic over the scalar, with the time loop as a
/// default method, as ODE crates declare their steppers.
#[derive_frule]
pub trait Integrator<T: Float> {
    /// One step of size `h` from `(t, y)`.
    fn step(&self, t: T, y: T, h: T) -> T;

    /// `n` steps of size `h` from `(t0, y0)`.
    fn run(&self, t0: T, y0: T, h: T, n: usize) -> T {
        let mut t = t0;
        let mut y = y0;
        for _ in 0..n {
            y = self.step(t, y, h);
            t = t + h;
        }
        y
    }
}

/// Explicit Euler for logistic growth, `y' = r y (1 - y / k)`.
#[derive(Clone, Debug, Differentiable)]
pub struct LogisticEuler {
    pub r: f64,
    pub k: f64,
}

#[derive_frule]
impl Integrator<f64> for LogisticEuler {
    fn step(&self, _t: f64, y: f64, h: f64) -> f64 {
        y + h * self.r * y * (1.0 - y / self.k)
    }
}

/// Linear decay `y' = -a y`, stepped by its exact flow, whose `run` is the closed form.
#[derive(Clone, Debug, Differentiable)]
pub struct Decay {
    pub a: f64,
}

#[derive_frule]
impl Integrator<f64> for Decay {
    fn step(&self, _t: f64, y: f64, h: f64) -> f64 {
        y * (-self.a * h).exp()
    }

    fn run(&self, _t0: f64, y0: f64, h: f64, n: usize) -> f64 {
        y0 * (-self.a * h * n as f64).exp()
    }
}

/// The default method on a value of a concrete type.
#[derive_frule]
pub fn logistic_at(p: &[f64]) -> f64 {
    let scheme = LogisticEuler { r: p[0], k: p[1] };
    scheme.run(0.0, p[2], 0.05, 40)
}

/// Through a type parameter bounded by the generic trait.
#[derive_frule]
pub fn final_state<I: Integrator<f64>>(scheme: &I, y0: f64, h: f64) -> f64 {
    scheme.run(0.0, y0, h, 40)
}

#[derive_frule]
pub fn logistic_through_bound(p: &[f64]) -> f64 {
    let scheme = LogisticEuler { r: p[0], k: p[1] };
    final_state(&scheme, p[2], 0.05)
}

#[derive_frule]
pub fn decay_through_bound(p: &[f64]) -> f64 {
    let scheme = Decay { a: p[0] };
    final_state(&scheme, p[1], 0.1)
}

/// The logistic Euler map written out by hand: the reference the rules are checked
/// against, independent of the trait.
fn logistic_by_hand(r: f64, k: f64, y0: f64, h: f64, n: usize) -> f64 {
    let mut y = y0;
    for _ in 0..n {
        y += h * r * y * (1.0 - y / k);
    }
    y
}

#[test]
fn default_method_of_a_generic_trait() {
    let p = [1.3, 2.0, 0.2];
    check_widths!(logistic_at {}, logistic_at, p);
    let (v, g) = gradient(logistic_at {}, &p);
    assert_eq!(
        v.to_bits(),
        logistic_by_hand(p[0], p[1], p[2], 0.05, 40).to_bits()
    );
    let fd = fd_gradient(
        &|q: &[f64]| logistic_by_hand(q[0], q[1], q[2], 0.05, 40),
        &p,
    );
    for k in 0..3 {
        assert_close(g[k], fd[k], 1e-7, "d logistic");
    }
}

#[test]
fn through_a_bounded_type_parameter() {
    let p = [1.3, 2.0, 0.2];
    check_widths!(logistic_through_bound {}, logistic_through_bound, p);
    let (_, g1) = gradient(logistic_at {}, &p);
    let (_, g2) = gradient(logistic_through_bound {}, &p);
    assert_eq!(g1, g2, "the same rule on a value and through the bound");
    // The overridden `run`: y0 e^{-a h n}.
    let q = [0.7, 1.5];
    check_widths!(decay_through_bound {}, decay_through_bound, q);
    let (v, g) = gradient(decay_through_bound {}, &q);
    let e = (-q[0] * 0.1 * 40.0).exp();
    assert_close(v, q[1] * e, 1e-15, "y(T)");
    assert_close(g[0], -0.1 * 40.0 * q[1] * e, 1e-14, "dy/da");
    assert_close(g[1], e, 1e-15, "dy/dy0");
}

// ---------------------------------------------------------------------------------------
// ode_solvers' `System<T, V>`
// ---------------------------------------------------------------------------------------

/// ode_solvers 0.4's trait for the system `dy/dx = f(x, y)` (its definition, the
/// `solout` default included).
#[derive_frule]
pub trait System<T, V> {
    /// System of ordinary differential equations.
    fn system(&self, x: T, y: &V, dy: &mut V);
    /// Stop function called at every successful integration step. The integration is
    /// stopped when this function returns true.
    fn solout(&mut self, _x: T, _y: &V, _dy: &V) -> bool {
        false
    }
}

/// A damped pendulum, `θ'' = -(g / l) sin θ - c θ'`.
#[derive(Clone, Debug, Differentiable)]
pub struct Pendulum {
    pub g_over_l: f64,
    pub damping: f64,
}

#[derive_frule]
impl System<f64, [f64; 2]> for Pendulum {
    fn system(&self, _x: f64, y: &[f64; 2], dy: &mut [f64; 2]) {
        dy[0] = y[1];
        dy[1] = -self.g_over_l * y[0].sin() - self.damping * y[1];
    }
}

/// The classical Runge-Kutta step over any such system.
#[derive_frule]
pub fn rk4_step<S: System<f64, [f64; 2]>>(sys: &S, x: f64, y: &[f64; 2], h: f64) -> [f64; 2] {
    let mut k1 = [0.0; 2];
    sys.system(x, y, &mut k1);
    let y2 = [y[0] + 0.5 * h * k1[0], y[1] + 0.5 * h * k1[1]];
    let mut k2 = [0.0; 2];
    sys.system(x + 0.5 * h, &y2, &mut k2);
    let y3 = [y[0] + 0.5 * h * k2[0], y[1] + 0.5 * h * k2[1]];
    let mut k3 = [0.0; 2];
    sys.system(x + 0.5 * h, &y3, &mut k3);
    let y4 = [y[0] + h * k3[0], y[1] + h * k3[1]];
    let mut k4 = [0.0; 2];
    sys.system(x + h, &y4, &mut k4);
    let mut out = [0.0; 2];
    for i in 0..2 {
        out[i] = y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    out
}

#[derive_frule]
pub fn swing(p: &[f64]) -> f64 {
    let sys = Pendulum {
        g_over_l: p[0],
        damping: p[1],
    };
    let mut y = [p[2], 0.0];
    for i in 0..20 {
        y = rk4_step(&sys, i as f64 * 0.05, &y, 0.05);
    }
    y[0]
}

#[test]
fn ode_solvers_system_through_a_bound() {
    let p = [9.81, 0.3, 0.4];
    check_widths!(swing {}, swing, p);
}
