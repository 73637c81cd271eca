//! Models holding a function in a field, as ML engineers and physicists write them: a
//! generalised linear model with a boxed link function called in the body, a neuron
//! borrowing its activation (`&'a dyn Fn(f64) -> f64`), a least-squares fit holding its
//! model and its data, a generic `Solver<F>` with `where F: Fn(&[f64]) -> f64` doing
//! gradient descent by finite differences, a spring holding its force law. A
//! differentiated function builds the model from a closure capturing its inputs. In one
//! direction, in batches and at second order against central differences or closed
//! forms, primals bit for bit.

#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// --- 1. A boxed link function, called in the body --------------------------------------

pub struct Glm {
    pub link: Box<dyn Fn(f64) -> f64>,
    pub beta: f64,
}

/// A logistic GLM's prediction for feature `x[1]`, coefficient `x[0]`.
#[derive_frule]
pub fn predict(x: &[f64]) -> f64 {
    let m = Glm {
        link: Box::new(|eta: f64| 1.0 / (1.0 + (-eta).exp())),
        beta: x[0],
    };
    (m.link)(m.beta * x[1])
}

#[test]
fn boxed_link_function_called_through_the_field() {
    let x = [0.8, -1.3];
    check_modes!(predict {}, predict, x);
    let s = 1.0 / (1.0 + (-x[0] * x[1]).exp());
    let (v, g) = gradient(predict {}, &x);
    assert_close(v, s, 1e-15, "p");
    assert_close(g[0], s * (1.0 - s) * x[1], 1e-12, "d/dbeta");
    assert_close(g[1], s * (1.0 - s) * x[0], 1e-12, "d/dx");
}

// --- 2. A neuron borrowing its activation ----------------------------------------------

pub struct Neuron<'a> {
    pub act: &'a dyn Fn(f64) -> f64,
    pub w: f64,
    pub bias: f64,
}

#[derive_frule]
impl<'a> Neuron<'a> {
    pub fn eval(&self, x: f64) -> f64 {
        (self.act)(self.w * x + self.bias)
    }
}

/// A two-layer chain of neurons whose activation is scaled by a learned gain `p[0]`.
#[derive_frule]
pub fn output(p: &[f64]) -> f64 {
    let k = p[0];
    let first = Neuron {
        act: &|z| z.tanh() * k,
        w: p[1],
        bias: 0.1,
    };
    let h = first.eval(p[2]);
    let second = Neuron {
        act: &|z: f64| z.max(0.0) + 0.01 * z,
        w: 0.7,
        bias: p[1],
    };
    second.eval(h)
}

#[test]
fn neuron_borrowing_its_activation() {
    check_modes!(output {}, output, [1.4, 0.6, 0.9]);
}

// --- 3. A least-squares fit holding its model and data ---------------------------------

pub struct Fit<M: Fn(f64) -> f64> {
    pub model: M,
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
}

#[derive_frule]
impl<M: Fn(f64) -> f64> Fit<M> {
    pub fn residual(&self, i: usize) -> f64 {
        (self.model)(self.xs[i]) - self.ys[i]
    }

    pub fn loss(&self) -> f64 {
        let mut s = 0.0;
        for i in 0..self.xs.len() {
            let r = self.residual(i);
            s += r * r;
        }
        0.5 * s / self.xs.len() as f64
    }
}

/// The mean squared error of an exponential decay `a·e^{−b x}` on fixed data.
#[derive_frule]
pub fn decay_loss(p: &[f64]) -> f64 {
    let (a, b) = (p[0], p[1]);
    let fit = Fit {
        model: |x: f64| a * (-b * x).exp(),
        xs: vec![0.0, 0.5, 1.0, 1.5, 2.0],
        ys: vec![2.0, 1.3, 0.8, 0.5, 0.35],
    };
    fit.loss()
}

fn decay_loss_grad(p: &[f64]) -> [f64; 2] {
    // dL/da = mean(r · e^{−bx}), dL/db = mean(r · (−a x e^{−bx})).
    let xs = [0.0, 0.5, 1.0, 1.5, 2.0];
    let ys = [2.0, 1.3, 0.8, 0.5, 0.35];
    let (mut ga, mut gb) = (0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        let e = (-p[1] * x).exp();
        let r = p[0] * e - y;
        ga += r * e;
        gb += r * (-p[0] * x * e);
    }
    [ga / 5.0, gb / 5.0]
}

