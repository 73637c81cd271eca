//! pid 4.0.0 (MIT OR Apache-2.0, Copyright (c) 2018 Ken Elkabany,
//! <https://github.com/braincore/pid-rs>): a PID controller generic over
//! `num_traits::float::FloatCore`, with per-term limits, an integral term that stores
//! `ki`-weighted errors, and derivative on measurement; its state updated through
//! `&mut self` and builder methods returning `&mut Self`. The crate's `src/lib.rs` is
//! copied here as this file's root with `#[fwdad::derive_frule]` on `impl<T> Pid<T>` and
//! on `apply_limit`, and `fwdad::Differentiable` added to the derive lists of `Pid` and
//! `ControlOutput`; left out: `#![no_std]` and its tests.
//!
//! A closed loop (the controller driving a first-order plant) is differentiated with respect
//! to the gains and the setpoint, against central differences of the same loop run with the
//! published crate and, over the first steps, against the controller's closed form; primals
//! bit for bit against the published crate.

// pid's `cfg_attr(feature = "serde", ..)`, a feature this crate does not have; its
// `output: output`.
#![allow(unexpected_cfgs, clippy::redundant_field_names)]

mod common;

// ---- pid 4.0.0, src/lib.rs (its crate documentation is kept as comments) ----

// A proportional-integral-derivative (PID) controller library.
//
// See [Pid] for the adjustable controller itself, as well as [ControlOutput] for the outputs and weights which you can use after setting up your controller. Follow the complete example below to setup your first controller!
//
// # Example
//
// ```rust
// use pid::Pid;
//
// // Create a new proportional-only PID controller with a setpoint of 15
// let mut pid = Pid::new(15.0, 100.0);
// pid.p(10.0, 100.0);
//
// // Input a measurement with an error of 5.0 from our setpoint
// let output = pid.next_control_output(10.0);
//
// // Show that the error is correct by multiplying by our kp
// assert_eq!(output.output, 50.0); // <--
// assert_eq!(output.p, 50.0);
//
// // It won't change on repeat; the controller is proportional-only
// let output = pid.next_control_output(10.0);
// assert_eq!(output.output, 50.0); // <--
// assert_eq!(output.p, 50.0);
//
// // Add a new integral term to the controller and input again
// pid.i(1.0, 100.0);
// let output = pid.next_control_output(10.0);
//
// // Now that the integral makes the controller stateful, it will change
// assert_eq!(output.output, 55.0); // <--
// assert_eq!(output.p, 50.0);
// assert_eq!(output.i, 5.0);
//
// // Add our final derivative term and match our setpoint target
// pid.d(2.0, 100.0);
// let output = pid.next_control_output(15.0);
//
// // The output will now say to go down due to the derivative
// assert_eq!(output.output, -5.0); // <--
// assert_eq!(output.p, 0.0);
// assert_eq!(output.i, 5.0);
// assert_eq!(output.d, -10.0);
// ```
// #![no_std] (crate-level, left out)

