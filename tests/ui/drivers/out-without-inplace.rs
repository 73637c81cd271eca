// `Out` bound in a `jacobian` without `inplace(.., len)`: the driver cannot size the output
// buffer. rustc's "found `OutNeedsInplace`" names what to write.
use fwdad::drivers::{bind, jacobian, Out, Wrt};
use fwdad::prelude::*;

#[derive_frule]
fn residuals(p: &[f64], t: &[f64], y: &mut [f64]) {
    for (i, ti) in t.iter().enumerate() {
        y[i] = p[0] * (p[1] * ti).exp();
    }
}

fn main() {
    let t = [0.0, 0.5, 1.0];
    let _ = jacobian(bind(residuals {}, (Wrt, &t[..], Out)), &[1.0, -0.3]);
}
