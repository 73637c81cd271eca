use fwdad::prelude::*;
use num_traits::Float;

pub trait Count {
    fn get(&self) -> usize;
}

#[derive_frule]
fn repeat<T: Float, C: Count>(x: T, n: &C) -> T {
    let mut s = T::zero();
    for _ in 0..n.get() {
        s = s + x * x;
    }
    s
}

fn main() {}
