// A function of another crate that has no forward rules (libm does not depend on fwdad),
// by path and imported: the error names it and says to wrap it, where rustc would say
// "expected struct, variant or union type, found function".
use fwdad::prelude::*;
use libm::erfc;

/// Survival function of a normal distribution.
#[derive_frule]
fn survival(x: f64, mu: f64, sigma: f64) -> f64 {
    0.5 * libm::erfc((x - mu) / (sigma * core::f64::consts::SQRT_2))
}

#[derive_frule]
fn tail(x: f64) -> f64 {
    erfc(x)
}

fn main() {}
