use fwdad::prelude::*;

// Only borrowed data with a tangent type can be inactive.
#[derive_frule(inactive(w))]
fn by_value(x: f64, w: f64) -> f64 {
    x * w
}

#[derive_frule(inactive(idx))]
fn no_tangent_anyway(x: &[f64], idx: &[usize]) -> f64 {
    x[idx[0]]
}

#[derive_frule(inactive(out))]
fn mut_in_parens(x: f64, out: (&mut [f64])) {
    out[0] = x;
}

#[derive_frule(inactive(d))]
fn returns_a_reference<'a>(x: &'a [f64], d: &'a [f64]) -> &'a f64 {
    if d[0] > 0.0 { &x[0] } else { &x[1] }
}

fn main() {}
