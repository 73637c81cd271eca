// A `Dual` built inside the annotated function to seed a derivative: the seed is the
// caller's, given to the generated rule: `f_frule(Dual::new(x, 1.0))`.
use fwdad::prelude::*;

#[derive_frule]
fn softplus(x: f64) -> f64 {
    let d = Dual::new(x, 1.0);
    (1.0 + d.exp()).ln()
}

fn main() {}
