//! The drivers on methods: `gradient`, `jacobian` and `hessian` of a method of a
//! `#[derive_frule] impl` in its vector argument, the receiver fixed, through the method's
//! rule handle `rule!(Model::loss)` bound with the receiver first (`bind(rule!(Model::loss),
//! (&model, Wrt))`). `Model::loss {}`, the spelling of a free function's marker, is rustc's
//! E0223 (an associated type), so the handle of a method is named by `rule!`.
//! Derivatives against closed forms and central differences (single, batched, second
//! order), primals bit for bit against the plain methods.

#![allow(clippy::needless_range_loop)]

mod common;

use fwdad::drivers::{bind, gradient_with, hessian_with, jvp, Const, Var, Wrt};
use fwdad::prelude::*;

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

// ---------------------------------------------------------------------------------------
// A ridge-regularised logistic regression, its data held by the model.

#[derive(Clone, Debug, Differentiable)]
pub struct Logistic {
    pub xs: Vec<[f64; 2]>,
    pub ys: Vec<f64>,
    pub lambda: f64,
}

#[derive_frule]
impl Logistic {
    /// Mean negative log-likelihood plus `λ/2 ‖w‖²`, `w = [w0, w1, bias]`.
    pub fn loss(&self, w: &[f64]) -> f64 {
        let mut total = 0.0;
        for (x, &y) in self.xs.iter().zip(&self.ys) {
            let z = w[0] * x[0] + w[1] * x[1] + w[2];
            let p = 1.0 / (1.0 + (-z).exp());
            total -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        }
        let reg: f64 = w.iter().map(|v| v * v).sum();
        total / self.xs.len() as f64 + 0.5 * self.lambda * reg
    }

    /// The model's logits at each sample.
    pub fn logits(&self, w: &[f64]) -> Vec<f64> {
        self.xs
            .iter()
            .map(|x| w[0] * x[0] + w[1] * x[1] + w[2])
            .collect()
    }
}

fn model() -> Logistic {
    Logistic {
        xs: vec![[0.5, 1.0], [-1.2, 0.3], [2.0, -0.7], [0.1, 0.1]],
        ys: vec![1.0, 0.0, 1.0, 0.0],
        lambda: 0.1,
    }
}

/// ∇ of the loss by hand: `(1/n) Σ (p − y) [x0, x1, 1] + λ w`.
fn loss_gradient(m: &Logistic, w: &[f64]) -> [f64; 3] {
    let mut g = [0.0; 3];
    for (x, &y) in m.xs.iter().zip(&m.ys) {
        let z = w[0] * x[0] + w[1] * x[1] + w[2];
        let p = 1.0 / (1.0 + (-z).exp());
        let feats = [x[0], x[1], 1.0];
        for k in 0..3 {
            g[k] += (p - y) * feats[k];
        }
    }
    let n = m.xs.len() as f64;
    [
        g[0] / n + m.lambda * w[0],
        g[1] / n + m.lambda * w[1],
        g[2] / n + m.lambda * w[2],
    ]
}

/// ∇² of the loss by hand: `(1/n) Σ p(1 − p) f fᵀ + λ I`.
fn loss_hessian(m: &Logistic, w: &[f64]) -> [[f64; 3]; 3] {
    let mut h = [[0.0; 3]; 3];
    let n = m.xs.len() as f64;
    for x in &m.xs {
        let z = w[0] * x[0] + w[1] * x[1] + w[2];
        let p = 1.0 / (1.0 + (-z).exp());
        let feats = [x[0], x[1], 1.0];
        for i in 0..3 {
            for j in 0..3 {
                h[i][j] += p * (1.0 - p) * feats[i] * feats[j] / n;
            }
        }
    }
    for i in 0..3 {
        h[i][i] += m.lambda;
    }
    h
}

#[test]
fn gradient_and_hessian_of_a_method_in_its_slice_argument() {
    let m = model();
    let w = [0.3, -0.8, 0.15];
    let (l, g) = gradient(bind(rule!(Logistic::loss), (&m, Wrt)), &w);
    assert_eq!(l.to_bits(), m.loss(&w).to_bits());
    let want = loss_gradient(&m, &w);
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-14, &format!("d loss/dw{k}"));
    }
    let (l2, g2, h) = hessian(bind(rule!(Logistic::loss), (&m, Wrt)), &w);
    assert_eq!(l2.to_bits(), m.loss(&w).to_bits());
    let want_h = loss_hessian(&m, &w);
    for i in 0..3 {
        assert_close(g2[i], want[i], 1e-14, &format!("second order: d/dw{i}"));
        for j in 0..3 {
            assert_close(h[(i, j)], want_h[i][j], 1e-13, &format!("d2/dw{i}dw{j}"));
        }
    }
    // Batches of one and four, one direction per input, second order in pairs, against
    // central differences.
    crate::check_modes!(
        bind(rule!(Logistic::loss), (&m, Wrt)),
        |w: &[f64]| m.loss(w),
        w
    );
}

