// A float method on a value typed with an alias of `f64` (`type Real = f64`): the macro sees
// a type that is not `std`'s, takes it for the user's type and the method for the user's
// (so that `v.max(w)` of the user's `Vec3` is the user's method). Workaround: write `f64`.
use fwdad::prelude::*;

type Real = f64;

#[derive_frule]
fn norm(x: Real, y: Real) -> Real {
    (x * x + y * y).sqrt() + x.sqrt()
}

fn main() {}
