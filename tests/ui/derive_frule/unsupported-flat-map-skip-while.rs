// `flat_map` whose closure returns something other than an iterator chain (an `Option`
// here). Workaround: `filter` then `map`.
use fwdad::prelude::*;

#[derive_frule]
fn log_of_positives(x: &[f64]) -> f64 {
    x.iter()
        .flat_map(|v| if *v > 0.0 { Some(v.ln()) } else { None })
        .sum()
}

fn main() {}
