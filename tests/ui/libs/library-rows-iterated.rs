// A closure given to a library map on the element of a loop over a library value's rows:
// the macro does not see that the element is a library value.
use fwdad::prelude::*;
use ndarray::{Array2, Axis};

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
