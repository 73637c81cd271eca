// An `f32` local declared without a value and assigned on one path only (special 0.11.4's
// `inc_beta`, `let mut temp;` then `if flip { temp = q; .. }`): its dual needs a value on
// the paths that do not assign it, which the runtime has for `f64` duals only. Instead:
// give it its first value where it is declared (`let mut temp = 0.0;`), or write the
// function in `f64`.
use fwdad::prelude::*;

#[derive_frule]
fn ordered_gap(mut p: f32, mut q: f32) -> f32 {
    let mut temp;
    if p > q {
        temp = q;
        q = p;
        p = temp;
    }
    temp = q - p;
    temp * p
}

fn main() {}
