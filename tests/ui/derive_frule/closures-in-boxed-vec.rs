// Boxed closures in a `Vec`, called in an iterator chain: a list of closures written in the
// body is supported only walked by a `for` loop (`for (phi, wk) in basis.iter().zip(w)`,
// tests/derive_reach5.rs), whose body then calls each element by its name.
use fwdad::prelude::*;

#[derive_frule]
fn basis_model(w: &[f64], x: f64) -> f64 {
    let basis: Vec<Box<dyn Fn(f64) -> f64>> = vec![Box::new(|x| x), Box::new(|x| (-x * x).exp())];
    basis.iter().zip(w).map(|(phi, wk)| wk * phi(x)).sum()
}

fn main() {}
