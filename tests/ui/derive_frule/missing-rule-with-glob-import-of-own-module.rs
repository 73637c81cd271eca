// A plain function called beside a glob import of one of the crate's own modules (`use
// util::*;`, and a module file's `use crate::model::physics::*;`): the files show that
// neither module has an item of the function's name, so the glob brings no rule, and
// the error names the function (rustc would say "expected struct, variant or union type,
// found function").
use fwdad::prelude::*;

mod model {
    pub mod physics;
}

mod util {
    use fwdad::prelude::*;

    #[derive_frule]
    pub fn square(x: f64) -> f64 {
        x * x
    }
}

use model::physics::*;
use util::*;

fn closest(xs: &[f64], q: f64) -> f64 {
    let mut best = xs[0];
    for &x in xs {
        if (x - q).abs() < (best - q).abs() {
            best = x;
        }
    }
    best
}

#[derive_frule]
fn snapped_energy(xs: &[f64], q: f64) -> f64 {
    square(closest(xs, q)) + drag(q, 0.5)
}

fn main() {}
