// A function generic over its float type taking a function value.
use fwdad::prelude::*;
use num_traits::Float;

#[derive_frule]
fn midpoint<T: Float, F: Fn(T) -> T>(f: F, a: T, b: T) -> T {
    (b - a) * f((a + b) / (T::one() + T::one()))
}

fn main() {}
