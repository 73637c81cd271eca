// A function taking `&dyn Fn`, and a closure passed to it by reference.
use fwdad::prelude::*;

#[derive_frule]
fn apply(g: &dyn Fn(f64) -> f64, x: f64) -> f64 {
    g(x)
}

#[derive_frule]
fn f(x: f64, k: f64) -> f64 {
    apply(&|y| y * k, x)
}

fn main() {}
