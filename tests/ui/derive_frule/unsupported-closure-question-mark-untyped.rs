// `?` inside a closure passed to a function, without the closure's return type written.
use fwdad::prelude::*;

#[derive_frule]
fn sum_defined<F: Fn(f64) -> Option<f64>>(f: F, xs: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in xs {
        if let Some(v) = f(x) {
            s += v;
        }
    }
    s
}

#[derive_frule]
fn checked_log(x: f64) -> Option<f64> {
    if x > 0.0 {
        Some(x.ln())
    } else {
        None
    }
}

#[derive_frule]
fn logs(c: f64, xs: &[f64]) -> f64 {
    sum_defined(
        |x| {
            let l = checked_log(x - c)?;
            Some(c * l)
        },
        xs,
    )
}

fn main() {}
