// A `sum()` without a turbofish in a function with two type parameters: the macro cannot
// tell which type it adds up. Workaround: `sum::<T>()`.
use fwdad::prelude::*;
use num_traits::Float;
use std::iter::Sum;

#[derive_frule]
fn scaled_total<T: Float + Sum, U: Float>(x: &[T], k: U) -> T {
    let s: T = x.iter().copied().sum();
    s * T::from(k).unwrap()
}

fn main() {}
