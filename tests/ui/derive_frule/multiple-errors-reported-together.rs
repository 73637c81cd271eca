use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64 {
    let g = |t: f64| t * t;
    let h = async { x };
    unsafe { x * 3.0 }
}

fn main() {}
