//! A struct holding the function it works on, taken as a parameter by a differentiated
//! function: a line search holding its objective (`fn minimise<F: Fn(f64) -> f64>(p:
//! &Problem<F>, x0: f64)`), an ODE with a right-hand-side field handed to a solver
//! (`fn solve(ode: &Ode<'_>, y0: f64)`), a quadrature object moved into a function by
//! value, and one passed on from parameter to parameter. The caller, a differentiated
//! function, builds the struct with a literal from a closure capturing its inputs. In one
//! direction, in batches and at second order against central differences or closed
//! forms, primals bit for bit.

#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// --- 1. A line search holding its objective ----------------------------------------------

/// A one-dimensional objective on a bracket.
pub struct Problem<F: Fn(f64) -> f64> {
    pub f: F,
    pub lo: f64,
    pub hi: f64,
}

#[derive_frule]
impl<F: Fn(f64) -> f64> Problem<F> {
    /// The slope by central differences.
    pub fn slope(&self, x: f64) -> f64 {
        let h = 1e-4 * (self.hi - self.lo);
        ((self.f)(x + h) - (self.f)(x - h)) / (2.0 * h)
    }
}

/// Fixed-step gradient descent from `x0`, kept inside the bracket.
#[derive_frule]
pub fn minimise<F: Fn(f64) -> f64>(p: &Problem<F>, x0: f64) -> f64 {
    let mut x = x0;
    for _ in 0..40 {
        x -= 0.2 * p.slope(x);
        x = x.clamp(p.lo, p.hi);
    }
    (p.f)(x)
}

/// The minimum of a shifted, scaled quadratic plus a small quartic term.
#[derive_frule]
pub fn fitted_minimum(w: &[f64]) -> f64 {
    let (c, a) = (w[0], w[1]);
    let p = Problem {
        f: |t| a * (t - c).powi(2) + 0.05 * t.powi(4) + c * t,
        lo: -3.0,
        hi: 3.0,
    };
    minimise(&p, 0.5)
}

#[test]
fn line_search_taking_the_problem_by_reference() {
    check_modes!(fitted_minimum {}, fitted_minimum, [0.4, 1.3]);
}

// --- 2. An ODE with a right-hand-side field ----------------------------------------------

/// `y' = rhs(t, y)` on `[0, t1]`.
pub struct Ode<'a> {
    pub rhs: &'a dyn Fn(f64, f64) -> f64,
    pub t1: f64,
    pub steps: usize,
}

/// Classical Runge-Kutta.
#[derive_frule]
pub fn solve(ode: &Ode<'_>, y0: f64) -> f64 {
    let h = ode.t1 / ode.steps as f64;
    let (mut t, mut y) = (0.0, y0);
    for _ in 0..ode.steps {
        let k1 = (ode.rhs)(t, y);
        let k2 = (ode.rhs)(t + 0.5 * h, y + 0.5 * h * k1);
        let k3 = (ode.rhs)(t + 0.5 * h, y + 0.5 * h * k2);
        let k4 = (ode.rhs)(t + h, y + h * k3);
        y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        t += h;
    }
    y
}

/// Exponential decay `y' = -k y` from `y0` to `t = 1`.
#[derive_frule]
pub fn decayed(p: &[f64]) -> f64 {
    let (k, y0) = (p[0], p[1]);
    let ode = Ode {
        rhs: &|_t, y| -k * y,
        t1: 1.0,
        steps: 50,
    };
    solve(&ode, y0)
}

#[test]
fn ode_solver_taking_the_ode_by_reference() {
    let p = [0.7, 2.0];
    check_modes!(decayed {}, decayed, p);
    // Against the closed form y0 e^{-k}.
    let (v, g) = gradient(decayed {}, &p);
    let e = (-p[0]).exp();
    assert_close(v, p[1] * e, 1e-8, "y(1)");
    assert_close(g[0], -p[1] * e, 1e-7, "d/dk");
    assert_close(g[1], e, 1e-8, "d/dy0");
}

/// Logistic growth `y' = r y (1 - y / cap)`, the rate and the capacity differentiated,
/// two solves of one ODE.
#[derive_frule]
pub fn logistic_gain(p: &[f64]) -> f64 {
    let (r, cap) = (p[0], p[1]);
    let growth = |_t: f64, y: f64| r * y * (1.0 - y / cap);
    let ode = Ode {
        rhs: &growth,
        t1: 2.0,
        steps: 80,
    };
    solve(&ode, 0.5) - solve(&ode, 0.25)
}

#[test]
fn ode_solved_twice() {
    let p = [1.1, 3.0];
    check_modes!(logistic_gain {}, logistic_gain, p);
    // Against the closed form y(t) = cap / (1 + (cap / y0 - 1) e^{-r t}).
    let y = |y0: f64, r: f64, cap: f64| cap / (1.0 + (cap / y0 - 1.0) * (-r * 2.0).exp());
    let exact = |q: &[f64]| y(0.5, q[0], q[1]) - y(0.25, q[0], q[1]);
    let (v, g) = gradient(logistic_gain {}, &p);
    assert_close(v, exact(&p), 1e-7, "gain");
    let h = 1e-6;
    for k in 0..2 {
        let (mut a, mut b) = (p, p);
        a[k] += h;
        b[k] -= h;
        assert_close(g[k], (exact(&a) - exact(&b)) / (2.0 * h), 1e-6, "d/dp");
    }
}

