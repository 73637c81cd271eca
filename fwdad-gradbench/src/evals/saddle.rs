//! `saddle`: `min_{x ∈ ℝ²} max_{y ∈ ℝ²} f(x, y)`, by gradient descent in both, from the
//! same start; then `argmax_y f(x*, y)`. The spec's `f = (x₁² + y₁²) − (x₂² + y₂²)` names
//! the coordinates of the first point `x₁, y₁` and of the second `x₂, y₂` (as the
//! reference `objective(x1, y1, x2, y2)` is called), so `f(x, y) = ‖x‖² − ‖y‖²`.
//!
//! Nested forward mode (`ff`): the outer gradient differentiates, by forward mode, the
//! function `x ↦ max_y f(x, y)`, whose body runs the inner ascent on `∇_y f`. That inner
//! gradient is itself computed by forward mode ([`grad_y`]), and its derivative along the
//! outer direction is the Hessian of `f` (forward over forward, `Hyper` tangents) applied
//! to the outer tangents ([`grad_y_rule`]): the outer and inner perturbations live in
//! different passes, so they cannot be confused. `fr`, `rf` and `rr` name reverse-mode nestings,
//! which fwdad does not have.

use super::descent;
use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use fwdad::ScalarTangent;
use serde_json::Value;

#[derive_frule]
pub fn f(x: &[f64], y: &[f64]) -> f64 {
    (x[0] * x[0] + x[1] * x[1]) - (y[0] * y[0] + y[1] * y[1])
}

/// `f` of `[x, y]` packed, for the Hessian driver.
#[derive_frule]
pub fn f_packed(z: &[f64]) -> f64 {
    f(&z[0..2], &z[2..4])
}

/// `∇_y f(x, y)`, by forward mode.
#[primitive(rule = grad_y_rule)]
pub fn grad_y(x: &[f64], y: &[f64]) -> [f64; 2] {
    let (_, g) = fwdad::gradient_with::<2>(bind(f {}, (x, Wrt)), y);
    [g[0], g[1]]
}

/// The derivative of `∇_y f` along `(dx, dy)`: rows `y` of the Hessian of `f` (forward
/// over forward) times `(dx, dy)`. Exact in first-order modes; under second-order outer
/// tangents it would drop `f`'s third derivatives (zero for this `f`).
pub fn grad_y_rule<T: ScalarTangent<f64>>(
    x: Dual<&[f64], &[T]>,
    y: Dual<&[f64], &[T]>,
) -> Dual<[f64; 2], [T; 2]> {
    let g = grad_y(x.primal, y.primal);
    let z = [x.primal[0], x.primal[1], y.primal[0], y.primal[1]];
    let dz = [x.tangent[0], x.tangent[1], y.tangent[0], y.tangent[1]];
    let (_, _, h) = fwdad::hessian_with::<4>(f_packed {}, &z);
    let row = |i: usize| (0..4).fold(T::zero(), |acc, j| acc.add(dz[j].scale(h[(2 + i, j)])));
    Dual::new(g, [row(0), row(1)])
}

/// `argmax_y f(x, y)` from `start`, by the eval's gradient descent on `−f`.
#[derive_frule]
pub fn argmax_y(x: &[f64], start: &[f64]) -> [f64; 2] {
    let mut y = [start[0], start[1]];
    let mut fy = -f(x, &y);
    let g = grad_y(x, &y);
    let mut gy = [-g[0], -g[1]];
    let mut successes = 0;
    let mut eta = 1e-5;
    loop {
        if (gy[0] * gy[0] + gy[1] * gy[1]).sqrt() <= 1e-5 {
            return y;
        } else if successes == 10 {
            eta *= 2.0;
            successes = 0;
        } else {
            let next = [y[0] - eta * gy[0], y[1] - eta * gy[1]];
            let step =
                ((y[0] - next[0]) * (y[0] - next[0]) + (y[1] - next[1]) * (y[1] - next[1])).sqrt();
            if step <= 1e-5 {
                return y;
            }
            let f_next = -f(x, &next);
            if f_next < fy {
                y = next;
                fy = f_next;
                let g = grad_y(x, &y);
                gy = [-g[0], -g[1]];
                successes += 1;
            } else {
                eta /= 2.0;
                successes = 0;
            }
        }
    }
}

/// `max_y f(x, y)`, found from `start`.
#[derive_frule]
pub fn max_f(x: &[f64], start: &[f64]) -> f64 {
    let y = argmax_y(x, start);
    f(x, &y)
}

/// The `ff` variant: `[x*, y*]`.
pub fn saddle_ff(start: [f64; 2]) -> [f64; 4] {
    let outer = |x: &[f64]| max_f(x, &start);
    let outer_gradient =
        |x: &[f64]| fwdad::gradient_with::<2>(bind(max_f {}, (Wrt, &start[..])), x).1;
    let x = descent::argmin(outer, outer_gradient, &start);
    let y = argmax_y(&x, &start);
    [x[0], x[1], y[0], y[1]]
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let start = input::floats(input, "start")?;
    if start.len() != 2 {
        return Err("`start` does not have 2 elements".into());
    }
    let start = [start[0], start[1]];
    let runs = Runs::of(input);
    match function {
        // fwdad has forward mode only: as GradBench's `finite` tool does, every nesting
        // variant is answered by the one method the tool has (forward over forward).
        "ff" | "fr" | "rf" | "rr" => {
            Ok(runs.measure(|| saddle_ff(start), |p| Value::from(p.to_vec())))
        }
        _ => Err(format!("`saddle` has no function `{function}`")),
    }
}
