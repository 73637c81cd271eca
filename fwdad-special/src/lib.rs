//! A small library whose functions carry forward rules, used from other crates' derived
//! code: what a library author ships.

use fwdad::prelude::*;

/// `log(1 + exp(x))`, computed stably.
#[derive_frule]
pub fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// Geometry helpers.
pub mod geometry {
    use fwdad::prelude::*;

    /// Euclidean norm of a 3-vector.
    #[derive_frule]
    pub fn norm3(v: &[f64; 3]) -> f64 {
        (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
    }
}
