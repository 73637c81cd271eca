// A function passed by name whose parameters borrow (`rhs(t, y: &[f64], dy: &mut [f64])`):
// rustc cannot match its rule against the parameter's `for<'a>` bound. Functions of
// numbers by name are supported (`q.integrate(logistic_rhs, y0)`,
// tests/derive_closure_programs.rs). Instead: a closure, `|t, y, dy| rhs(t, y, dy)`.
use fwdad::prelude::*;

#[derive_frule]
fn rhs(_t: f64, y: &[f64], dy: &mut [f64]) {
    dy[0] = -y[0] * y[1];
    dy[1] = y[0];
}

#[derive_frule]
fn euler<F: Fn(f64, &[f64], &mut [f64])>(f: F, y: &mut [f64]) {
    let mut dy = vec![0.0; y.len()];
    for s in 0..10 {
        f(s as f64 * 0.1, y, &mut dy);
        for i in 0..y.len() {
            y[i] += 0.1 * dy[i];
        }
    }
}

#[derive_frule]
fn endpoint(x: f64) -> f64 {
    let mut y = [x, 1.0];
    euler(rhs, &mut y);
    y[0]
}

fn main() {}
