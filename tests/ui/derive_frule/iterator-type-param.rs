use fwdad::prelude::*;

/// Horner's method over any iterator of coefficients, as puruspe writes it.
#[derive_frule]
pub fn polynomial<I>(x: f64, coefficients: I) -> f64
where
    I: IntoIterator<Item = f64>,
{
    let mut acc = 0.0;
    for c in coefficients {
        acc = acc * x + c;
    }
    acc
}

fn main() {}