#[test]
fn least_squares_fit_holding_model_and_data() {
    let p = [2.1, 0.9];
    check_modes!(decay_loss {}, decay_loss, p);
    let (_, g) = gradient(decay_loss {}, &p);
    let want = decay_loss_grad(&p);
    assert_close(g[0], want[0], 1e-12, "d/da");
    assert_close(g[1], want[1], 1e-12, "d/db");
}

// --- 4. A generic solver over a function of a slice ------------------------------------

pub struct Solver<F>
where
    F: Fn(&[f64]) -> f64,
{
    pub f: F,
    pub rate: f64,
    pub eps: f64,
}

#[derive_frule]
impl<F> Solver<F>
where
    F: Fn(&[f64]) -> f64,
{
    /// The gradient by central differences, as a quick solver does.
    pub fn grad(&self, x: &[f64]) -> Vec<f64> {
        let mut g = vec![0.0; x.len()];
        let mut xp = x.to_vec();
        for i in 0..x.len() {
            let xi = xp[i];
            xp[i] = xi + self.eps;
            let fp = (self.f)(&xp);
            xp[i] = xi - self.eps;
            let fm = (self.f)(&xp);
            xp[i] = xi;
            g[i] = (fp - fm) / (2.0 * self.eps);
        }
        g
    }

    pub fn minimize(&self, x0: &[f64], steps: usize) -> Vec<f64> {
        let mut x = x0.to_vec();
        for _ in 0..steps {
            let g = self.grad(&x);
            for i in 0..x.len() {
                x[i] -= self.rate * g[i];
            }
        }
        x
    }
}

/// Where gradient descent on a shifted quadratic bowl ends, as a function of the bowl's
/// centre `(p[0], p[1])`.
#[derive_frule]
pub fn descend_to(p: &[f64]) -> f64 {
    let (cx, cy) = (p[0], p[1]);
    let solver = Solver {
        f: |x: &[f64]| (x[0] - cx).powi(2) + 2.0 * (x[1] - cy).powi(2),
        rate: 0.1,
        eps: 1e-3,
    };
    let x = solver.minimize(&[0.0, 0.0], 30);
    x[0] + 3.0 * x[1]
}

#[test]
fn generic_solver_over_a_function_of_a_slice() {
    let p = [0.7, -0.4];
    check_modes!(descend_to {}, descend_to, p);
    // The central difference of a quadratic is exact, so each step is linear in the
    // centre: x_k = c (1 − (1 − 0.2)^k), y_k = c_y (1 − (1 − 0.4)^k).
    let (_, g) = gradient(descend_to {}, &p);
    assert_close(g[0], 1.0 - 0.8f64.powi(30), 1e-9, "d/dcx");
    assert_close(g[1], 3.0 * (1.0 - 0.6f64.powi(30)), 1e-9, "d/dcy");
}

// --- 5. A spring with its force law in a field -----------------------------------------

pub struct Spring<F: Fn(f64) -> f64> {
    pub force: F,
    pub rest: f64,
}

#[derive_frule]
impl<F: Fn(f64) -> f64> Spring<F> {
    /// Stored energy at extension `x`: ∫ force by the trapezoid rule on 50 panels.
    pub fn energy(&self, x: f64) -> f64 {
        let n = 50;
        let h = (x - self.rest) / n as f64;
        let mut e = 0.5 * ((self.force)(0.0) + (self.force)(x - self.rest));
        for i in 1..n {
            e += (self.force)(i as f64 * h);
        }
        e * h
    }
}

/// A hardening spring `k u + β u³` stretched to `p[2]`.
#[derive_frule]
pub fn spring_energy(p: &[f64]) -> f64 {
    let (k, beta) = (p[0], p[1]);
    let spring = Spring {
        force: |u: f64| k * u + beta * u * u * u,
        rest: 0.0,
    };
    spring.energy(p[2])
}

#[test]
fn spring_with_its_force_law_in_a_field() {
    let p = [3.0, 0.5, 0.8];
    check_modes!(spring_energy {}, spring_energy, p);
    // The energy is linear in k and β, so its k- and β-derivatives are the trapezoid sums
    // of u and u³, within the rule's O(h²) of x²/2 and x⁴/4.
    let (_, g) = gradient(spring_energy {}, &p);
    assert_close(g[0], p[2] * p[2] / 2.0, 1e-3, "d/dk");
    assert_close(g[1], p[2].powi(4) / 4.0, 1e-3, "d/dbeta");
}
