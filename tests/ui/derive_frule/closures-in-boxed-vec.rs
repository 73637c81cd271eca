// Boxed closures in a `Vec`, folded by an iterator chain: a list of closures written in the
// body is supported walked by a `for` loop (`for (phi, wk) in basis.iter().zip(w)`,
// tests/derive_reach5.rs) or by a chain ending in `map` and `sum`, `product` or `collect`
// (tests/derive_lead11.rs), whose body then calls each element by its name.
use fwdad::prelude::*;

#[derive_frule]
fn basis_peak(x: f64) -> f64 {
    let basis: Vec<Box<dyn Fn(f64) -> f64>> = vec![Box::new(|x| x), Box::new(|x| (-x * x).exp())];
    basis.iter().map(|phi| phi(x)).fold(f64::NEG_INFINITY, f64::max)
}

fn main() {}
