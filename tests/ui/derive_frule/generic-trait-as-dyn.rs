// A trait object of a generic trait: a generic trait's rules have no `dyn` dispatch;
// take a type parameter (`fn final_state<I: Integrator<f64>>(scheme: &I, ..)`).
use fwdad::prelude::*;
use num_traits::Float;

#[derive_frule]
pub trait Integrator<T: Float> {
    fn step(&self, t: T, y: T, h: T) -> T;
}

#[derive(Clone, Debug, Differentiable)]
pub struct Euler {
    pub r: f64,
}

#[derive_frule]
impl Integrator<f64> for Euler {
    fn step(&self, _t: f64, y: f64, h: f64) -> f64 {
        y + h * self.r * y
    }
}

#[derive_frule]
pub fn final_state(scheme: &dyn Integrator<f64>, y0: f64, h: f64) -> f64 {
    scheme.step(0.0, y0, h)
}

fn main() {}
