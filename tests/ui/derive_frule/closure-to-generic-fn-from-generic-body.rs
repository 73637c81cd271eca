// A closure passed to a function generic over its float type, from a body generic over
// its own: the closure's dual form is typed over `f64` (what a caller writing `f64` code
// passes). Instead: call it from `f64` code, or write the caller for `f64`.
use fwdad::prelude::*;
use num_traits::Float;

#[derive_frule]
fn midpoint<T: Float, F: Fn(T) -> T>(f: F, a: T, b: T, n: usize) -> T {
    let h = (b - a) / T::from(n).unwrap();
    let mut s = T::zero();
    for i in 0..n {
        s = s + f(a + (T::from(i).unwrap() + T::from(0.5).unwrap()) * h);
    }
    s * h
}

#[derive_frule]
fn mass<T: Float>(w: T) -> T {
    midpoint(|x| (-x * x / w).exp(), -T::one(), T::one(), 20)
}

fn main() {}
