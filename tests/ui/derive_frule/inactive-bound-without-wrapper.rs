use fwdad::drivers::{bind, derivative, Wrt};
use fwdad::prelude::*;

#[derive_frule(inactive(data))]
fn loss(w: f64, data: &[f64]) -> f64 {
    w * data[0]
}

fn main() {
    let data = vec![1.0, 2.0];
    // A borrowed inactive parameter is bound with `Inactive(&data[..])`.
    let _ = derivative(bind(loss {}, (Wrt, &data[..])), 0.5);
}