#[test]
fn jacobian_of_a_method_returning_a_vec() {
    let m = model();
    let w = [0.3, -0.8, 0.15];
    let (z, j) = jacobian(bind(rule!(Logistic::logits), (&m, Wrt)), &w);
    let plain = m.logits(&w);
    assert_eq!(z.len(), plain.len());
    for (a, b) in z.iter().zip(&plain) {
        assert_eq!(a.to_bits(), b.to_bits());
    }
    // ∂z_i/∂w = [x_i0, x_i1, 1].
    for (i, x) in m.xs.iter().enumerate() {
        assert_eq!(j[(i, 0)], x[0]);
        assert_eq!(j[(i, 1)], x[1]);
        assert_eq!(j[(i, 2)], 1.0);
    }
}

// ---------------------------------------------------------------------------------------
// A two-link arm: the tip's position of the joint angles, its potential energy; a
// fixed-size array argument, `jacobian_array` and `hessian_array`.

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Arm {
    pub l1: f64,
    pub l2: f64,
    pub mass: f64,
}

#[derive_frule]
impl Arm {
    pub fn tip(&self, q: &[f64; 2]) -> [f64; 2] {
        let a = q[0];
        let b = q[0] + q[1];
        [
            self.l1 * a.cos() + self.l2 * b.cos(),
            self.l1 * a.sin() + self.l2 * b.sin(),
        ]
    }

    pub fn potential(&self, q: &[f64; 2]) -> f64 {
        let [_, y] = self.tip(q);
        self.mass * 9.81 * y
    }
}

#[test]
fn array_drivers_of_methods() {
    let arm = Arm {
        l1: 1.0,
        l2: 0.7,
        mass: 2.0,
    };
    let q = [0.4, -1.1];
    let (p, j) = jacobian_array(bind(rule!(Arm::tip), (&arm, Wrt)), &q);
    assert_eq!(p[0].to_bits(), arm.tip(&q)[0].to_bits());
    assert_eq!(p[1].to_bits(), arm.tip(&q)[1].to_bits());
    let (a, b) = (q[0], q[0] + q[1]);
    let want = [
        [-arm.l1 * a.sin() - arm.l2 * b.sin(), -arm.l2 * b.sin()],
        [arm.l1 * a.cos() + arm.l2 * b.cos(), arm.l2 * b.cos()],
    ];
    for r in 0..2 {
        for c in 0..2 {
            assert_close(j[r][c], want[r][c], 1e-15, &format!("J[{r}][{c}]"));
        }
    }
    // The same through `jacobian` at a slice.
    let (_, jm) = jacobian(bind(rule!(Arm::tip), (&arm, Wrt)), &q[..]);
    for r in 0..2 {
        for c in 0..2 {
            assert_eq!(jm[(r, c)].to_bits(), j[r][c].to_bits());
        }
    }
    // V = m g (l1 sin a + l2 sin b): its gradient and Hessian.
    let g0 = arm.mass * 9.81;
    let (v, gr, h) = hessian_array(bind(rule!(Arm::potential), (&arm, Wrt)), &q);
    assert_eq!(v.to_bits(), arm.potential(&q).to_bits());
    assert_close(
        gr[0],
        g0 * (arm.l1 * a.cos() + arm.l2 * b.cos()),
        1e-14,
        "dV/dq0",
    );
    assert_close(gr[1], g0 * arm.l2 * b.cos(), 1e-14, "dV/dq1");
    let s2 = -g0 * arm.l2 * b.sin();
    assert_close(h[0][0], -g0 * arm.l1 * a.sin() + s2, 1e-14, "d2V/dq0dq0");
    assert_close(h[0][1], s2, 1e-14, "d2V/dq0dq1");
    assert_close(h[1][0], s2, 1e-14, "d2V/dq1dq0");
    assert_close(h[1][1], s2, 1e-14, "d2V/dq1dq1");
    let plain = |q: &[f64]| arm.potential(&[q[0], q[1]]);
    crate::check_modes!(bind(rule!(Arm::potential), (&arm, Wrt)), plain, q);
}

// ---------------------------------------------------------------------------------------
// A method of several scalars, `Var(i)`; a method taking `self` by value (`Const(..)`),
// and a method of a trait's `impl`.

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Morse {
    pub depth: f64,
    pub width: f64,
}

#[derive_frule]
impl Morse {
    pub fn energy(&self, r: f64, r0: f64) -> f64 {
        let e = 1.0 - (-self.width * (r - r0)).exp();
        self.depth * e * e
    }

