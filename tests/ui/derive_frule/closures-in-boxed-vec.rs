// Boxed closures in a `Vec`, called as they are taken out of it: a local function value is
// callable when it is a parameter of a function type or a call's result, not an element of
// a collection. Instead: call the functions by name (`match k { 0 => x, 1 => (x * s).sin(), .. }`),
// or take each as a parameter of a helper.
use fwdad::prelude::*;

#[derive_frule]
fn basis_model(w: &[f64], x: f64) -> f64 {
    let basis: Vec<Box<dyn Fn(f64) -> f64>> = vec![Box::new(|x| x), Box::new(|x| (-x * x).exp())];
    let mut y = 0.0;
    for (k, phi) in basis.iter().enumerate() {
        y += w[k] * phi(x);
    }
    y
}

fn main() {}
