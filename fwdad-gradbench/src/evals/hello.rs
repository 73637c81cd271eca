//! `hello`: `square(x) = x²` and its derivative `double(x) = 2x`. Input and output are bare
//! numbers (no `Runs`).

use crate::input::Runs;
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

#[derive_frule]
pub fn square(x: f64) -> f64 {
    x * x
}

/// `d/dx x²`, by forward mode.
pub fn double(x: f64) -> f64 {
    derivative(square {}, x).1
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let x = input
        .as_f64()
        .ok_or("the input of `hello` is not a number")?;
    let once = Runs {
        min_runs: 1,
        min_seconds: 0.0,
    };
    match function {
        "square" => Ok(once.measure(|| square(x), Value::from)),
        "double" => Ok(once.measure(|| double(x), Value::from)),
        _ => Err(format!("`hello` has no function `{function}`")),
    }
}
