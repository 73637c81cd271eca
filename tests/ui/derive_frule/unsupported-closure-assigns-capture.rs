// A closure passed to a function that counts its calls in a variable it captures.
use fwdad::prelude::*;

#[derive_frule]
fn simpson<F: FnMut(f64) -> f64>(mut f: F, a: f64, b: f64) -> f64 {
    (b - a) / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b))
}

#[derive_frule]
fn counted(k: f64) -> f64 {
    let mut calls = 0;
    let s = simpson(
        |x| {
            calls += 1;
            k * x
        },
        0.0,
        1.0,
    );
    s + calls as f64
}

fn main() {}
