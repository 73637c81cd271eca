// A trait whose methods take a recursive type or slices of references: accepted, and
// differentiable through a generic parameter (`B: Body`), but a `dyn Body` runs only the
// methods whose arguments and result it can cut into lanes (floats, integers, `bool`,
// arrays, tuples, `Vec`, `Option` of them, types with `#[derive(Differentiable)]` that do
// not contain themselves, library values, and slices or references of those); calls of
// the others on a trait object are errors at the call, naming the type or saying to take
// the value through a generic parameter.
use fwdad::prelude::*;

/// A chain of masses, each holding the rest.
#[derive(Clone, Debug, Differentiable)]
pub enum Chain {
    End,
    Link(f64, Box<Chain>),
}

#[derive_frule]
pub trait Body {
    fn energy(&self, t: f64) -> f64;
    fn weight(&self, c: &Chain) -> f64;
    fn spread(&self, rows: &[&[f64]]) -> f64;
}

#[derive_frule]
fn height(b: &dyn Body, t: f64) -> f64 {
    b.weight(&Chain::Link(t, Box::new(Chain::End))) + b.energy(t)
}

#[derive_frule]
fn step(bodies: &[Box<dyn Body>], x: &[f64]) -> f64 {
    let mut e = 0.0;
    for b in bodies {
        e += b.energy(x[0]) * b.spread(&[x, x]);
    }
    e
}

fn main() {}
