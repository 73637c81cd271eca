// ndarray's `Zip` and `azip!`: a closure run on the elements of several arrays at once.
use fwdad::prelude::*;
use ndarray::{azip, Array1, Zip};

#[derive_frule]
fn drift(x: &Array1<f64>, v: &Array1<f64>, dt: f64) -> f64 {
    let mut p = x.clone();
    Zip::from(&mut p).and(v).for_each(|p, &v| *p += dt * v);
    p.sum()
}

#[derive_frule]
fn drift_azip(x: &Array1<f64>, v: &Array1<f64>, dt: f64) -> f64 {
    let mut p = x.clone();
    azip!((p in &mut p, &v in v) *p += dt * v);
    p.sum()
}

fn main() {}
