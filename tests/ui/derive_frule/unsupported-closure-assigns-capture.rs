// A `move` closure passed to a function, assigning a variable it captures (its own copy,
// in plain Rust), and a closure that binds the captured name again inside. Closures that
// assign a capture are otherwise supported (`tests/derive_closure_captures.rs`).
use fwdad::prelude::*;

#[derive_frule]
fn simpson<F: FnMut(f64) -> f64>(mut f: F, a: f64, b: f64) -> f64 {
    (b - a) / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b))
}

#[derive_frule]
fn counted(k: f64) -> f64 {
    let mut calls = 0;
    let s = simpson(
        move |x| {
            calls += 1;
            k * x
        },
        0.0,
        1.0,
    );
    s + calls as f64
}

#[derive_frule]
fn shadowed(k: f64) -> f64 {
    let mut total = 0.0;
    simpson(
        |x| {
            total += x;
            let total = k * x;
            total
        },
        0.0,
        1.0,
    )
}

fn main() {}
