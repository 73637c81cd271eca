use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64, p: *const f64) -> f64 {
    x * unsafe { *p }
}

fn main() {}
