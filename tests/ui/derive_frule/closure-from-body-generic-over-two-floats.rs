// A closure passed on from a body generic over two float types: the callee's helpers type
// the closure's dual form over one float type, and nothing says which of the two it is.
// Instead: give the function one float type parameter.
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
fn mass<T: Float, U: Float>(w: T, scale: U) -> T {
    let k = T::from(scale).unwrap();
    midpoint(|x| (-x * x / w).exp() * k, -T::one(), T::one(), 20)
}

fn main() {}
