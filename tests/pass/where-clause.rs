use fwdad::prelude::*;

#[derive_frule]
fn f(x: f64) -> f64
where
    f64: Copy,
{
    x * x
}

fn main() {}
