// `derivative(f {}, 2)` at an integer literal: the point is an `f64`, `2.0`.
use fwdad::prelude::*;

#[derive_frule]
fn cube(x: f64) -> f64 {
    x * x * x
}

fn main() {
    let (_, d) = derivative(cube {}, 2);
    println!("{d}");
}
