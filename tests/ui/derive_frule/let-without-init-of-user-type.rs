// `let p;` of a type with no default value (a struct of the user's), assigned in one arm
// of an `if` only: the merge after it needs a value of the type. The error names the type
// and says to give the first value where it is declared.
use fwdad::prelude::*;

#[derive(Clone, Copy, Differentiable)]
struct Pt {
    x: f64,
    y: f64,
}

#[derive_frule]
fn f(x: f64) -> f64 {
    let mut p;
    let mut s = 0.0;
    if x > 0.0 {
        p = Pt { x, y: 1.0 };
        s += p.y;
    }
    p = Pt { x: -x, y: 2.0 };
    p.x * p.y + s
}

fn main() {}
