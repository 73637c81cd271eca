//! Closures passed to the user's functions borrow what they capture, as Rust's closures do:
//! a physicist's ODE integrators (`&dyn Fn`, `impl Fn`, generic `F`) whose right-hand side
//! reads a model struct that is not `Clone`, an optimiser whose gradient closure reads a
//! dataset `Vec<(f64, f64)>`, a quadrature over a `HashMap<String, usize>` of indices, trait
//! objects in a `Vec<Box<dyn ..>>`, an event log and a random generator written through
//! their captures, `move` closures. A captured value is never copied: a type whose `Clone`
//! counts shows none. Derivatives in one direction, batched (`gradient`) and second order
//! (`hessian`) against closed forms and central differences; primals bit for bit.
use fwdad::prelude::*;
use fwdad::Hyper;
use std::cell::Cell;
use std::collections::HashMap;

// ---------------------------------------------------------------------------------------
// The checks.

/// Central differences of `f` at `p`.
fn fd_grad(f: impl Fn(&[f64]) -> f64, p: &[f64]) -> Vec<f64> {
    (0..p.len())
        .map(|k| {
            let h = 1e-6 * p[k].abs().max(1.0);
            let (mut a, mut b) = (p.to_vec(), p.to_vec());
            a[k] += h;
            b[k] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

/// A function of a parameter vector and its rule in every mode.
struct Modes<P, O, G, H> {
    plain: P,
    one: O,
    grad: G,
    hess: H,
}

impl<P, O, G, H> Modes<P, O, G, H>
where
    P: Fn(&[f64]) -> f64,
    O: Fn(&[f64], &[f64]) -> Dual<f64, f64>,
    G: Fn(&[f64]) -> (f64, Vec<f64>),
    H: Fn(&[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>),
{
    /// Primals bit for bit; each direction, the gradient and the Hessian against central
    /// differences (of the plain function, and of the one-direction rule for the
    /// Hessian), and against the closed forms when given.
    fn check(&self, p: &[f64], grad: Option<Vec<f64>>, hess: Option<Vec<Vec<f64>>>) {
        let n = p.len();
        let value = (self.plain)(p);
        let fd = fd_grad(&self.plain, p);
        let directional = |q: &[f64], k: usize| {
            let mut e = vec![0.0; n];
            e[k] = 1.0;
            (self.one)(q, &e).tangent
        };
        for k in 0..n {
            let mut e = vec![0.0; n];
            e[k] = 1.0;
            let d = (self.one)(p, &e);
            assert_eq!(d.primal.to_bits(), value.to_bits(), "primal, direction {k}");
            approx::assert_relative_eq!(d.tangent, fd[k], epsilon = 1e-7, max_relative = 1e-6);
            if let Some(g) = &grad {
                approx::assert_relative_eq!(d.tangent, g[k], epsilon = 1e-12, max_relative = 1e-10);
            }
        }
        let (v, g) = (self.grad)(p);
        assert_eq!(v.to_bits(), value.to_bits(), "gradient's primal");
        assert_eq!(g.len(), n);
        for (k, gk) in g.iter().enumerate() {
            approx::assert_relative_eq!(
                *gk,
                directional(p, k),
                epsilon = 1e-14,
                max_relative = 1e-12
            );
        }
        let (hv, hg, h) = (self.hess)(p);
        assert_eq!(hv.to_bits(), value.to_bits(), "Hessian's primal");
        for i in 0..n {
            approx::assert_relative_eq!(hg[i], g[i], epsilon = 1e-14, max_relative = 1e-12);
            let col = fd_grad(|q| directional(q, i), p);
            for j in 0..n {
                approx::assert_relative_eq!(h[i][j], col[j], epsilon = 1e-6, max_relative = 1e-5);
                if let Some(hc) = &hess {
                    approx::assert_relative_eq!(
                        h[i][j],
                        hc[i][j],
                        epsilon = 1e-10,
                        max_relative = 1e-9
                    );
                }
            }
        }
    }
}

/// The [`Modes`] of a derived `fn name(p: &[f64]) -> f64`.
macro_rules! modes {
    ($name:ident, $frule:ident) => {
        Modes {
            plain: |q: &[f64]| $name(q),
            one: |q: &[f64], dq: &[f64]| $frule(Dual::new(q, dq)),
            grad: |q: &[f64]| gradient($name {}, q),
            hess: |q: &[f64]| {
                let (v, g, h) = hessian($name {}, q);
                let rows = (0..q.len())
                    .map(|i| (0..q.len()).map(|j| h[(i, j)]).collect())
                    .collect();
                (v, g, rows)
            },
        }
    };
}

// ---------------------------------------------------------------------------------------
// A physicist's integrators: explicit Euler, midpoint and RK4 for y' = f(t, y), taking the
// right-hand side as a trait object, as `impl Fn`, and as a generic parameter.

#[derive_frule]
pub fn euler(f: &dyn Fn(f64, f64) -> f64, y0: f64, t1: f64, n: usize) -> f64 {
    let h = t1 / n as f64;
    let mut y = y0;
    for i in 0..n {
        y += h * f(i as f64 * h, y);
    }
    y
}

#[derive_frule]
pub fn midpoint(f: impl Fn(f64, f64) -> f64, y0: f64, t1: f64, n: usize) -> f64 {
    let h = t1 / n as f64;
    let mut y = y0;
    for i in 0..n {
        let t = i as f64 * h;
        let k1 = f(t, y);
        y += h * f(t + 0.5 * h, y + 0.5 * h * k1);
    }
    y
}

#[derive_frule]
pub fn rk4<F: Fn(f64, f64) -> f64>(f: F, y0: f64, t1: f64, n: usize) -> f64 {
    let h = t1 / n as f64;
    let mut y = y0;
    for i in 0..n {
        let t = i as f64 * h;
        let k1 = f(t, y);
        let k2 = f(t + 0.5 * h, y + 0.5 * h * k1);
        let k3 = f(t + 0.5 * h, y + 0.5 * h * k2);
        let k4 = f(t + h, y + h * k3);
        y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    y
}

/// A decay model, with a label: not `Clone` (nothing needs to copy it).
#[derive(Differentiable, Debug)]
pub struct Decay {
    pub rate: f64,
    #[differentiable(skip)]
    pub label: String,
}

/// y' = −k y from y(0) = y0 to t = 1, by Euler (`p = [k, y0]`).
#[derive_frule]
fn decay_euler(p: &[f64]) -> f64 {
    let model = Decay {
        rate: p[0],
        label: String::from("first-order decay"),
    };
    assert!(!model.label.is_empty());
    euler(&|_t, y| -model.rate * y, p[1], 1.0, 20)
}

/// The same by the midpoint rule.
#[derive_frule]
fn decay_midpoint(p: &[f64]) -> f64 {
    let model = Decay {
        rate: p[0],
        label: String::from("first-order decay"),
    };
    midpoint(|_t, y| -model.rate * y, p[1], 1.0, 20)
}

/// The same by RK4.
#[derive_frule]
fn decay_rk4(p: &[f64]) -> f64 {
    let model = Decay {
        rate: p[0],
        label: String::from("first-order decay"),
    };
    rk4(|_t, y| -model.rate * y, p[1], 1.0, 20)
}

/// A one-step method's amplification on y' = −k y is a polynomial `R(z)` in z = −k h
/// (coefficients `c`, lowest first), so after n steps y = y0 R(z)ⁿ. Its gradient and
/// Hessian in (k, y0).
fn amplified(c: &[f64], p: &[f64], n: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
    let (k, y0) = (p[0], p[1]);
    let h = 1.0 / n as f64;
    let z = -k * h;
    let poly = |c: &[f64]| c.iter().rev().fold(0.0, |acc, ck| acc * z + ck);
    let d1: Vec<f64> = (1..c.len()).map(|i| i as f64 * c[i]).collect();
    let d2: Vec<f64> = (1..d1.len()).map(|i| i as f64 * d1[i]).collect();
    let (r, r1, r2) = (poly(c), poly(&d1), poly(&d2));
    let nf = n as f64;
    let dk = y0 * nf * r.powi(n as i32 - 1) * r1 * -h;
    let dy0 = r.powi(n as i32);
    let dkk = y0
        * h
        * h
        * (nf * (nf - 1.0) * r.powi(n as i32 - 2) * r1 * r1 + nf * r.powi(n as i32 - 1) * r2);
    let dky0 = nf * r.powi(n as i32 - 1) * r1 * -h;
    (vec![dk, dy0], vec![vec![dkk, dky0], vec![dky0, 0.0]])
}

#[test]
fn ode_integrators_borrowing_a_model_that_is_not_clone() {
    let p = [0.7, 1.3];
    let (g, h) = amplified(&[1.0, 1.0], &p, 20);
    modes!(decay_euler, decay_euler_frule).check(&p, Some(g), Some(h));
    let (g, h) = amplified(&[1.0, 1.0, 0.5], &p, 20);
    modes!(decay_midpoint, decay_midpoint_frule).check(&p, Some(g), Some(h));
    let (g, h) = amplified(&[1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0], &p, 20);
    modes!(decay_rk4, decay_rk4_frule).check(&p, Some(g), Some(h));
    // RK4 is close to the exact solution y0 e^{−k}.
    approx::assert_relative_eq!(decay_rk4(&p), 1.3 * (-0.7f64).exp(), max_relative = 1e-7);
}

// ---------------------------------------------------------------------------------------
// A captured value is borrowed, never copied: a `Clone` that counts.

thread_local! {
    static WEIGHT_CLONES: Cell<usize> = const { Cell::new(0) };
}

fn weight_clones() -> usize {
    WEIGHT_CLONES.with(Cell::get)
}

/// Quadrature weights whose copies are counted.
#[derive(Differentiable, Debug)]
pub struct Weights {
    pub w: Vec<f64>,
}

impl Clone for Weights {
    fn clone(&self) -> Self {
        WEIGHT_CLONES.with(|c| c.set(c.get() + 1));
        Weights { w: self.w.clone() }
    }
}

#[derive_frule]
pub fn trapezoid<F: Fn(f64) -> f64>(f: F, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = 0.5 * (f(a) + f(b));
    for k in 1..n {
        s += f(a + h * k as f64);
    }
    s * h
}

/// ∫₀¹ (e^{p0} s + e^{p1} s²) ds by the trapezoidal rule, the coefficients captured in a
/// struct (the closure is called 17 times).
#[derive_frule]
fn weighted_integral(p: &[f64]) -> f64 {
    let w: Vec<f64> = p.iter().map(|v| v.exp()).collect();
    let weights = Weights { w };
    trapezoid(|s| weights.w[0] * s + weights.w[1] * s * s, 0.0, 1.0, 16)
}

/// The same coefficients moved into a `move` closure.
#[derive_frule]
fn weighted_integral_moved(p: &[f64]) -> f64 {
    let w: Vec<f64> = p.iter().map(|v| v.exp()).collect();
    let weights = Weights { w };
    trapezoid(
        move |s| weights.w[0] * s + weights.w[1] * s * s,
        0.0,
        1.0,
        16,
    )
}

#[test]
fn captured_struct_is_borrowed_not_copied() {
    let p = [0.3f64, -0.4];
    // The trapezoidal rule integrates s exactly and s² with the error h²/6.
    let c = [0.5, 1.0 / 3.0 + 1.0 / (6.0 * 16.0 * 16.0)];
    let g = vec![c[0] * p[0].exp(), c[1] * p[1].exp()];
    let h = vec![vec![g[0], 0.0], vec![0.0, g[1]]];
    WEIGHT_CLONES.with(|c| c.set(0));
    modes!(weighted_integral, weighted_integral_frule).check(&p, Some(g.clone()), Some(h.clone()));
    modes!(weighted_integral_moved, weighted_integral_moved_frule).check(&p, Some(g), Some(h));
    // Copied per call (as the dual closures once did), it would count 17 per evaluation.
    assert_eq!(weight_clones(), 0);
}

// ---------------------------------------------------------------------------------------
// An optimiser whose gradient closure reads a dataset.

/// Fixed-step gradient descent from `a0`.
#[derive_frule]
pub fn descend<G: Fn(f64) -> f64>(grad: G, a0: f64, rate: f64, steps: usize) -> f64 {
    let mut a = a0;
    for _ in 0..steps {
        a -= rate * grad(a);
    }
    a
}

/// The least-squares slope through the origin of the points (xᵢ, p0 xᵢ + p1 sin 3xᵢ), by
/// 40 steps of gradient descent on Σ (a xᵢ − yᵢ)².
#[derive_frule]
fn fitted_slope(p: &[f64]) -> f64 {
    let xs = [0.5, 1.0, 1.5, 2.0];
    let data: Vec<(f64, f64)> = xs
        .iter()
        .map(|&x| (x, p[0] * x + p[1] * (3.0 * x).sin()))
        .collect();
    descend(
        |a| {
            data.iter()
                .map(|&(x, y)| 2.0 * x * (a * x - y))
                .sum::<f64>()
        },
        0.0,
        0.05,
        40,
    )
}

#[test]
fn optimiser_closure_reads_a_captured_dataset() {
    let p = [1.7, 0.2];
    // From a0 = 0 the iterates are a* (1 − qⁿ), q = 1 − 2 rate Sxx, a* = Sxy / Sxx.
    let xs = [0.5f64, 1.0, 1.5, 2.0];
    let sxx: f64 = xs.iter().map(|x| x * x).sum();
    let sxs: f64 = xs.iter().map(|x| x * (3.0 * x).sin()).sum();
    let shrink = 1.0 - (1.0 - 2.0 * 0.05 * sxx).powi(40);
    let g = vec![shrink, shrink * sxs / sxx];
    modes!(fitted_slope, fitted_slope_frule).check(&p, Some(g), Some(vec![vec![0.0; 2]; 2]));
    approx::assert_relative_eq!(
        fitted_slope(&p),
        p[0] + p[1] * sxs / sxx,
        max_relative = 1e-6
    );
}

// ---------------------------------------------------------------------------------------
// A map of indices (integers, not floats) captured by a quadrature's integrand.

/// ½ k ∫₀¹ (s − x0)² ds by the trapezoidal rule, the parameters looked up by name.
#[derive_frule]
fn spring_energy(p: &[f64]) -> f64 {
    let mut index: HashMap<String, usize> = HashMap::new();
    index.insert("stiffness".to_string(), 0);
    index.insert("rest".to_string(), 1);
    trapezoid(
        |s| 0.5 * p[index["stiffness"]] * (s - p[index["rest"]]).powi(2),
        0.0,
        1.0,
        8,
    )
}

#[test]
fn integrand_reads_a_captured_index_map() {
    let p = [2.5, 0.3];
    let (k, x0) = (p[0], p[1]);
    // Trapezoidal rule on a quadratic: 1/3 − x0 + x0² + h²/6.
    let t = 1.0 / 3.0 - x0 + x0 * x0 + 1.0 / (6.0 * 64.0);
    let g = vec![0.5 * t, 0.5 * k * (2.0 * x0 - 1.0)];
    let h = vec![vec![0.0, x0 - 0.5], vec![x0 - 0.5, k]];
    modes!(spring_energy, spring_energy_frule).check(&p, Some(g), Some(h));
}

// ---------------------------------------------------------------------------------------
// Trait objects in a `Vec<Box<dyn ..>>` (not `Clone`) built in the body and captured.

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
pub fn total_reach(joints: &[Box<dyn Joint>], q: f64) -> f64 {
    joints.iter().map(|j| j.reach(q)).sum()
}

/// The mean reach of an arm of two joints over a sweep of the angle from 0 to p0.
#[derive_frule]
fn mean_reach(p: &[f64]) -> f64 {
    let arm: Vec<Box<dyn Joint>> = vec![
        Box::new(Revolute { len: 0.4 }),
        Box::new(Revolute { len: 0.25 }),
    ];
    trapezoid(|s| total_reach(&arm, s * p[0]), 0.0, 1.0, 8)
}

#[test]
fn closure_borrows_boxed_trait_objects() {
    let p = [1.1];
    // h Σ' wᵢ 0.65 cos(sᵢ p0), sᵢ = i/8, w = ½ at the ends.
    let w = |i: usize| if i == 0 || i == 8 { 0.5 } else { 1.0 };
    let s = |i: usize| i as f64 / 8.0;
    let g: f64 = (0..=8)
        .map(|i| -w(i) * 0.65 * s(i) * (s(i) * p[0]).sin())
        .sum::<f64>()
        / 8.0;
    let hh: f64 = (0..=8)
        .map(|i| -w(i) * 0.65 * s(i) * s(i) * (s(i) * p[0]).cos())
        .sum::<f64>()
        / 8.0;
    modes!(mean_reach, mean_reach_frule).check(&p, Some(vec![g]), Some(vec![vec![hh]]));
}

// ---------------------------------------------------------------------------------------
// Captures written through: an event log behind a `&mut` parameter, a random generator
// that is not `Clone`.

/// Calls `f` at 0, 1, .., n − 1 and sums the results (`FnMut`: `f` may keep state).
#[derive_frule]
pub fn sum_over<F: FnMut(usize) -> f64>(mut f: F, n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += f(i);
    }
    s
}

/// Σᵢ exp(−p0 tᵢ) at tᵢ = i/4, logging each evaluation into the caller's log.
#[derive_frule]
pub fn logged_decay(p: &[f64], log: &mut Vec<String>) -> f64 {
    sum_over(
        |i| {
            let t = i as f64 / 4.0;
            log.push(format!("t = {t}"));
            (-p[0] * t).exp()
        },
        6,
    )
}

#[test]
fn event_log_written_through_a_captured_mut_reference() {
    let p = [0.9];
    let ts = || (0..6).map(|i| i as f64 / 4.0);
    let g: f64 = ts().map(|t| -t * (-p[0] * t).exp()).sum();
    let h: f64 = ts().map(|t| t * t * (-p[0] * t).exp()).sum();
    let expected_log: Vec<String> = ts().map(|t| format!("t = {t}")).collect();
    let mut log = Vec::new();
    let value = logged_decay(&p, &mut log);
    assert_eq!(log, expected_log);
    let fd = fd_grad(|q| logged_decay(q, &mut Vec::new()), &p);
    // One direction: the log receives every evaluation, once.
    let (mut log, mut no_tangents) = (Vec::new(), Vec::new());
    let d = logged_decay_frule(
        Dual::new(&p[..], &[1.0][..]),
        Dual::new(&mut log, &mut no_tangents),
    );
    assert_eq!(log, expected_log);
    assert_eq!(d.primal.to_bits(), value.to_bits());
    approx::assert_relative_eq!(d.tangent, g, max_relative = 1e-12);
    approx::assert_relative_eq!(d.tangent, fd[0], max_relative = 1e-6);
    // Two directions at once, and second order.
    let (mut log, mut no_tangents) = (Vec::new(), Vec::new());
    let dirs = [Batch([1.0, -2.0])];
    let b = <logged_decay as Frule<_, Batch<f64, 2>>>::frule(
        &logged_decay {},
        (
            Dual::new(&p[..], &dirs[..]),
            Dual::new(&mut log, &mut no_tangents),
        ),
    );
    assert_eq!(log, expected_log);
    assert_eq!(b.primal.to_bits(), value.to_bits());
    approx::assert_relative_eq!(b.tangent.0[0], g, max_relative = 1e-12);
    approx::assert_relative_eq!(b.tangent.0[1], -2.0 * g, max_relative = 1e-12);
    let (mut log, mut no_tangents) = (Vec::new(), Vec::new());
    let seed = [Hyper {
        d1: 1.0,
        d2: 1.0,
        d12: 0.0,
    }];
    let hy = <logged_decay as Frule<_, Hyper<f64, f64>>>::frule(
        &logged_decay {},
        (
            Dual::new(&p[..], &seed[..]),
            Dual::new(&mut log, &mut no_tangents),
        ),
    );
    assert_eq!(log, expected_log);
    assert_eq!(hy.primal.to_bits(), value.to_bits());
    approx::assert_relative_eq!(hy.tangent.d1, g, max_relative = 1e-12);
    approx::assert_relative_eq!(hy.tangent.d12, h, max_relative = 1e-12);
}

/// A linear congruential generator, not `Clone`: a Monte-Carlo estimate must draw a new
/// number at each call, never from a copy of the state.
#[derive(Differentiable, Debug)]
pub struct Lcg {
    pub state: u64,
}

#[derive_frule]
impl Lcg {
    pub fn uniform(&mut self) -> f64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The mean of sin(p0 U) over 32 draws of U, uniform on [0, 1).
#[derive_frule]
fn monte_carlo_sine(p: &[f64]) -> f64 {
    let mut rng = Lcg { state: 2026 };
    sum_over(|_| (p[0] * rng.uniform()).sin(), 32) / 32.0
}

#[test]
fn generator_state_advances_through_the_capture() {
    let p = [1.3];
    let mut rng = Lcg { state: 2026 };
    let us: Vec<f64> = (0..32).map(|_| rng.uniform()).collect();
    // The draws differ (a copied state would repeat the first).
    assert!(us.windows(2).all(|w| w[0] != w[1]));
    let g: f64 = us.iter().map(|u| u * (p[0] * u).cos()).sum::<f64>() / 32.0;
    let h: f64 = us.iter().map(|u| -u * u * (p[0] * u).sin()).sum::<f64>() / 32.0;
    modes!(monte_carlo_sine, monte_carlo_sine_frule).check(&p, Some(vec![g]), Some(vec![vec![h]]));
}

// ---------------------------------------------------------------------------------------
// A model bound `mut` read through a method by an `Fn` integrand, and a returned `move`
// closure owning a `Vec`.

/// A quadratic potential.
#[derive(Differentiable, Debug)]
pub struct Potential {
    pub k: f64,
}

#[derive_frule]
impl Potential {
    pub fn at(&self, x: f64) -> f64 {
        self.k * x * x
    }
}

/// ∫₀¹ 2 p0 x² dx by the trapezoidal rule (n = 4), the model adjusted before it is
/// captured.
#[derive_frule]
fn stiffened_mean(p: &[f64]) -> f64 {
    let mut model = Potential { k: p[0] };
    model.k *= 2.0;
    trapezoid(|x| model.at(x), 0.0, 1.0, 4)
}

/// The line x ↦ c0 + c1 x with cᵢ = pᵢ², which the returned closure owns.
#[derive_frule]
fn line_through(p: &[f64]) -> impl Fn(f64) -> f64 {
    let c: Vec<f64> = p.iter().map(|v| v * v).collect();
    move |x| c[0] + c[1] * x
}

#[derive_frule]
fn line_at_half(p: &[f64]) -> f64 {
    let line = line_through(p);
    line(0.5)
}

#[test]
fn mut_model_read_by_fn_closure_and_returned_move_closure() {
    let p = [0.8, -1.2];
    // Trapezoidal rule on x²: 1/3 + h²/6.
    let t = 1.0 / 3.0 + 1.0 / 96.0;
    modes!(stiffened_mean, stiffened_mean_frule).check(
        &p,
        Some(vec![2.0 * t, 0.0]),
        Some(vec![vec![0.0; 2]; 2]),
    );
    modes!(line_at_half, line_at_half_frule).check(
        &p,
        Some(vec![2.0 * p[0], p[1]]),
        Some(vec![vec![2.0, 0.0], vec![0.0, 1.0]]),
    );
}

// ---------------------------------------------------------------------------------------
// A capture whose name the closure binds again inside.

/// Tabulated coefficients, not `Clone`.
#[derive(Differentiable, Debug)]
pub struct Table {
    pub y: Vec<f64>,
}

/// ∫₀¹ (p0 s + p1²) ds by the trapezoidal rule; the integrand reuses the name `table`
/// for its own value, and an `if let` binds it again.
#[derive_frule]
#[allow(clippy::let_and_return)] // the point: the closure names its value as a capture
fn tabulated(p: &[f64]) -> f64 {
    let table = Table {
        y: vec![p[0], p[1] * p[1]],
    };
    trapezoid(
        |s| {
            let first = table.y[0] * s;
            let second = if let Some(table) = table.y.get(1) {
                *table
            } else {
                0.0
            };
            let table = first + second;
            table
        },
        0.0,
        1.0,
        4,
    )
}

#[test]
fn capture_rebound_inside_the_closure() {
    let p = [0.6, -0.7];
    modes!(tabulated, tabulated_frule).check(
        &p,
        Some(vec![0.5, 2.0 * p[1]]),
        Some(vec![vec![0.0, 0.0], vec![0.0, 2.0]]),
    );
}

// ---------------------------------------------------------------------------------------
// A closure writing into a captured `&mut [f64]` output, and one capturing `self` in a
// `&mut self` method.

/// Writes `out[i] = p0 i` for i < 3 from the closure, and sums the values written.
#[derive_frule]
pub fn fill_ramp(p: &[f64], out: &mut [f64]) -> f64 {
    sum_over(
        |i| {
            out[i] = p[0] * i as f64;
            out[i]
        },
        3,
    )
}

#[test]
fn closure_writes_a_captured_output_buffer() {
    let p = [0.5];
    let (mut out, mut dout) = ([0.0; 3], [0.0; 3]);
    let d = fill_ramp_frule(
        Dual::new(&p[..], &[1.0][..]),
        Dual::new(&mut out[..], &mut dout[..]),
    );
    let mut plain_out = [0.0; 3];
    assert_eq!(d.primal.to_bits(), fill_ramp(&p, &mut plain_out).to_bits());
    assert_eq!(out, plain_out);
    assert_eq!(out, [0.0, 0.5, 1.0]);
    // d out[i] / d p0 = i; the sum's derivative 0 + 1 + 2.
    assert_eq!(dout, [0.0, 1.0, 2.0]);
    assert_eq!(d.tangent, 3.0);
}

/// A spring whose mean energy over [0, 1] a `&mut self` method integrates, counting its
/// evaluations.
#[derive(Differentiable, Debug)]
pub struct Spring {
    pub k: f64,
    pub evaluations: usize,
}

#[derive_frule]
impl Spring {
    pub fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x
    }

    pub fn mean_energy(&mut self) -> f64 {
        self.evaluations += 1;
        trapezoid(|x| self.energy(x), 0.0, 1.0, 2)
    }
}

#[derive_frule]
fn spring_mean(p: &[f64]) -> f64 {
    let mut spring = Spring {
        k: p[0] * p[0],
        evaluations: 0,
    };
    let e = spring.mean_energy();
    assert_eq!(spring.evaluations, 1);
    e
}

#[test]
fn closure_captures_self_of_a_mut_self_method() {
    let p = [1.4];
    // Trapezoidal rule (n = 2) on ½ k x²: ½ k (1/3 + 1/24), k = p0².
    let c = 0.5 * (1.0 / 3.0 + 1.0 / 24.0);
    modes!(spring_mean, spring_mean_frule).check(
        &p,
        Some(vec![2.0 * c * p[0]]),
        Some(vec![vec![2.0 * c]]),
    );
}

// ---------------------------------------------------------------------------------------
// A `move` closure assigning its own copy of a capture, and a closure assigning a capture
// whose name it then binds again.

/// Simpson's rule on [a, b] with one panel (calls `f` at a, the middle, b, in that order).
#[derive_frule]
pub fn simpson1<F: FnMut(f64) -> f64>(mut f: F, a: f64, b: f64) -> f64 {
    (b - a) / 6.0 * (f(a) + 4.0 * f(0.5 * (a + b)) + f(b))
}

/// The integrand weights its n-th call by n, counting in the closure's own copy of
/// `calls`; the caller's `calls` stays 0.
#[derive_frule]
fn weighted_by_calls(p: &[f64]) -> f64 {
    let mut calls = 0;
    let s = simpson1(
        move |x| {
            calls += 1;
            p[0] * x * calls as f64
        },
        0.0,
        1.0,
    );
    s + calls as f64
}

/// The integrand accumulates its abscissae into `total`, then names its own value
/// `total`.
#[derive_frule]
#[allow(clippy::let_and_return)] // the point: the closure names its value as a capture
fn accumulated(p: &[f64]) -> f64 {
    let mut total = 0.0;
    let s = simpson1(
        |x| {
            total += x;
            let total = p[0] * x;
            total
        },
        0.0,
        1.0,
    );
    s + total
}

#[test]
fn move_closure_assigns_its_copy_and_shadowed_assigned_capture() {
    let p = [1.9];
    // (0·1 + 4 · ½ k · 2 + k · 3) / 6 = 7k/6, plus the caller's calls, 0.
    modes!(weighted_by_calls, weighted_by_calls_frule).check(
        &p,
        Some(vec![7.0 / 6.0]),
        Some(vec![vec![0.0]]),
    );
    approx::assert_relative_eq!(
        weighted_by_calls(&p),
        7.0 * p[0] / 6.0,
        max_relative = 1e-15
    );
    // k/2 plus the abscissae 0 + ½ + 1.
    modes!(accumulated, accumulated_frule).check(&p, Some(vec![0.5]), Some(vec![vec![0.0]]));
    approx::assert_relative_eq!(accumulated(&p), 0.5 * p[0] + 1.5, max_relative = 1e-15);
}
