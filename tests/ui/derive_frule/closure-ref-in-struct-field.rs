// A model holding `&dyn Fn(f64) -> f64`, built by the caller from a closure that captures
// a differentiated parameter (`act: &|z| z.tanh() * k`), and a method calling it: the
// struct cannot hold the closure's dual form. Instead: pass the activation to the method
// (`fn eval<F: Fn(f64) -> f64>(&self, act: F, x: f64)`, called `m.eval(|z| z.tanh() * k, x)`).
use fwdad::prelude::*;

#[derive(Differentiable)]
struct Neuron<'a> {
    act: &'a dyn Fn(f64) -> f64,
    w: f64,
}

#[derive_frule]
impl<'a> Neuron<'a> {
    fn eval(&self, x: f64) -> f64 {
        (self.act)(self.w * x)
    }
}

#[derive_frule]
fn output(k: f64, x: f64) -> f64 {
    let m = Neuron {
        act: &|z| z.tanh() * k,
        w: 0.5,
    };
    m.eval(x)
}

fn main() {}
