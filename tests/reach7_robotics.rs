//! Robotics code as a controls engineer writes it, annotated unmodified: a PID controller
//! struct built by a builder, with `Option` output limits, integral windup clamping and a
//! derivative on the measurement (`&mut self` per tick), tuned by differentiating a closed
//! loop's tracking cost through the simulation; a unicycle model predictive control cost
//! over a horizon of controls read with `chunks_exact(2)`, a state struct stepped by value
//! and `const` weight arrays; and a planar arm's forward kinematics over an enum of joint
//! kinds with data, its reach error through `impl Trait` targets. Each is checked in every
//! mode against central differences (`check_modes!`, primals bit for bit) and against
//! closed forms.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// ---------------------------------------------------------------------------------------
// A PID controller.

#[derive(Differentiable, Clone, Debug)]
pub struct Pid {
    kp: f64,
    ki: f64,
    kd: f64,
    integral: f64,
    last_measurement: Option<f64>,
    output_limits: Option<(f64, f64)>,
    integral_limit: f64,
}

#[derive_frule]
impl Pid {
    pub fn new(kp: f64, ki: f64, kd: f64) -> Self {
        Pid {
            kp,
            ki,
            kd,
            integral: 0.0,
            last_measurement: None,
            output_limits: None,
            integral_limit: f64::INFINITY,
        }
    }

    pub fn with_output_limits(mut self, lo: f64, hi: f64) -> Self {
        self.output_limits = Some((lo, hi));
        self
    }

    pub fn with_integral_limit(mut self, limit: f64) -> Self {
        self.integral_limit = limit;
        self
    }

    pub fn update(&mut self, setpoint: f64, measurement: f64, dt: f64) -> f64 {
        let error = setpoint - measurement;
        self.integral =
            (self.integral + self.ki * error * dt).clamp(-self.integral_limit, self.integral_limit);
        // Derivative on measurement, to avoid a kick when the setpoint steps.
        let derivative = match self.last_measurement {
            Some(prev) => -(measurement - prev) / dt,
            None => 0.0,
        };
        self.last_measurement = Some(measurement);
        let out = self.kp * error + self.integral + self.kd * derivative;
        match self.output_limits {
            Some((lo, hi)) => out.clamp(lo, hi),
            None => out,
        }
    }
}

/// A first-order plant `τ ẏ = −y + K u` under PID control tracking a step; the integrated
/// squared error.
#[derive_frule]
pub fn closed_loop_ise(gains: &[f64], limits: Option<(f64, f64)>) -> f64 {
    let mut pid = Pid::new(gains[0], gains[1], gains[2]).with_integral_limit(2.0);
    if let Some((lo, hi)) = limits {
        pid = pid.with_output_limits(lo, hi);
    }
    let (tau, gain, dt) = (0.5, 2.0, 0.01);
    let mut y = 0.0;
    let mut ise = 0.0;
    for step in 0..300 {
        let setpoint = if step < 20 { 0.0 } else { 1.0 };
        let u = pid.update(setpoint, y, dt);
        y += dt * (-y + gain * u) / tau;
        ise += (setpoint - y).powi(2) * dt;
    }
    ise
}

#[test]
fn pid_tuning_in_every_mode() {
    let gains = [1.2, 0.8, 0.05];
    check_modes!(
        bind(closed_loop_ise {}, (Wrt, fwdad::Const(None))),
        |g: &[f64]| closed_loop_ise(g, None),
        gains
    );
    check_modes!(
        bind(closed_loop_ise {}, (Wrt, fwdad::Const(Some((-0.7, 0.7))))),
        |g: &[f64]| closed_loop_ise(g, Some((-0.7, 0.7))),
        gains
    );
}

