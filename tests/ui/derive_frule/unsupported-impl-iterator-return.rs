use fwdad::prelude::*;

const SCALE: f64 = 1.5;

/// Every other sample, scaled: a lazy iterator, as a signal-processing helper returns it.
#[derive_frule]
fn evens(v: &[f64]) -> impl Iterator<Item = f64> + '_ {
    v.iter().step_by(2).map(|x| x * SCALE)
}

fn main() {}
