use fwdad::prelude::*;

#[derive_frule]
struct Point {
    x: f64,
}

fn main() {}
