use fwdad::prelude::*;

#[primitive(d = 1.0)]
struct Point {
    x: f64,
}

#[non_differentiable]
const LIMIT: usize = 3;

fn main() {}
