// `successors` and `from_fn` are read as `scan`/`map_while` over `0..`, ended by a `take`,
// a `take_while`, or their own `None`; the counted adaptors after them (`skip`,
// `step_by`, `take`, `enumerate`) are supported, an adaptor that needs the items'
// positions (`zip`, `chain`) is not. Instead: take the items first and zip them in a loop.
use fwdad::prelude::*;

#[derive_frule]
fn weighted_powers(r: f64, w: &[f64]) -> f64 {
    std::iter::successors(Some(1.0), |p| Some(p * r))
        .zip(w.iter())
        .map(|(p, wk)| p * wk)
        .sum()
}

fn main() {}
