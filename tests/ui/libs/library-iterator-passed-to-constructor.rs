// An iterator chain passed to a library constructor as a value (`from_iterator`), and a
// closure given to a library map on the element of a loop over a library value's rows:
// the macro sees no library value there.
use fwdad::prelude::*;
use nalgebra::DVector;
use ndarray::{Array2, Axis};

#[derive_frule]
fn kernel_row(x: &[f64], x_star: f64) -> f64 {
    let k = DVector::from_iterator(x.len(), x.iter().map(|xi| (-0.5 * (xi - x_star).powi(2)).exp()));
    k.sum()
}

#[derive_frule]
fn row_softmax(scores: &Array2<f64>) -> f64 {
    let mut w = scores.clone();
    for mut row in w.axis_iter_mut(Axis(0)) {
        let m = row.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        row.mapv_inplace(|s| (s - m).exp());
    }
    w.sum()
}

fn main() {}
