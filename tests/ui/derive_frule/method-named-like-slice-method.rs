// A method of the user's own type named like a slice, `Vec` or iterator method (`len`,
// `sum`) on a receiver whose type the macro does not see (a field): the call is taken for
// the `std` method, whose rule does not fit the type. Workaround: bind the field with its
// type (`let rod: &Rod = &f.rod;`), on which `rod.len()` is the user's method, or give the
// method another name.
use fwdad::prelude::*;

#[derive(Clone, Copy, Debug, Differentiable)]
struct Rod {
    l: f64,
}

#[derive_frule]
impl Rod {
    fn len(&self) -> f64 {
        self.l
    }

    fn sum(&self, other: f64) -> f64 {
        self.l + other
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Frame {
    rod: Rod,
}

#[derive_frule]
fn stretch(f: &Frame, x: f64) -> f64 {
    f.rod.len() * x
}

#[derive_frule]
fn total(f: &Frame, x: f64) -> f64 {
    f.rod.sum(x)
}

fn main() {}
