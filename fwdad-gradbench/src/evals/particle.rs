//! `particle`: a unit charge starts at `(0, 8)` with velocity `(0.75, 0)` in the field of
//! unit charges at `(10, 10 − w)` and `(10, 0)` (potential `p(x; w) = Σ 1/‖x − cᵢ‖`,
//! force `−∇ₓp`); naive Euler steps of `0.1` until it crosses the `x` axis, where the
//! miss `x₀(t_f)²` is taken by linear interpolation. `w` is found by gradient descent on
//! the miss, from the input `w`.
//!
//! Nested forward mode (`ff`): the outer derivative (in `w`) differentiates the whole
//! trajectory by forward mode; the force inside it is `∇ₓp` by forward mode
//! ([`grad_x_potential`]), whose derivative along the outer direction is the Hessian of
//! `p` in `(x, w)` (forward over forward) applied to the outer tangents. `fr`, `rf` and
//! `rr` name reverse-mode nestings, which fwdad does not have: as GradBench's `finite`
//! tool does, they are answered by the same forward-over-forward computation.

use super::descent;
use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use fwdad::ScalarTangent;
use serde_json::Value;

/// The potential at `x` of the two fixed charges.
#[derive_frule]
pub fn potential(x: &[f64], w: f64) -> f64 {
    let charges = [[10.0, 10.0 - w], [10.0, 0.0]];
    let mut p = 0.0;
    for c in 0..2 {
        let dx = x[0] - charges[c][0];
        let dy = x[1] - charges[c][1];
        p += 1.0 / (dx * dx + dy * dy).sqrt();
    }
    p
}

/// `potential` of `[x₀, x₁, w]`, for the Hessian driver.
#[derive_frule]
pub fn potential_packed(z: &[f64]) -> f64 {
    potential(&z[0..2], z[2])
}

/// `∇ₓp(x; w)`, by forward mode.
#[primitive(rule = grad_x_potential_rule)]
pub fn grad_x_potential(x: &[f64], w: f64) -> [f64; 2] {
    let (_, g) = fwdad::gradient_with::<2>(bind(potential {}, (Wrt, w)), x);
    [g[0], g[1]]
}

/// The derivative of `∇ₓp` along `(dx, dw)`: rows `x` of the Hessian of `p` in `(x, w)`
/// (forward over forward) times `(dx, dw)`. Exact in first-order modes; under
/// second-order outer tangents it would drop `p`'s third derivatives.
pub fn grad_x_potential_rule<T: ScalarTangent<f64>>(
    x: Dual<&[f64], &[T]>,
    w: Dual<f64, T>,
) -> Dual<[f64; 2], [T; 2]> {
    let g = grad_x_potential(x.primal, w.primal);
    let z = [x.primal[0], x.primal[1], w.primal];
    let dz = [x.tangent[0], x.tangent[1], w.tangent];
    let (_, _, h) = fwdad::hessian_with::<3>(potential_packed {}, &z);
    let row = |i: usize| (0..3).fold(T::zero(), |acc, j| acc.add(dz[j].scale(h[(i, j)])));
    Dual::new(g, [row(0), row(1)])
}

/// `x₀(t_f)²`: the square of where the particle crosses the `x` axis.
#[derive_frule]
pub fn miss(w: f64) -> f64 {
    let mut x = [0.0, 8.0];
    let mut v = [0.75, 0.0];
    let dt = 0.1;
    loop {
        let g = grad_x_potential(&x, w);
        let a = [-g[0], -g[1]];
        x = [x[0] + dt * v[0], x[1] + dt * v[1]];
        if x[1] <= 0.0 {
            let dt_f = -x[1] / v[1];
            let x_f = x[0] + dt_f * v[0];
            return x_f * x_f;
        }
        v = [v[0] + dt * a[0], v[1] + dt * a[1]];
    }
}

/// The `ff` variant: the `w` that makes the particle hit the origin.
pub fn particle_ff(w0: f64) -> f64 {
    let objective = |w: &[f64]| miss(w[0]);
    let gradient = |w: &[f64]| vec![derivative(miss {}, w[0]).1];
    descent::argmin(objective, gradient, &[w0])[0]
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let w = input::float(input, "w")?;
    let runs = Runs::of(input);
    match function {
        // fwdad has forward mode only: as GradBench's `finite` tool does, every nesting
        // variant is answered by the one method the tool has (forward over forward).
        "ff" | "fr" | "rf" | "rr" => Ok(runs.measure(|| particle_ff(w), Value::from)),
        _ => Err(format!("`particle` has no function `{function}`")),
    }
}
