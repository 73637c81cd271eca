// A struct holding a closure, taken as a parameter of a method of a trait's `impl`
// (`impl Shooting for Shooter { fn final_state(&self, integ: &Integrator<F>, ..) }`): the
// trait's rule cannot take the function's differentiated form along. Instead: take it in
// an inherent method or a free `#[derive_frule]` function (`fn final_state(integ:
// &Integrator<F>, y0: f64)`, supported: tests/fields12_params.rs), or take the function
// itself as a parameter.
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
pub trait Shooting {
    fn final_state<F: Fn(f64, f64) -> f64>(&self, integ: &Integrator<F>, y0: f64) -> f64;
}

#[derive(Differentiable)]
pub struct Shooter {
    pub steps: usize,
}

#[derive_frule]
impl Shooting for Shooter {
    fn final_state<F: Fn(f64, f64) -> f64>(&self, integ: &Integrator<F>, y0: f64) -> f64 {
        integ.run(0.0, y0, self.steps)
    }
}

fn main() {}
