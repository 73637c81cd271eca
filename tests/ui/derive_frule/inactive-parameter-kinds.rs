use fwdad::prelude::*;

// A `&mut` parameter cannot be inactive, nor can any parameter of a function that
// returns a reference.
#[derive_frule(inactive(out))]
fn mut_in_parens(x: f64, out: (&mut [f64])) {
    out[0] = x;
}

#[derive_frule(inactive(d))]
fn returns_a_reference<'a>(x: &'a [f64], d: &'a [f64]) -> &'a f64 {
    if d[0] > 0.0 { &x[0] } else { &x[1] }
}

fn main() {}
