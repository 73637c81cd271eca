use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let n: u32 = 3;
    if x > 0.0 {
        return n;
    }
    x
}

fn main() {}
