// A closure stored in a struct's field and called from a method (`(self.f)(t, y)`): a
// closure has no tangent type to store. Instead: take it as a parameter of the method
// (`fn run<F: Fn(f64, f64) -> f64>(&self, f: F, ..)`, tests/derive_closure_methods.rs).
use fwdad::prelude::*;

#[derive(Differentiable, Clone)]
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
fn logistic(r: f64) -> f64 {
    let integ = Integrator {
        f: |_t: f64, y: f64| r * y * (1.0 - y),
        h: 0.01,
    };
    integ.h * r
}

fn main() {}
