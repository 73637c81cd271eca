// Arithmetic between two integer fields of an active struct: the macro does not see the
// fields' types, so `g.n * g.m` is taken for float arithmetic on duals. Workaround: bind
// one field to a `let` with its type (`let n: usize = g.n;`), or convert both with `as f64`.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
struct Grid {
    h: f64,
    n: usize,
    m: usize,
}

#[derive_frule]
fn area(g: &Grid) -> f64 {
    let cells = g.n * g.m;
    g.h * g.h * cells as f64
}

fn main() {}
