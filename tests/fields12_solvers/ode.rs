//! An explicit integrator holding the right-hand side of `y' = f(t, y)`.

use fwdad::prelude::*;

pub struct Heun<'a> {
    pub rhs: &'a dyn Fn(f64, f64) -> f64,
    pub h: f64,
}

#[derive_frule]
impl Heun<'_> {
    pub fn step(&self, t: f64, y: f64) -> f64 {
        let k1 = (self.rhs)(t, y);
        let k2 = (self.rhs)(t + self.h, y + self.h * k1);
        y + 0.5 * self.h * (k1 + k2)
    }

    pub fn run(&self, y0: f64, steps: usize) -> f64 {
        let mut y = y0;
        for i in 0..steps {
            y = self.step(i as f64 * self.h, y);
        }
        y
    }
}
