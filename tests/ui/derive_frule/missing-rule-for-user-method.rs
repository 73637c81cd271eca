use fwdad::prelude::*;

struct Spring;

impl Spring {
    fn energy(&self, x: f64) -> f64 {
        0.5 * x * x
    }
}

#[derive_frule]
fn f(x: f64) -> f64 {
    Spring.energy(x)
}

fn main() {}
