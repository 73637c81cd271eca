// A closure returned by a `let` closure is kept as a `move` closure of what it captured
// when it was made (tests/derive_closure_factories.rs); one that assigns what it
// captured (here the outer closure's parameter `total`) keeps state from call to call,
// which inlining would restart: an error at the returned closure.
use fwdad::prelude::*;

#[derive_frule]
fn running(x: &[f64]) -> f64 {
    let accumulator = |mut total: f64| {
        move |v: f64| {
            total += v;
            total
        }
    };
    let mut acc = accumulator(0.0);
    acc(x[0]);
    acc(x[1])
}

fn main() {}
