// ndarray's `Zip` and `azip!` over views, with indices or collecting a result: a closure
// run on the elements of several producers that are not whole arrays. (Over whole arrays,
// `Zip::from(&mut a).and(&b).for_each(..)` and `azip!((a in &mut a, &b in &b) ..)` are
// supported: `tests/lib_ndarray_zip.rs`.)
use fwdad::prelude::*;
use ndarray::{azip, Array1, Array2, Zip};

#[derive_frule]
fn scaled_rows(x: &Array2<f64>, w: &Array1<f64>) -> f64 {
    let mut p = x.clone();
    Zip::from(p.rows_mut()).and(w).for_each(|mut row, &w| row *= w);
    p.sum()
}

#[derive_frule]
fn ramp(x: &Array1<f64>) -> f64 {
    let mut p = x.clone();
    azip!((index i, p in &mut p) *p *= i as f64);
    p.sum()
}

#[derive_frule]
fn products(x: &Array1<f64>, v: &Array1<f64>) -> f64 {
    let q = Zip::from(x).and(v).map_collect(|&x, &v| x * v);
    q.sum()
}

fn main() {}
