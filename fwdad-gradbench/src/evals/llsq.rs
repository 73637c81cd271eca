//! `llsq`: the linear least-squares objective `½ Σᵢ (sᵢ − Σⱼ xⱼ tᵢʲ)²` on `n` points
//! `tᵢ = −1 + 2i/(n − 1)` with `sᵢ = sign tᵢ`, and its gradient in `x`.

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

/// The sign of `t`, 0 at 0 (the spec's `sign`).
#[derive_frule]
fn sign(t: f64) -> f64 {
    if t > 0.0 {
        1.0
    } else if t < 0.0 {
        -1.0
    } else {
        0.0
    }
}

#[derive_frule]
pub fn llsq(x: &[f64], n: usize) -> f64 {
    let mut sum = 0.0;
    for i in 0..n {
        let t = -1.0 + i as f64 * 2.0 / (n as f64 - 1.0);
        let mut residual = sign(t);
        let mut power = 1.0;
        for j in 0..x.len() {
            residual -= x[j] * power;
            power *= t;
        }
        sum += residual * residual;
    }
    sum / 2.0
}

/// `∇ₓ llsq`, in `⌈m / w⌉` forward passes.
pub fn llsq_gradient(x: &[f64], n: usize) -> Vec<f64> {
    gradient(bind(llsq {}, (Wrt, n)), x).1
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let x = input::floats(input, "x")?;
    let n = input::int(input, "n")?;
    let runs = Runs::of(input);
    match function {
        "primal" => Ok(runs.measure(|| llsq(&x, n), Value::from)),
        "gradient" => Ok(runs.measure(|| llsq_gradient(&x, n), Value::from)),
        _ => Err(format!("`llsq` has no function `{function}`")),
    }
}
