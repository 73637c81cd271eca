// A `HashMap` whose values carry derivatives (observations looked up by time step).
use fwdad::prelude::*;
use std::collections::HashMap;

#[derive_frule]
fn misfit(model: &[f64], data: &[(usize, f64)]) -> f64 {
    let mut by_step: HashMap<usize, f64> = HashMap::new();
    for &(step, obs) in data {
        by_step.insert(step, obs);
    }
    let mut sse = 0.0;
    for (step, m) in model.iter().enumerate() {
        if let Some(obs) = by_step.get(&step) {
            sse += (m - obs) * (m - obs);
        }
    }
    sse
}

fn main() {}
