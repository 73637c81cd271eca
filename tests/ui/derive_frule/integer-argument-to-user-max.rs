// A method of the user's own type named `max`, called with an integer argument on a value
// whose type the macro cannot see (a field), is taken for the integer's `max` (Rust has no
// mixed integer-float calls): its float result must not pass silently as a constant, so
// this is a type error at the call. (On a value whose type is written, `s: &Stats`, the
// call is the user's method.)
use fwdad::prelude::*;

#[derive(Differentiable, Clone, Copy)]
pub struct Stats {
    pub a: f64,
    pub b: f64,
}

impl Stats {
    pub fn max(&self, k: usize) -> f64 {
        self.a.max(self.b) * k as f64
    }
}

#[derive(Differentiable, Clone, Copy)]
pub struct Summary {
    pub s: Stats,
}

#[derive_frule]
fn user_max(m: &Summary) -> f64 {
    m.s.max(2) * 3.0
}

fn main() {}
