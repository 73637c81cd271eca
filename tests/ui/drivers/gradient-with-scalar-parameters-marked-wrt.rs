// A newcomer differentiates with respect to two `f64` parameters by marking both `Wrt`
// and asking for a gradient at a slice: the error says to bind them `Var(0)`, `Var(1)`.
use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;

#[derive_frule]
fn range(v: f64, angle: f64) -> f64 {
    v * v * (2.0 * angle).sin() / 9.81
}

fn main() {
    let _ = gradient(bind(range {}, (Wrt, Wrt)), &[20.0, 0.6]);
}
