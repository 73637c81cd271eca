//! Closures a factory returns (`fn make(i: usize, k: f64) -> Box<dyn Fn(f64) -> f64>`),
//! each called where it is made, as the error for a `Vec` of them collected advises (a
//! basis of Gaussian bumps summed at a point), and a factory's closure stored in a
//! struct's field built by a literal. In one direction, in batches and at second order
//! against central differences, primals bit for bit.

#[macro_use]
mod common;

use fwdad::prelude::*;

/// The `i`-th bump of width `1/sqrt(k)`.
#[derive_frule]
pub fn make(i: usize, k: f64) -> Box<dyn Fn(f64) -> f64> {
    let c = i as f64 * 0.5;
    Box::new(move |x| (-(x - c) * (x - c) * k).exp())
}

/// The sum of four bumps at `x`, each made where it is called.
#[derive_frule]
pub fn basis_sum(p: &[f64]) -> f64 {
    let (x, k) = (p[0], p[1]);
    let mut s = 0.0;
    for i in 0..4 {
        let f = make(i, k);
        s += f(x);
    }
    s
}

#[test]
fn factory_closures_called_where_made() {
    check_modes!(basis_sum {}, basis_sum, [0.7, 1.3]);
}
