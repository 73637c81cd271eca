// A closure passed to a library method (ndarray's `mapv`, nalgebra's `map`): closures
// are supported in iterator chains over slices and ranges only.
use fwdad::prelude::*;
use ndarray::Array1;

#[derive_frule]
fn decay(t: &Array1<f64>, rate: f64) -> f64 {
    t.mapv(|ti| (-rate * ti).exp()).sum()
}

fn main() {}