use num_traits::float::FloatCore;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Adjustable proportional-integral-derivative (PID) controller.
///
/// # Examples
///
/// This controller provides a builder pattern interface which allows you to pick-and-choose which PID inputs you'd like to use during operation. Here's what a basic proportional-only controller could look like:
///
/// ```rust
/// use pid::Pid;
///
/// // Create limited controller
/// let mut p_controller = Pid::new(15.0, 100.0);
/// p_controller.p(10.0, 100.0);
///
/// // Get first output
/// let p_output = p_controller.next_control_output(400.0);
/// ```
///
/// This controller would give you set a proportional controller to `10.0` with a target of `15.0` and an output limit of `100.0` per [output](Self::next_control_output) iteration. The same controller with a full PID system built in looks like:
///
/// ```rust
/// use pid::Pid;
///
/// // Create full PID controller
/// let mut full_controller = Pid::new(15.0, 100.0);
/// full_controller.p(10.0, 100.0).i(4.5, 100.0).d(0.25, 100.0);
///
/// // Get first output
/// let full_output = full_controller.next_control_output(400.0);
/// ```
///
/// This [`next_control_output`](Self::next_control_output) method is what's used to input new values into the controller to tell it what the current state of the system is. In the examples above it's only being used once, but realistically this will be a hot method. Please see [ControlOutput] for examples of how to handle these outputs; it's quite straight forward and mirrors the values of this structure in some ways.
///
/// The last item of note is that these [`p`](Self::p()), [`i`](Self::i()), and [`d`](Self::d()) methods can be used *during* operation which lets you add and/or modify these controller values if need be.
#[derive(Clone, Copy, Debug, Eq, PartialEq, Ord, PartialOrd, fwdad::Differentiable)]
#[cfg_attr(feature = "serde", derive(Deserialize, Serialize))]
pub struct Pid<T: FloatCore> {
    /// Ideal setpoint to strive for.
    pub setpoint: T,
    /// Defines the overall output filter limit.
    pub output_limit: T,
    /// Proportional gain.
    pub kp: T,
    /// Integral gain.
    pub ki: T,
    /// Derivative gain.
    pub kd: T,
    /// Limiter for the proportional term: `-p_limit <= P <= p_limit`.
    pub p_limit: T,
    /// Limiter for the integral term: `-i_limit <= I <= i_limit`.
    pub i_limit: T,
    /// Limiter for the derivative term: `-d_limit <= D <= d_limit`.
    pub d_limit: T,
    /// Last calculated integral value if [Pid::ki] is used.
    integral_term: T,
    /// Previously found measurement whilst using the [Pid::next_control_output] method.
    prev_measurement: Option<T>,
}

/// Output of [controller iterations](Pid::next_control_output) with weights
///
/// # Example
///
/// This structure is simple to use and features three weights: [p](Self::p), [i](Self::i), and [d](Self::d). These can be used to figure out how much each term from [Pid] contributed to the final [output](Self::output) value which should be taken as the final controller output for this iteration:
///
/// ```rust
/// use pid::{Pid, ControlOutput};
///
/// // Setup controller
/// let mut pid = Pid::new(15.0, 100.0);
/// pid.p(10.0, 100.0).i(1.0, 100.0).d(2.0, 100.0);
///
/// // Input an example value and get a report for an output iteration
/// let output = pid.next_control_output(26.2456);
/// println!("P: {}\nI: {}\nD: {}\nFinal Output: {}", output.p, output.i, output.d, output.output);
/// ```
#[derive(Debug, PartialEq, Eq, fwdad::Differentiable)]
pub struct ControlOutput<T: FloatCore> {
    /// Contribution of the P term to the output.
    pub p: T,
    /// Contribution of the I term to the output.
    ///
    /// This integral term is equal to `sum[error(t) * ki(t)] (for all t)`
    pub i: T,
    /// Contribution of the D term to the output.
    pub d: T,
    /// Output of the PID controller.
    pub output: T,
}

