// Concatenating items after an element-wise stage (`filter`, `filter_map`, `take_while`,
// ...) is not supported: the items no longer sit at their source's indices (`take`,
// `skip`, `step_by`, `enumerate`, `zip` and `rev` after them are). Nor is a `skip` after
// a `zip` over a `map` whose closure changes what it captures.
use fwdad::prelude::*;

/// The positive samples, then the first two again.
#[derive_frule]
fn positive_then_head(x: &[f64]) -> f64 {
    x.iter()
        .copied()
        .filter(|v| *v > 0.0)
        .chain(x[..2].iter().copied())
        .map(|v| v * v)
        .sum::<f64>()
}

/// A Markov chain's states weighted, the burn-in skipped after the `zip`.
#[derive_frule]
fn weighted_chain(p: &[f64], w: &[f64]) -> f64 {
    let mut state = p[0];
    (0..10)
        .map(|_| {
            state = 0.5 * state + p[1];
            state
        })
        .zip(w)
        .skip(2)
        .map(|(v, wk)| wk * v)
        .sum()
}

fn main() {}
