// A closure passed to a library map (ndarray's `mapv`) on a value whose type the macro
// cannot see (a field): the map is supported on values whose type is written
// (`let t: &Array1<f64> = &c.t;`).
use fwdad::prelude::*;
use ndarray::Array1;

#[derive(Differentiable)]
struct Curve {
    t: Array1<f64>,
}

#[derive_frule]
fn decay(c: &Curve, rate: f64) -> f64 {
    c.t.mapv(|ti| (-rate * ti).exp()).sum()
}

fn main() {}
