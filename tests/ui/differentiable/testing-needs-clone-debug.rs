use fwdad::prelude::*;
use fwdad::testing::test_frule;

// Derives, but `test_frule` needs `Clone + Debug` to copy and print arguments.
#[derive(Differentiable)]
pub struct Params {
    pub k: f64,
}

fn main() {
    test_frule(
        (Params { k: 1.0 }, 2.0),
        |a| a.0.k * a.1,
        |a, da| Dual::new(a.0.k * a.1, da.0.k * a.1 + a.0.k * da.1),
    );
}
