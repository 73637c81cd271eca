// A struct holding a closure, built in the differentiated function and then handed whole
// to a helper (`total(&p)`): the rule never builds the struct (it cannot hold the
// closure's differentiated form), so only its fields, its function and its `&self`
// methods can be used. Instead: make the helper a `&self` method of a `#[derive_frule]
// impl Problem` and call `p.total()`.
use fwdad::prelude::*;

pub struct Problem<F: Fn(f64) -> f64> {
    pub f: F,
    pub a: f64,
    pub b: f64,
}

#[derive_frule]
fn total<F: Fn(f64) -> f64>(a: f64, b: f64, f: F) -> f64 {
    f(a) + f(b)
}

#[derive_frule]
fn ends(k: f64) -> f64 {
    let p = Problem {
        f: |t: f64| (k * t).sin(),
        a: 0.0,
        b: 1.0,
    };
    let q = &p;
    total(q.a, q.b, |t| t * k)
}

fn main() {}
