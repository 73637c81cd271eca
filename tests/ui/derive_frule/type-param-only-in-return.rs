// A type parameter that appears only in the return type: the rule's impl cannot name it
// (E0207). Workaround: take an argument of that type (`x: T`), or write the function for
// `f64`. (A const parameter only in the return type is supported.)
use fwdad::prelude::*;
use num_traits::Float;

#[derive_frule]
fn scaled<T: Float>(x: f64) -> T {
    T::from(2.0 * x).unwrap()
}

fn main() {}
