//! `ode`: `y′₀ = x₀`, `y′ᵢ = xᵢ yᵢ₋₁`, `y(0) = 0`, integrated to `t = 2` by classical
//! Runge–Kutta in `s` steps (cmpad's `an_ode`); `primal` returns `y(2)`, `gradient` the
//! gradient of its last element in `x`, in `⌈n / 32⌉` forward passes.

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

/// The right-hand side `z = f(x, y)`.
#[derive_frule]
fn rhs(x: &[f64], y: &[f64], z: &mut [f64]) {
    z[0] = x[0];
    for i in 1..x.len() {
        z[i] = x[i] * y[i - 1];
    }
}

/// `y(2)` into `y`, by `s` steps of RK4 from `y(0) = 0`.
#[derive_frule]
pub fn solve(x: &[f64], s: usize, y: &mut [f64]) {
    let n = x.len();
    let h = 2.0 / s as f64;
    let mut k1 = vec![0.0; n];
    let mut k2 = vec![0.0; n];
    let mut k3 = vec![0.0; n];
    let mut k4 = vec![0.0; n];
    let mut tmp = vec![0.0; n];
    for i in 0..n {
        y[i] = 0.0;
    }
    for _ in 0..s {
        rhs(x, y, &mut k1);
        for i in 0..n {
            tmp[i] = y[i] + h * k1[i] / 2.0;
        }
        rhs(x, &tmp, &mut k2);
        for i in 0..n {
            tmp[i] = y[i] + h * k2[i] / 2.0;
        }
        rhs(x, &tmp, &mut k3);
        for i in 0..n {
            tmp[i] = y[i] + h * k3[i];
        }
        rhs(x, &tmp, &mut k4);
        for i in 0..n {
            y[i] += h * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) / 6.0;
        }
    }
}

/// The last element of `y(2)`.
#[derive_frule]
pub fn last(x: &[f64], s: usize) -> f64 {
    let mut y = vec![0.0; x.len()];
    solve(x, s, &mut y);
    y[x.len() - 1]
}

pub fn primal(x: &[f64], s: usize) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    solve(x, s, &mut y);
    y
}

pub fn last_gradient(x: &[f64], s: usize) -> Vec<f64> {
    gradient(bind(last {}, (Wrt, s)), x).1
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let x = input::floats(input, "x")?;
    let s = input::int(input, "s")?;
    if x.is_empty() || s == 0 {
        return Err("`x` is empty or `s` is 0".into());
    }
    let runs = Runs::of(input);
    match function {
        "primal" => Ok(runs.measure(|| primal(&x, s), Value::from)),
        "gradient" => Ok(runs.measure(|| last_gradient(&x, s), Value::from)),
        _ => Err(format!("`ode` has no function `{function}`")),
    }
}
