// A const parameter that appears only in the return type (argmin_testfunctions'
// `rastrigin_a_hessian_const`): the rule's impl cannot name it (E0207). Workaround: take
// the input as `&[f64; N]`, so that its type fixes `N`.
use fwdad::prelude::*;

#[derive_frule]
fn diagonal<const N: usize>(x: &[f64], a: f64) -> [f64; N] {
    let mut d = [0.0; N];
    for i in 0..N {
        d[i] = a * x[i].cos();
    }
    d
}

fn main() {}
