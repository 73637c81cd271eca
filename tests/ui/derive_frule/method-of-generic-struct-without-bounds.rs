// A method of a struct generic over its float type, with `#[derive_frule]` on the `impl`
// and no bound on `T` (the author relies on the struct's use at `f64`).
use fwdad::prelude::*;

pub struct Spring<T> {
    pub k: T,
    pub rest: T,
}

#[derive_frule]
impl<T> Spring<T> {
    pub fn energy(&self, x: T) -> T {
        let d = x - self.rest;
        self.k * d * d / 2.0
    }
}

fn main() {}
