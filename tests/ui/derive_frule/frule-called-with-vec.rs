// Calling a rule by hand with the point as a `Vec` (or an array) by value where the
// function takes `&[f64]`: the rule takes the argument the function takes, as a `Dual`
// of it, `Dual::new(&x[..], &dx[..])`.
use fwdad::prelude::*;

#[derive_frule]
fn energy(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

fn main() {
    let x = vec![1.0, 2.0, 3.0];
    let dx = vec![1.0, 0.0, 0.0];
    let d = energy_frule(Dual::new(x, dx));
    println!("{}", d.tangent);
}
