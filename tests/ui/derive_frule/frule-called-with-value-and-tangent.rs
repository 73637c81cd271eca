// The generated rule called with the value and the seed as two floats (as num-dual's
// `derive1`-style APIs or a paper's `f(x, dx)` suggest): it takes one `Dual` per
// parameter, `sq_frule(Dual::new(x, 1.0))`.
use fwdad::prelude::*;

#[derive_frule]
fn sq(x: f64) -> f64 {
    x * x
}

fn main() {
    let d = sq_frule(3.0, 1.0);
    println!("{d:?}");
}
