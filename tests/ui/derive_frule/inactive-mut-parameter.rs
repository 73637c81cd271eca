use fwdad::prelude::*;

// What `f` writes through `out` depends on `x`: it must carry tangents.
#[derive_frule(inactive(out))]
fn f(x: f64, out: &mut [f64]) {
    out[0] = x * x;
}

fn main() {}
