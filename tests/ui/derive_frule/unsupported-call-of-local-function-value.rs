use fwdad::prelude::*;

#[derive_frule]
fn square(x: f64) -> f64 {
    x * x
}

#[derive_frule]
fn cube(x: f64) -> f64 {
    x * x * x
}

// A local bound to one of two functions (`let g = square;` alone is supported).
#[derive_frule]
fn f(x: f64, odd: bool) -> f64 {
    let g = if odd { cube } else { square };
    g(x)
}

fn main() {}
