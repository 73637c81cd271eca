// `#[derive_frule]` on a module, meant for every function in it: it applies to one
// function, `impl` block or trait at a time. Instead: annotate each function.
use fwdad::prelude::*;

#[derive_frule]
mod physics {
    pub fn drag(v: f64, c: f64) -> f64 {
        c * v * v.abs()
    }
}

fn main() {}
