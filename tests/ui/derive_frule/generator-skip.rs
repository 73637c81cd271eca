// `successors` and `from_fn` are read as `scan`/`map_while` over `0..`, ended by a `take`,
// a `take_while`, or their own `None`; the counted adaptors after them (`skip`,
// `step_by`, `take`, `enumerate`, `zip`) are supported, an adaptor that needs the items'
// positions (`chain`) is not. Instead: take the items first and extend them.
use fwdad::prelude::*;

#[derive_frule]
fn powers_then_weights(r: f64, w: &[f64]) -> f64 {
    std::iter::successors(Some(1.0), |p| Some(p * r))
        .take_while(|p| *p > 0.01)
        .chain(w.iter().copied())
        .map(|v| v * v)
        .sum()
}

fn main() {}
