// A `lazy_static!` table mapped by a closure in a derived body (rust-kepler-solver 0.1.0's
// `HyperbolaSolver::new`, `PADE_ECCENTRIC_ANOMALY_THRESHOLDS.map(|e| ..)`): the macro
// cannot see that the static derefs to an array and reads `.map` as `Option::map`.
// Instead: the table as an array local (`let table = [0.5, 1.0, 2.0];`), then `table.map(..)`.
use fwdad::prelude::*;
use lazy_static::lazy_static;

lazy_static! {
    static ref TABLE: [f64; 3] = [0.5, 1.0, 2.0];
}

#[derive_frule]
fn scaled(k: f64) -> [f64; 3] {
    TABLE.map(|t| k * t)
}

fn main() {}
