// A struct holding a closure, taken as a parameter of a differentiated function: the
// caller built it from a closure over floats, which has no differentiated form. Instead:
// build it inside the differentiated function with a struct literal (supported,
// tests/fields11_solvers.rs), or take the function itself as a parameter.
use fwdad::prelude::*;

pub struct Integrator<F: Fn(f64, f64) -> f64> {
    pub f: F,
    pub h: f64,
}

#[derive_frule]
impl<F: Fn(f64, f64) -> f64> Integrator<F> {
    pub fn run(&self, t0: f64, y0: f64, n: usize) -> f64 {
        let mut y = y0;
        for k in 0..n {
            y += self.h * (self.f)(t0 + k as f64 * self.h, y);
        }
        y
    }
}

#[derive_frule]
fn final_state<F: Fn(f64, f64) -> f64>(integ: &Integrator<F>, y0: f64) -> f64 {
    integ.run(0.0, y0, 100)
}

fn main() {}
