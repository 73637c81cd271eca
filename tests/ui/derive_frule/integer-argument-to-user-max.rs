// A method of the user's own type named `max`, called with an integer argument on a value
// whose type the macro cannot see, is taken for the integer's `max` (Rust has no mixed
// integer-float calls): its float result must not pass silently as a constant, so this is
// a type error at the call.
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

#[derive_frule]
fn user_max(s: &Stats) -> f64 {
    s.max(2) * 3.0
}

fn main() {}
