// A struct holding a closure, built in the differentiated function and passed to a helper
// without `#[derive_frule]` (`endpoint_sum(&p)`): only a `#[derive_frule]` function taking
// the struct gets its function along. Instead: annotate the helper with `#[derive_frule]`
// (supported: tests/fields12_params.rs).
use fwdad::prelude::*;

pub struct Problem<F: Fn(f64) -> f64> {
    pub f: F,
    pub a: f64,
    pub b: f64,
}

fn endpoint_sum<F: Fn(f64) -> f64>(p: &Problem<F>) -> f64 {
    (p.f)(p.a) + (p.f)(p.b)
}

#[derive_frule]
fn ends(k: f64) -> f64 {
    let p = Problem {
        f: |t: f64| (k * t).sin(),
        a: 0.0,
        b: 1.0,
    };
    endpoint_sum(&p)
}

fn main() {}
