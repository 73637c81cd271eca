// noise's `linear`, annotated: `T` is bounded by operator traits with a float on the other
// side, not by `Float`; the macro says to bound `T: Float` or use the concrete type.
use fwdad::prelude::*;
use std::ops::{Add, Mul};

#[derive_frule]
pub fn linear<T>(a: T, b: T, alpha: f64) -> T
where
    T: Mul<f64, Output = T> + Add<Output = T>,
{
    b * alpha + a * (1.0 - alpha)
}

fn main() {}
