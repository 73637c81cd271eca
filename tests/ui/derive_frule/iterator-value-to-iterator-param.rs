use fwdad::prelude::*;

/// A sum of decaying exponentials, the rates from any iterator.
#[derive_frule]
pub fn decay_sum<It: Iterator<Item = f64>>(t: f64, rates: It) -> f64 {
    rates.map(|k| (-k * t).exp()).sum::<f64>()
}

/// An iterator value passed from a derived body.
#[derive_frule]
pub fn two_rates(t: f64) -> f64 {
    decay_sum(t, [0.5, 2.0].into_iter())
}

fn main() {}
