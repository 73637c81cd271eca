// A closure passed to a function captures a local that is not `Clone` (a `Vec<Box<dyn
// Joint>>`): the closure's derived form copies its captures, so the error is rustc's about
// `Clone` (limits.md says what to write: pass the value by reference through a parameter).
use fwdad::prelude::*;

#[derive_frule]
pub trait Joint {
    fn reach(&self, q: f64) -> f64;
}

#[derive(Clone, Copy, Differentiable)]
pub struct Revolute {
    pub len: f64,
}

#[derive_frule]
impl Joint for Revolute {
    fn reach(&self, q: f64) -> f64 {
        self.len * q.cos()
    }
}

#[derive_frule]
fn total(joints: &[Box<dyn Joint>], q: f64) -> f64 {
    joints.iter().map(|j| j.reach(q)).sum()
}

#[derive_frule]
fn trapezoid<F: Fn(f64) -> f64>(f: F, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = 0.5 * (f(a) + f(b));
    for k in 1..n {
        s += f(a + h * k as f64);
    }
    s * h
}

#[derive_frule]
fn mean_reach(p: &[f64]) -> f64 {
    let owned: Vec<Box<dyn Joint>> = vec![Box::new(Revolute { len: 0.4 })];
    trapezoid(|s| total(&owned, s * p[0]), 0.0, 1.0, 8)
}

fn main() {}