#[test]
fn pid_saturated_output_has_no_gain_sensitivity() {
    // Closed form: while the output sits at its limit, the first output does not depend on
    // the gains at all.
    #[derive_frule]
    fn first_output(g: &[f64]) -> f64 {
        let mut pid = Pid::new(g[0], g[1], g[2]).with_output_limits(-0.5, 0.5);
        pid.update(10.0, 0.0, 0.01)
    }
    let (v, g) = gradient(first_output {}, &[1.0, 0.5, 0.1]);
    assert_eq!(v, 0.5);
    assert_eq!(g, [0.0, 0.0, 0.0]);
    // Unsaturated: u = kp e + ki e dt.
    #[derive_frule]
    fn first_free(g: &[f64]) -> f64 {
        let mut pid = Pid::new(g[0], g[1], g[2]);
        pid.update(0.3, 0.1, 0.01)
    }
    let (_, g) = gradient(first_free {}, &[1.0, 0.5, 0.1]);
    assert_close(g[0], 0.2, 1e-15, "du/dkp");
    assert_close(g[1], 0.2 * 0.01, 1e-15, "du/dki");
    assert_eq!(g[2], 0.0);
}

// ---------------------------------------------------------------------------------------
// Unicycle MPC.

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct State {
    pub x: f64,
    pub y: f64,
    pub theta: f64,
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Control {
    pub v: f64,
    pub omega: f64,
}

#[derive_frule]
impl State {
    /// Exact integration of the unicycle over `dt` at constant controls (straight when the
    /// turn rate is small).
    pub fn step(self, u: Control, dt: f64) -> State {
        if u.omega.abs() < 1e-9 {
            return State {
                x: self.x + u.v * dt * self.theta.cos(),
                y: self.y + u.v * dt * self.theta.sin(),
                ..self
            };
        }
        let theta = self.theta + u.omega * dt;
        let r = u.v / u.omega;
        State {
            x: self.x + r * (theta.sin() - self.theta.sin()),
            y: self.y - r * (theta.cos() - self.theta.cos()),
            theta,
        }
    }
}

const Q: [f64; 3] = [10.0, 10.0, 1.0];
const R: [f64; 2] = [0.1, 0.05];
const DT: f64 = 0.1;

/// The MPC cost of a control sequence `[v0, ω0, v1, ω1, ..]` from `start` towards `goal`.
#[derive_frule]
pub fn mpc_cost(controls: &[f64], start: State, goal: &State) -> f64 {
    let mut state = start;
    let mut cost = 0.0;
    for (k, u) in controls.chunks_exact(2).enumerate() {
        let u = Control {
            v: u[0],
            omega: u[1],
        };
        state = state.step(u, DT);
        let err = [
            state.x - goal.x,
            state.y - goal.y,
            (state.theta - goal.theta).sin(),
        ];
        let stage: f64 = err.iter().zip(Q.iter()).map(|(e, q)| q * e * e).sum();
        let effort = R[0] * u.v * u.v + R[1] * u.omega * u.omega;
        // Later stages count more.
        cost += (1.0 + k as f64 / 10.0) * stage + effort;
    }
    cost
}

#[test]
fn unicycle_mpc_in_every_mode() {
    let start = State {
        x: 0.0,
        y: 0.0,
        theta: 0.1,
    };
    let goal = State {
        x: 1.0,
        y: 0.5,
        theta: 0.6,
    };
    let u = [1.0, 0.4, 1.1, 0.5, 0.9, 0.3, 0.8, 0.2, 1.0, 0.15];
    check_modes!(
        bind(mpc_cost {}, (Wrt, fwdad::Const(start), &goal)),
        |u: &[f64]| mpc_cost(u, start, &goal),
        u
    );
}

#[test]
fn unicycle_step_against_the_closed_form() {
    // ∂x'/∂v = (sin(θ + ω dt) − sin θ) / ω for a turning step.
    #[derive_frule]
    fn x_after(u: &[f64]) -> f64 {
        let s = State {
            x: 0.0,
            y: 0.0,
            theta: 0.3,
        };
        s.step(
            Control {
                v: u[0],
                omega: u[1],
            },
            0.5,
        )
        .x
    }
    let (v, w) = (1.3, 0.8);
    let (x, g) = gradient(x_after {}, &[v, w]);
    assert_eq!(x.to_bits(), x_after(&[v, w]).to_bits());
    assert_close(
        g[0],
        ((0.3 + w * 0.5).sin() - 0.3f64.sin()) / w,
        1e-14,
        "dx/dv",
    );
    let want_w =
        v * ((0.3 + w * 0.5).cos() * 0.5 / w - ((0.3 + w * 0.5).sin() - 0.3f64.sin()) / (w * w));
    assert_close(g[1], want_w, 1e-13, "dx/domega");
}

// ---------------------------------------------------------------------------------------
// A planar arm over an enum of joints.

#[derive(Differentiable, Clone, Debug)]
pub enum Joint {
    Revolute { length: f64 },
    Prismatic { angle: f64 },
    Fixed { dx: f64, dy: f64 },
}

// Wall: a plain trait's method on a parameter (`target.position()`) has no rule, even
// though it returns constant data; the trait and its `impl` annotated, as the error says.
#[derive_frule]
pub trait Target {
    fn position(&self) -> [f64; 2];
}

#[derive(Differentiable)]
pub struct Point(pub f64, pub f64);

#[derive_frule]
impl Target for Point {
    fn position(&self) -> [f64; 2] {
        [self.0, self.1]
    }
}

/// The tool position for joint variables `q` (an angle per revolute joint, an extension
/// per prismatic one).
#[derive_frule]
pub fn forward_kinematics(joints: &[Joint], q: &[f64]) -> [f64; 2] {
    let mut pos = [0.0, 0.0];
    let mut heading = 0.0;
    let mut qs = q.iter();
    for joint in joints {
        match joint {
            Joint::Revolute { length } => {
                heading += qs.next().copied().unwrap_or(0.0);
                pos[0] += length * heading.cos();
                pos[1] += length * heading.sin();
            }
            Joint::Prismatic { angle } => {
                let d = qs.next().copied().unwrap_or(0.0);
                pos[0] += d * (heading + angle).cos();
                pos[1] += d * (heading + angle).sin();
            }
            Joint::Fixed { dx, dy } => {
                let (s, c) = heading.sin_cos();
                pos[0] += c * dx - s * dy;
                pos[1] += s * dx + c * dy;
            }
        }
    }
    pos
}

/// Squared distance of the tool to the target, plus a joint-limit penalty.
#[derive_frule]
pub fn reach_error(joints: &[Joint], q: &[f64], target: &impl Target) -> f64 {
    let [x, y] = forward_kinematics(joints, q);
    let [tx, ty] = target.position();
    let limit_penalty: f64 = q.iter().map(|&qi| (qi.abs() - 2.5).max(0.0).powi(2)).sum();
    (x - tx).powi(2) + (y - ty).powi(2) + limit_penalty
}

fn arm() -> Vec<Joint> {
    vec![
        Joint::Revolute { length: 1.0 },
        Joint::Revolute { length: 0.8 },
        Joint::Prismatic { angle: 0.2 },
        Joint::Fixed { dx: 0.1, dy: 0.05 },
        Joint::Revolute { length: 0.3 },
    ]
}

#[test]
fn planar_arm_in_every_mode() {
    let joints = arm();
    let target = Point(1.2, 0.9);
    check_modes!(
        bind(reach_error {}, (&joints[..], Wrt, &target)),
        |q: &[f64]| reach_error(&joints, q, &target),
        [0.3, 0.7, 0.4, -2.6]
    );
    // The Jacobian of a two-link arm in closed form.
    let two = [
        Joint::Revolute { length: 1.0 },
        Joint::Revolute { length: 0.8 },
    ];
    let q = [0.3, 0.7];
    let (p, j) = jacobian(bind(forward_kinematics {}, (&two[..], Wrt)), &q);
    assert_eq!(p, forward_kinematics(&two, &q).to_vec());
    let (s1, s12) = (q[0].sin(), (q[0] + q[1]).sin());
    let (c1, c12) = (q[0].cos(), (q[0] + q[1]).cos());
    assert_close(j[(0, 0)], -s1 - 0.8 * s12, 1e-14, "J00");
    assert_close(j[(0, 1)], -0.8 * s12, 1e-14, "J01");
    assert_close(j[(1, 0)], c1 + 0.8 * c12, 1e-14, "J10");
    assert_close(j[(1, 1)], 0.8 * c12, 1e-14, "J11");
}
