// A method of the user's own type named like a slice, `Vec` or iterator method (`len`,
// `sum`): the macro does not see the receiver's type and takes the call for the `std`
// method, whose rule does not fit the type. Workaround: give the method another name.
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
}

#[derive_frule]
fn stretch(r: &Rod, x: f64) -> f64 {
    r.len() * x
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Pair {
    a: f64,
    b: f64,
}

#[derive_frule]
impl Pair {
    fn sum(&self) -> f64 {
        self.a + self.b
    }
}

#[derive_frule]
fn total(p: &Pair, x: f64) -> f64 {
    p.sum() * x
}

fn main() {}
