// `[f64; N]::map` with a closure on an array the macro cannot see as one (a call's
// result; a struct's field is one when the file declares it, `p: [f64; 3]`).
// Workaround: bind it with its type first, `let p: [f64; 3] = corners(s);`, then `p.map(..)`.
use fwdad::prelude::*;

#[derive_frule]
fn corners(s: f64) -> [f64; 3] {
    [s, 2.0 * s, 3.0 * s]
}

#[derive_frule]
fn sum_of_squares(s: f64) -> f64 {
    let q = corners(s).map(|v| v * v);
    q[0] + q[1] + q[2]
}

fn main() {}
