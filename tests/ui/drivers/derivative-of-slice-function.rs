// `derivative` of a function of a slice: `derivative` is for a function of one `f64`.
// Instead: `gradient(total {}, &x)`, or `jvp` for one direction.
use fwdad::prelude::*;

#[derive_frule]
fn total(x: &[f64]) -> f64 {
    x.iter().sum()
}

fn main() {
    let x = [1.0, 2.0];
    let (_, d) = derivative(total {}, &x);
    println!("{d:?}");
}
