//! One module per GradBench eval, each with the eval's functions written as plain `f64`
//! Rust, differentiated by `#[derive_frule]` and fwdad's drivers, and an `evaluate` that
//! reads the input, runs the function as often as asked and writes the output.

use crate::protocol::Evaluation;
use serde_json::Value;

pub mod ba;
pub mod descent;
pub mod det;
pub mod gmm;
pub mod hello;
pub mod ht;
pub mod kmeans;
pub mod llsq;
pub mod lse;
pub mod lstm;
pub mod ode;
pub mod particle;
pub mod saddle;

/// The modules `define` accepts.
pub const MODULES: &[&str] = &[
    "hello", "llsq", "lse", "det", "ode", "kmeans", "gmm", "ba", "lstm", "particle", "saddle", "ht",
];

/// Runs `function` of `module` on `input`; `Err` carries the reason the tool cannot.
pub fn evaluate(module: &str, function: &str, input: &Value) -> Result<Evaluation, String> {
    match module {
        "hello" => hello::evaluate(function, input),
        "llsq" => llsq::evaluate(function, input),
        "lse" => lse::evaluate(function, input),
        "det" => det::evaluate(function, input),
        "ode" => ode::evaluate(function, input),
        "kmeans" => kmeans::evaluate(function, input),
        "gmm" => gmm::evaluate(function, input),
        "ba" => ba::evaluate(function, input),
        "lstm" => lstm::evaluate(function, input),
        "particle" => particle::evaluate(function, input),
        "saddle" => saddle::evaluate(function, input),
        "ht" => ht::evaluate(function, input),
        _ => Err(format!("fwdad has no module `{module}`")),
    }
}
