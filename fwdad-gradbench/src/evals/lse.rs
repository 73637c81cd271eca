//! `lse`: `log Σ exp xᵢ`, computed as `a + log Σ exp(xᵢ − a)` with `a = max x`, and its
//! gradient (the softmax). Forward mode needs one direction per input: `⌈n / 32⌉` passes
//! over all `n` inputs, `O(n²)` work.

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

#[derive_frule]
pub fn logsumexp(x: &[f64]) -> f64 {
    let mut a = x[0];
    for i in 1..x.len() {
        if x[i] > a {
            a = x[i];
        }
    }
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (x[i] - a).exp();
    }
    a + s.ln()
}

pub fn logsumexp_gradient(x: &[f64]) -> Vec<f64> {
    gradient(logsumexp {}, x).1
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let x = input::floats(input, "x")?;
    if x.is_empty() {
        return Err("`x` is empty".into());
    }
    let runs = Runs::of(input);
    match function {
        "primal" => Ok(runs.measure(|| logsumexp(&x), Value::from)),
        "gradient" => Ok(runs.measure(|| logsumexp_gradient(&x), Value::from)),
        _ => Err(format!("`lse` has no function `{function}`")),
    }
}
