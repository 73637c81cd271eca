// A borrowed value of a type of yours whose lifetime parameter is left out of the
// parameter's type (`&Labelled` for `Labelled<'a>`): the one-direction entry, which
// takes `Dual::constant(&l)` for it, names the type in a bound, where the lifetime
// cannot be left out. Instead: `&Labelled<'_>` (tests/derive_differentiable.rs).
#![allow(elided_lifetimes_in_paths)]
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Debug)]
pub struct Labelled<'a> {
    pub ids: Vec<usize>,
    pub label: Option<&'a str>,
}

#[derive_frule]
fn labelled_sum(x: &[f64], l: &Labelled) -> f64 {
    let mut s = 0.0;
    for &i in &l.ids {
        s += x[i];
    }
    s
}

fn main() {}
