// `[f64; N]::map` with a closure. Workaround: a `for` loop over the indices, or
// `p.iter().map(..)` followed by `collect`.
use fwdad::prelude::*;

#[derive_frule]
fn sum_of_squares(p: [f64; 3]) -> f64 {
    let q = p.map(|v| v * v);
    q[0] + q[1] + q[2]
}

fn main() {}