#[fwdad::derive_frule]
impl<T> Pid<T>
where
    T: FloatCore,
{
    /// Creates a new controller with the target setpoint and the output limit
    ///
    /// To set your P, I, and D terms into this controller, please use the following builder methods:
    /// - [Self::p()]: Proportional term setting
    /// - [Self::i()]: Integral term setting
    /// - [Self::d()]: Derivative term setting
    pub fn new(setpoint: impl Into<T>, output_limit: impl Into<T>) -> Self {
        Self {
            setpoint: setpoint.into(),
            output_limit: output_limit.into(),
            kp: T::zero(),
            ki: T::zero(),
            kd: T::zero(),
            p_limit: T::zero(),
            i_limit: T::zero(),
            d_limit: T::zero(),
            integral_term: T::zero(),
            prev_measurement: None,
        }
    }

    /// Sets the [Self::p] term for this controller.
    pub fn p(&mut self, gain: impl Into<T>, limit: impl Into<T>) -> &mut Self {
        self.kp = gain.into();
        self.p_limit = limit.into();
        self
    }

    /// Sets the [Self::i] term for this controller.
    pub fn i(&mut self, gain: impl Into<T>, limit: impl Into<T>) -> &mut Self {
        self.ki = gain.into();
        self.i_limit = limit.into();
        self
    }

    /// Sets the [Self::d] term for this controller.
    pub fn d(&mut self, gain: impl Into<T>, limit: impl Into<T>) -> &mut Self {
        self.kd = gain.into();
        self.d_limit = limit.into();
        self
    }

    /// Sets the [Pid::setpoint] to target for this controller.
    pub fn setpoint(&mut self, setpoint: impl Into<T>) -> &mut Self {
        self.setpoint = setpoint.into();
        self
    }

    /// Given a new measurement, calculates the next [control output](ControlOutput).
    ///
    /// # Panics
    ///
    /// - If a setpoint has not been set via `update_setpoint()`.
    pub fn next_control_output(&mut self, measurement: T) -> ControlOutput<T> {
        // Calculate the error between the ideal setpoint and the current
        // measurement to compare against
        let error = self.setpoint - measurement;

        // Calculate the proportional term and limit to it's individual limit
        let p_unbounded = error * self.kp;
        let p = apply_limit(self.p_limit, p_unbounded);

        // Mitigate output jumps when ki(t) != ki(t-1).
        // While it's standard to use an error_integral that's a running sum of
        // just the error (no ki), because we support ki changing dynamically,
        // we store the entire term so that we don't need to remember previous
        // ki values.
        self.integral_term = self.integral_term + error * self.ki;

        // Mitigate integral windup: Don't want to keep building up error
        // beyond what i_limit will allow.
        self.integral_term = apply_limit(self.i_limit, self.integral_term);

        // Mitigate derivative kick: Use the derivative of the measurement
        // rather than the derivative of the error.
        let d_unbounded = -match self.prev_measurement.as_ref() {
            Some(prev_measurement) => measurement - *prev_measurement,
            None => T::zero(),
        } * self.kd;
        self.prev_measurement = Some(measurement);
        let d = apply_limit(self.d_limit, d_unbounded);

        // Calculate the final output by adding together the PID terms, then
        // apply the final defined output limit
        let output = p + self.integral_term + d;
        let output = apply_limit(self.output_limit, output);

        // Return the individual term's contributions and the final output
        ControlOutput {
            p,
            i: self.integral_term,
            d,
            output: output,
        }
    }

    /// Resets the integral term back to zero, this may drastically change the
    /// control output.
    pub fn reset_integral_term(&mut self) {
        self.integral_term = T::zero();
    }
}

/// Saturating the input `value` according the absolute `limit` (`-limit <= output <= limit`).
#[fwdad::derive_frule]
fn apply_limit<T: FloatCore>(limit: T, value: T) -> T {
    limit.min(value.abs()) * value.signum()
}

// ---- the checks ----

#[cfg(test)]
mod tests {
    use super::*;
    use fwdad::prelude::*;

    /// Integrated squared tracking error of a first-order plant `y' = −y + u` (explicit
    /// Euler, 100 steps of 0.05 s) under a PID with gains `g = [kp, ki, kd]`, tracking `g[3]`.
    #[derive_frule]
    fn tracking_cost(g: &[f64]) -> f64 {
        let mut pid = Pid::new(g[3], 10.0);
        pid.p(g[0], 10.0).i(g[1], 10.0).d(g[2], 10.0);
        let dt = 0.05;
        let mut y = 0.0;
        let mut cost = 0.0;
        for _ in 0..100 {
            let u = pid.next_control_output(y).output;
            y += dt * (-y + u);
            cost += (g[3] - y) * (g[3] - y) * dt;
        }
        cost
    }

    /// The same loop with the published crate's controller.
    fn published_tracking_cost(g: &[f64]) -> f64 {
        let mut pid = ::pid::Pid::new(g[3], 10.0);
        pid.p(g[0], 10.0).i(g[1], 10.0).d(g[2], 10.0);
        let dt = 0.05;
        let mut y = 0.0;
        let mut cost = 0.0;
        for _ in 0..100 {
            let u = pid.next_control_output(y).output;
            y += dt * (-y + u);
            cost += (g[3] - y) * (g[3] - y) * dt;
        }
        cost
    }

