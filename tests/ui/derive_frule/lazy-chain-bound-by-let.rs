// An iterator chain with a closure bound by `let` and read twice: the error says to write
// the chain where it is read or to collect it. (Read once, it works.)
use fwdad::prelude::*;

#[derive_frule]
fn mean_and_energy(a: &[f64]) -> f64 {
    let doubled = a.iter().map(|x| 2.0 * x);
    let mean = doubled.clone().sum::<f64>() / a.len() as f64;
    let energy: f64 = doubled.map(|d| d * d).sum();
    mean + energy
}

fn main() {}