// --- 3. Moved by value, passed on ----------------------------------------------------------

/// ∫ₐᵇ f by the midpoint rule.
pub struct Quadrature<F>
where
    F: Fn(f64) -> f64,
{
    pub f: F,
    pub a: f64,
    pub b: f64,
}

/// Takes the quadrature object by value.
#[derive_frule]
pub fn midpoint<F>(q: Quadrature<F>, n: usize) -> f64
where
    F: Fn(f64) -> f64,
{
    let h = (q.b - q.a) / n as f64;
    let mut s = 0.0;
    for i in 0..n {
        s += (q.f)(q.a + (i as f64 + 0.5) * h);
    }
    s * h
}

/// The mean value: passes its parameter on.
#[derive_frule]
pub fn mean_of<F>(q: &Quadrature<F>) -> f64
where
    F: Fn(f64) -> f64,
{
    width_weighted(q, 200) / (q.b - q.a)
}

#[derive_frule]
pub fn width_weighted<F: Fn(f64) -> f64>(q: &Quadrature<F>, n: usize) -> f64 {
    let h = (q.b - q.a) / n as f64;
    (0..n)
        .map(|i| (q.f)(q.a + (i as f64 + 0.5) * h))
        .sum::<f64>()
        * h
}

/// ∫₀ᵇ e^{-k t} dt, the object moved into `midpoint`.
#[derive_frule]
pub fn damped_area(p: &[f64]) -> f64 {
    let k = p[0];
    let q = Quadrature {
        f: move |t: f64| (-k * t).exp(),
        a: 0.0,
        b: p[1],
    };
    midpoint(q, 400)
}

#[test]
fn quadrature_moved_into_a_function() {
    let p = [0.8, 1.5];
    check_modes!(damped_area {}, damped_area, p);
    let (k, b) = (p[0], p[1]);
    let (v, g) = gradient(damped_area {}, &p);
    assert_close(v, (1.0 - (-k * b).exp()) / k, 1e-5, "area");
    assert_close(g[1], (-k * b).exp(), 1e-5, "d/db");
}

/// The mean of cos(w t) over [a, a + 1].
#[derive_frule]
pub fn mean_cosine(p: &[f64]) -> f64 {
    let (w, a) = (p[0], p[1]);
    let q = Quadrature {
        f: |t| (w * t).cos(),
        a,
        b: a + 1.0,
    };
    mean_of(&q)
}

#[test]
fn quadrature_passed_on_from_parameter_to_parameter() {
    let p = [1.9, 0.3];
    check_modes!(mean_cosine {}, mean_cosine, p);
    let (w, a) = (p[0], p[1]);
    let exact = ((w * (a + 1.0)).sin() - (w * a).sin()) / w;
    let (v, _) = gradient(mean_cosine {}, &p);
    assert_close(v, exact, 1e-5, "mean");
}

// --- 4. A method taking the ODE ----------------------------------------------------------

/// The explicit midpoint method with a fixed step.
#[derive(Differentiable)]
pub struct Midpoint {
    pub h: f64,
}

#[derive_frule]
impl Midpoint {
    pub fn advance(&self, ode: &Ode<'_>, y0: f64, n: usize) -> f64 {
        let mut y = y0;
        for i in 0..n {
            let t = i as f64 * self.h;
            let half = y + 0.5 * self.h * (ode.rhs)(t, y);
            y += self.h * (ode.rhs)(t + 0.5 * self.h, half);
        }
        y
    }
}

/// `y' = -k y + sin t` from `y0`, twenty midpoint steps.
#[derive_frule]
pub fn forced(p: &[f64]) -> f64 {
    let (k, y0) = (p[0], p[1]);
    let ode = Ode {
        rhs: &|t, y| -k * y + t.sin(),
        t1: 1.0,
        steps: 20,
    };
    let stepper = Midpoint {
        h: ode.t1 / ode.steps as f64,
    };
    stepper.advance(&ode, y0, ode.steps)
}

#[test]
fn method_taking_the_ode() {
    let p = [0.9, 1.2];
    check_modes!(forced {}, forced, p);
    // y(1) = y0 e^{-k} + ∫₀¹ e^{-k(1-s)} sin s ds; d/dy0 is e^{-k} for the method up to
    // its error.
    let (_, g) = gradient(forced {}, &p);
    assert_close(g[1], (-p[0]).exp(), 1e-3, "d/dy0");
}

/// Reads only the bounds of the problem, not its function.
#[derive_frule]
pub fn bracket_width<F: Fn(f64) -> f64>(p: &Problem<F>) -> f64 {
    p.hi - p.lo
}

/// The minimum scaled by the bracket's width, the bracket from the inputs.
#[derive_frule]
pub fn scaled_minimum(w: &[f64]) -> f64 {
    let c = w[0];
    let p = Problem {
        f: |t| (t - c).powi(2) + 0.1 * t.powi(4),
        lo: -1.0 - w[1],
        hi: 2.0 + w[1],
    };
    minimise(&p, 0.0) * bracket_width(&p)
}

#[test]
fn one_problem_passed_to_two_functions() {
    check_modes!(scaled_minimum {}, scaled_minimum, [0.5, 0.3]);
}
