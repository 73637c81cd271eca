// A function building a struct that holds a closure and returning it (a factory of
// problems): the rule cannot return a struct holding the closure's differentiated form.
// Instead: build the struct where it is used, with a literal or its constructor
// (supported: tests/fields12_ctors.rs), or return the closure itself (`-> impl Fn(f64) ->
// f64`).
use fwdad::prelude::*;

pub struct Problem<F: Fn(f64) -> f64> {
    pub f: F,
    pub a: f64,
    pub b: f64,
}

#[derive_frule]
fn make_problem(k: f64) -> Problem<impl Fn(f64) -> f64> {
    let p = Problem {
        f: move |t: f64| (k * t).sin(),
        a: 0.0,
        b: 1.0,
    };
    p
}

fn main() {}
