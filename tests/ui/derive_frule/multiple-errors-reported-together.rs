use fwdad::prelude::*;

struct Point {
    x: f64,
}

#[derive_frule]
fn f(x: f64) -> f64 {
    let g = |t: f64| t * t;
    let p = Point { x };
    unsafe { p.x * 3.0 }
}

fn main() {}
