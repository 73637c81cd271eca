// A parameter generic over anything that converts into `f64` (`T: Into<f64>`, for callers
// passing `f32` or integers): the rule needs the parameter's derivative, which `Into`
// does not give; take `f64` and convert at the call (`f(x.into())`).
use fwdad::prelude::*;

#[derive_frule]
fn scaled<T: Into<f64>>(x: T, k: f64) -> f64 {
    k * x.into()
}

fn main() {}
