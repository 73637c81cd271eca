// `[f64; N]::map` with a closure on an array the macro cannot see as one (a struct's
// field). Workaround: bind it with its type first, `let p: [f64; 3] = f.p;`, then `p.map(..)`.
use fwdad::prelude::*;

#[derive(Differentiable)]
struct Frame {
    p: [f64; 3],
}

#[derive_frule]
fn sum_of_squares(f: &Frame) -> f64 {
    let q = f.p.map(|v| v * v);
    q[0] + q[1] + q[2]
}

fn main() {}
