// `next_up` (a step to the neighbouring float) on a value that carries a derivative: no
// rule, the error is at the method and says to write a `#[primitive]`.
use fwdad::prelude::*;

#[derive_frule]
fn above(x: f64) -> f64 {
    x.next_up() * x
}

fn main() {}
