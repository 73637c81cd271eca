// Qualified paths of traits (`<f64 as Scale>::K`, `<Vec3 as Norm>::norm(&v)`) and of named
// types (`<Vec3>::norm(&v)`) are supported; a call through the qualified path of a type
// that is not named by a path (a slice, a tuple, a reference) is not.
use fwdad::prelude::*;

#[derive_frule]
fn f(x: &[f64]) -> f64 {
    x[0] * <[f64]>::len(x) as f64
}

fn main() {}
