use fwdad::prelude::*;

// Events sorted by time, then weighted by rank: `sort_unstable_by` on a key may order
// events with equal times differently from the rule.
#[derive_frule]
fn ranked_weights(times: &[f64], weights: &[f64]) -> f64 {
    let mut events: Vec<(f64, f64)> = times.iter().cloned().zip(weights.iter().cloned()).collect();
    events.sort_unstable_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    events
        .iter()
        .enumerate()
        .map(|(k, e)| e.1 / (k as f64 + 1.0))
        .sum()
}

fn main() {}