    #[test]
    fn closed_loop_cost_against_the_published_controller() {
        for g in [
            [2.0, 0.1, 0.5, 1.0],
            [4.0, 0.3, 0.05, 2.5],
            [0.8, 0.02, 1.5, -1.0],
        ] {
            assert_eq!(
                tracking_cost(&g).to_bits(),
                published_tracking_cost(&g).to_bits(),
                "the published crate's loop"
            );
            let want = common::modes::fd_gradient(&published_tracking_cost, &g);
            crate::check_first_order!(tracking_cost {}, tracking_cost, g, want);
        }
        crate::check_modes!(tracking_cost {}, tracking_cost, [2.0, 0.1, 0.5, 1.0]);
    }

    /// The loop with the output saturated at ±1: the controller asks for more than that
    /// while the error is large.
    #[derive_frule]
    fn saturated_cost(g: &[f64]) -> f64 {
        let mut pid: Pid<f64> = Pid::new(1.0, 1.0);
        pid.p(g[0], 10.0).i(g[1], 10.0);
        let mut y = 0.0;
        let mut cost = 0.0;
        for _ in 0..40 {
            let out = pid.next_control_output(y);
            y += 0.05 * (-y + out.output);
            cost += (1.0 - y).powi(2);
        }
        cost
    }

    #[test]
    fn saturated_output_against_central_differences() {
        // Saturated steps pass no derivative: where the output stays at the limit over the
        // whole run, the gains do not matter at all.
        let (c, g) = gradient(saturated_cost {}, &[30.0, 0.5]);
        assert_eq!(c.to_bits(), saturated_cost(&[30.0, 0.5]).to_bits());
        let want = common::modes::fd_gradient(&saturated_cost, &[30.0, 0.5]);
        assert_eq!(
            want,
            [0.0, 0.0],
            "the published loop is saturated throughout"
        );
        assert_eq!(g, [0.0, 0.0], "fully saturated");
        crate::check_first_order!(saturated_cost {}, saturated_cost, [3.0, 0.05]);
    }

    /// The first two outputs for measurements `m[0]`, `m[1]`, gains `m[2..5]`.
    #[derive_frule]
    fn two_outputs(m: &[f64]) -> [f64; 2] {
        let mut pid = Pid::new(15.0, 100.0);
        pid.p(m[2], 100.0).i(m[3], 100.0).d(m[4], 100.0);
        let first = pid.next_control_output(m[0]);
        let second = pid.next_control_output(m[1]);
        [first.output, second.output]
    }

    #[test]
    fn first_outputs_against_the_controller_law() {
        // u₁ = kp e₁ + ki e₁, u₂ = kp e₂ + ki (e₁ + e₂) − kd (m₂ − m₁), eₖ = 15 − mₖ.
        let m = [10.0, 12.0, 10.0, 1.0, 2.0];
        let (v, jac) = jacobian(two_outputs {}, &m);
        let mut published = ::pid::Pid::<f64>::new(15.0, 100.0);
        published.p(10.0, 100.0).i(1.0, 100.0).d(2.0, 100.0);
        assert_eq!(
            v[0].to_bits(),
            published.next_control_output(10.0).output.to_bits()
        );
        assert_eq!(
            v[1].to_bits(),
            published.next_control_output(12.0).output.to_bits()
        );
        let (e1, e2) = (15.0 - m[0], 15.0 - m[1]);
        let (kp, ki, kd) = (m[2], m[3], m[4]);
        let want = [
            [-kp - ki, 0.0, e1, e1, 0.0],
            [-ki + kd, -kp - ki - kd, e2, e1 + e2, -(m[1] - m[0])],
        ];
        for (k, row) in want.iter().enumerate() {
            for (j, w) in row.iter().enumerate() {
                assert_eq!(jac[(k, j)], *w, "∂u{k}/∂m{j}");
            }
        }
    }
}