    pub fn scaled(self, k: f64, r: &[f64]) -> f64 {
        r.iter().map(|&ri| k * self.energy(ri, 1.0)).sum()
    }
}

#[derive_frule]
pub trait Potential {
    fn at(&self, r: &[f64]) -> f64;
}

#[derive_frule]
impl Potential for Morse {
    fn at(&self, r: &[f64]) -> f64 {
        let mut v = 0.0;
        for i in 0..r.len() {
            for j in i + 1..r.len() {
                v += self.energy((r[j] - r[i]).abs(), 1.2);
            }
        }
        v
    }
}

#[test]
fn scalar_arguments_self_by_value_and_trait_methods() {
    let m = Morse {
        depth: 1.5,
        width: 0.8,
    };
    // ∂/∂r and ∂/∂r0 of D (1 − e^{−a(r − r0)})².
    let (r, r0) = (1.4, 1.1);
    let (v, g) = gradient(bind(rule!(Morse::energy), (&m, Var(0), Var(1))), &[r, r0]);
    assert_eq!(v.to_bits(), m.energy(r, r0).to_bits());
    let e = (-m.width * (r - r0)).exp();
    let dr = 2.0 * m.depth * (1.0 - e) * m.width * e;
    assert_close(g[0], dr, 1e-15, "dE/dr");
    assert_close(g[1], -dr, 1e-15, "dE/dr0");
    let (_, d) = derivative(bind(rule!(Morse::energy), (&m, Wrt, r0)), r);
    assert_close(d, dr, 1e-15, "derivative dE/dr");
    crate::check_modes!(
        bind(rule!(Morse::energy), (&m, Var(0), Var(1))),
        |x: &[f64]| m.energy(x[0], x[1]),
        [r, r0]
    );

    // `self` by value, bound as a constant.
    let rs = [0.9, 1.3, 2.0];
    let (v, g) = gradient(bind(rule!(Morse::scaled), (Const(m), 2.0, Wrt)), &rs);
    assert_eq!(v.to_bits(), m.scaled(2.0, &rs).to_bits());
    for k in 0..3 {
        let e = (-m.width * (rs[k] - 1.0)).exp();
        let want = 2.0 * 2.0 * m.depth * (1.0 - e) * m.width * e;
        assert_close(g[k], want, 1e-14, &format!("d scaled/dr{k}"));
    }
    crate::check_modes!(
        bind(rule!(Morse::scaled), (Const(m), 2.0, Wrt)),
        |r: &[f64]| m.scaled(2.0, r),
        rs
    );

    // A trait method, named on the type or as `<Morse as Potential>::at`.
    let xs = [0.0, 1.0, 2.6];
    let (v, g) = gradient(bind(rule!(Morse::at), (&m, Wrt)), &xs);
    assert_eq!(v.to_bits(), m.at(&xs).to_bits());
    let (_, g2) = gradient(bind(rule!(<Morse as Potential>::at), (&m, Wrt)), &xs);
    assert_eq!(g, g2);
    crate::check_modes!(bind(rule!(Morse::at), (&m, Wrt)), |x: &[f64]| m.at(x), xs);
}

// ---------------------------------------------------------------------------------------
// A generic `impl<T: Float>`: the type's parameter inferred from the bound receiver.

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Quadratic<T> {
    pub a: T,
    pub c: T,
}

#[derive_frule]
impl<T: num_traits::Float> Quadratic<T> {
    pub fn eval(&self, x: &[T]) -> T {
        let mut s = self.c;
        for &xi in x {
            s = s + self.a * xi * xi;
        }
        s
    }
}

#[test]
fn a_method_of_a_generic_impl() {
    let q = Quadratic { a: 1.5, c: 0.25 };
    let x = [0.5, -2.0];
    let (v, g) = gradient(bind(rule!(Quadratic::eval), (&q, Wrt)), &x);
    assert_eq!(v.to_bits(), q.eval(&x).to_bits());
    assert_eq!(g, [3.0 * x[0], 3.0 * x[1]]);
    let (_, g2) = gradient(bind(rule!(Quadratic::<f64>::eval), (&q, Wrt)), &x);
    assert_eq!(g, g2);
    let (_, _, h) = hessian_with::<2>(bind(rule!(Quadratic::eval), (&q, Wrt)), &x);
    assert_eq!(h.to_rows(), [[3.0, 0.0], [0.0, 3.0]]);
    let (_, gb) = gradient_with::<4>(bind(rule!(Quadratic::eval), (&q, Wrt)), &x);
    assert_eq!(gb, g);
    let (_, d) = jvp(bind(rule!(Quadratic::eval), (&q, Wrt)), &x, &[1.0, 1.0]);
    assert_eq!(d, g[0] + g[1]);
}
