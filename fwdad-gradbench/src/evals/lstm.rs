//! `lstm`: ADBench's LSTM (diagonal weight matrices) over a sequence of `c` characters of
//! `b` bits, `l` layers; `objective` is the mean cross-entropy of each next character,
//! `jacobian` its gradient in `main_params` (`2l × 4b`) and `extra_params` (`3 × b`),
//! flattened row by row and concatenated: `b(8l + 3)` directions, `⌈b(8l + 3) / 16⌉`
//! forward passes over the whole sequence.

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::Value;

#[derive_frule]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The loss. `main` holds per layer the weights then the biases of the forget, input,
/// output and change gates (`8b`); `extra` the input weights, output weights and output
/// biases (`3b`); `state` per layer the hidden then the cell state (`2b`); `sequence` the
/// characters, `b` bits each.
#[derive_frule(inactive(sequence))]
pub fn loss(main: &[f64], extra: &[f64], state: &[f64], sequence: &[f64], b: usize) -> f64 {
    let layers = main.len() / (8 * b);
    let c = sequence.len() / b;
    let mut state = state.to_vec();
    let mut y = vec![0.0; b];
    let mut total = 0.0;
    let mut count = 0;
    for t in 0..c - 1 {
        for i in 0..b {
            y[i] = sequence[t * b + i] * extra[i];
        }
        for layer in 0..layers {
            let w = layer * 8 * b;
            let s = layer * 2 * b;
            for i in 0..b {
                // The layer's input: the scaled character, or the hidden state below.
                let x = if layer == 0 {
                    y[i]
                } else {
                    state[s - 2 * b + i]
                };
                let hidden = state[s + i];
                let forget = sigmoid(x * main[w + i] + main[w + 4 * b + i]);
                let ingate = sigmoid(hidden * main[w + b + i] + main[w + 5 * b + i]);
                let outgate = sigmoid(x * main[w + 2 * b + i] + main[w + 6 * b + i]);
                let change = (hidden * main[w + 3 * b + i] + main[w + 7 * b + i]).tanh();
                state[s + b + i] = state[s + b + i] * forget + ingate * change;
                state[s + i] = outgate * state[s + b + i].tanh();
            }
        }
        let top = (layers - 1) * 2 * b;
        for i in 0..b {
            y[i] = state[top + i] * extra[b + i] + extra[2 * b + i];
        }
        // ADBench's normaliser: log(Σ exp yᵢ + 2).
        let mut sum = 0.0;
        for i in 0..b {
            sum += y[i].exp();
        }
        let lse = (sum + 2.0).ln();
        for i in 0..b {
            total += sequence[(t + 1) * b + i] * (y[i] - lse);
        }
        count += b;
    }
    -total / count as f64
}

/// [`loss`] of `[main, extra]` packed in one slice, for the gradient driver.
#[derive_frule(inactive(sequence))]
pub fn loss_packed(params: &[f64], state: &[f64], sequence: &[f64], b: usize) -> f64 {
    let (main, extra) = params.split_at(params.len() - 3 * b);
    loss(main, extra, state, sequence, b)
}

pub struct Lstm {
    pub b: usize,
    /// `[main, extra]`, row-major.
    pub params: Vec<f64>,
    pub state: Vec<f64>,
    pub sequence: Vec<f64>,
}

impl Lstm {
    pub fn from_input(input: &Value) -> Result<Lstm, String> {
        let (main, cols) = input::rows(input, "main_params")?;
        let (extra, b) = input::rows(input, "extra_params")?;
        let (state, _) = input::rows(input, "state")?;
        let (sequence, bits) = input::rows(input, "sequence")?;
        if b == 0
            || cols != 4 * b
            || bits != b
            || extra.len() != 3 * b
            || main.is_empty()
            || sequence.len() < 2 * b
        {
            return Err("the shapes of main_params, extra_params or sequence do not match".into());
        }
        if state.len() != main.len() / 4 {
            return Err("`state` does not have 2 rows of b per layer".into());
        }
        Ok(Lstm {
            b,
            params: [main, extra].concat(),
            state,
            sequence,
        })
    }

    pub fn objective(&self) -> f64 {
        loss_packed(&self.params, &self.state, &self.sequence, self.b)
    }

    pub fn gradient(&self) -> Vec<f64> {
        let f = bind(
            loss_packed {},
            (Wrt, &self.state[..], Inactive(&self.sequence[..]), self.b),
        );
        gradient(f, &self.params).1
    }
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let lstm = Lstm::from_input(input)?;
    let runs = Runs::of(input);
    match function {
        "objective" => Ok(runs.measure(|| lstm.objective(), Value::from)),
        "jacobian" => Ok(runs.measure(|| lstm.gradient(), Value::from)),
        _ => Err(format!("`lstm` has no function `{function}`")),
    }
}
