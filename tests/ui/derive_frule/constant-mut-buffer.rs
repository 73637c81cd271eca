use fwdad::prelude::*;

/// `y = 2 x`, written into `y`.
#[derive_frule]
fn double_into(x: &[f64], y: &mut [f64]) {
    for i in 0..x.len() {
        y[i] = 2.0 * x[i];
    }
}

fn main() {
    let x = [1.0, 2.0];
    let dx = [1.0, 0.0];
    let mut y = [0.0; 2];
    // The output buffer receives tangents: it cannot be a constant.
    double_into_frule(Dual::new(&x[..], &dx[..]), Dual::constant(&mut y[..]));
}
