//! Control, estimation and optimisation as engineers write them, annotated unmodified: an
//! LQR gain by Riccati iteration over 2×2 array matrices, a PID controller with
//! anti-windup as a state struct stepped through `&mut self`, a Luenberger observer, an
//! L-BFGS two-loop recursion over a `VecDeque`-free history of pairs, an augmented
//! Lagrangian over closures, and a log-barrier interior-point loop with a backtracking
//! line search. Each is checked against central differences in every mode
//! (`check_modes!`, primals bit for bit) and against closed forms where there is one.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::drivers::Var;
use fwdad::prelude::*;

type Mat2 = [[f64; 2]; 2];

#[derive_frule]
fn mat_mul(a: &Mat2, b: &Mat2) -> Mat2 {
    let mut c = [[0.0; 2]; 2];
    for i in 0..2 {
        for j in 0..2 {
            for k in 0..2 {
                c[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    c
}

#[derive_frule]
fn transpose(a: &Mat2) -> Mat2 {
    [[a[0][0], a[1][0]], [a[0][1], a[1][1]]]
}

// ---------------------------------------------------------------------------------------
// Program 18: a discrete LQR gain for a double integrator, by Riccati iteration.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Lqr {
    pub q: [f64; 2],
    pub r: f64,
}

#[derive_frule]
impl Lqr {
    /// P ← Q + AᵀPA − AᵀPB (R + BᵀPB)⁻¹ BᵀPA, until P stops changing; returns K.
    pub fn gain(&self, a: &Mat2, b: [f64; 2]) -> [f64; 2] {
        let mut p = [[self.q[0], 0.0], [0.0, self.q[1]]];
        let at = transpose(a);
        let mut k = [0.0; 2];
        for _ in 0..500 {
            let pa = mat_mul(&p, a);
            let pb = [
                p[0][0] * b[0] + p[0][1] * b[1],
                p[1][0] * b[0] + p[1][1] * b[1],
            ];
            let s = self.r + b[0] * pb[0] + b[1] * pb[1];
            // K = (R + BᵀPB)⁻¹ BᵀPA
            k = [
                (b[0] * pa[0][0] + b[1] * pa[1][0]) / s,
                (b[0] * pa[0][1] + b[1] * pa[1][1]) / s,
            ];
            let atpa = mat_mul(&at, &pa);
            let atpb = [
                at[0][0] * pb[0] + at[0][1] * pb[1],
                at[1][0] * pb[0] + at[1][1] * pb[1],
            ];
            let mut next = [[0.0; 2]; 2];
            let mut change: f64 = 0.0;
            for i in 0..2 {
                for j in 0..2 {
                    let qij = if i == j { self.q[i] } else { 0.0 };
                    next[i][j] = qij + atpa[i][j] - atpb[i] * k[j];
                    change = change.max((next[i][j] - p[i][j]).abs());
                }
            }
            p = next;
            if change < 1e-13 {
                break;
            }
        }
        k
    }
}

#[derive_frule]
pub fn lqr_gain_norm(q1: f64, q2: f64, r: f64, dt: f64) -> f64 {
    let a = [[1.0, dt], [0.0, 1.0]];
    let b = [0.5 * dt * dt, dt];
    let k = Lqr { q: [q1, q2], r }.gain(&a, b);
    k[0] * k[0] + k[1] * k[1]
}

// ---------------------------------------------------------------------------------------
// Program 19: a PID with anti-windup on a first-order plant.

#[derive(Differentiable, Clone, Debug)]
pub struct Pid {
    pub kp: f64,
    pub ki: f64,
    pub kd: f64,
    pub u_min: f64,
    pub u_max: f64,
    integral: f64,
    prev_error: Option<f64>,
}

#[derive_frule]
impl Pid {
    pub fn new(kp: f64, ki: f64, kd: f64, limit: f64) -> Self {
        Pid {
            kp,
            ki,
            kd,
            u_min: -limit,
            u_max: limit,
            integral: 0.0,
            prev_error: None,
        }
    }

    pub fn update(&mut self, error: f64, dt: f64) -> f64 {
        let derivative = match self.prev_error {
            Some(prev) => (error - prev) / dt,
            None => 0.0,
        };
        self.prev_error = Some(error);
        let unclamped =
            self.kp * error + self.ki * (self.integral + error * dt) + self.kd * derivative;
        let u = unclamped.clamp(self.u_min, self.u_max);
        // Conditional integration: integrate only while not saturated (or unwinding).
        if u == unclamped || error.signum() != unclamped.signum() {
            self.integral += error * dt;
        }
        u
    }
}

/// The integrated squared tracking error of a step response.
#[derive_frule]
pub fn pid_cost(gains: &[f64]) -> f64 {
    let mut pid = Pid::new(gains[0], gains[1], gains[2], 2.0);
    let (tau, dt) = (0.8, 0.01);
    let mut y = 0.0;
    let mut cost = 0.0;
    for step in 0..600 {
        let setpoint = if step < 300 { 1.0 } else { 0.5 };
        let e = setpoint - y;
        let u = pid.update(e, dt);
        y += dt * (u - y) / tau;
        cost += e * e * dt;
    }
    cost
}

// ---------------------------------------------------------------------------------------
// Program 20: a Luenberger observer for a damped oscillator.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Observer {
    pub l: [f64; 2],
}

#[derive_frule]
impl Observer {
    pub fn run(&self, a: &Mat2, measurements: &[f64], x0_hat: [f64; 2]) -> f64 {
        let mut x_hat = x0_hat;
        let mut err2 = 0.0;
        for &y in measurements {
            let innov = y - x_hat[0];
            let pred = [
                a[0][0] * x_hat[0] + a[0][1] * x_hat[1],
                a[1][0] * x_hat[0] + a[1][1] * x_hat[1],
            ];
            x_hat = [pred[0] + self.l[0] * innov, pred[1] + self.l[1] * innov];
            err2 += innov * innov;
        }
        err2 / measurements.len() as f64
    }
}

#[derive_frule]
pub fn observer_error(gains: &[f64], measurements: &[f64]) -> f64 {
    let dt = 0.05;
    let a = [[1.0, dt], [-4.0 * dt, 1.0 - 0.2 * dt]];
    Observer {
        l: [gains[0], gains[1]],
    }
    .run(&a, measurements, [0.0, 0.0])
}

// ---------------------------------------------------------------------------------------
// Program 21: L-BFGS's two-loop recursion, and a few L-BFGS steps on a quadratic-plus.

#[derive_frule]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// H·g by the two-loop recursion over the stored pairs (sₖ, yₖ), oldest first.
#[derive_frule]
pub fn two_loop(grad: &[f64], history: &[(Vec<f64>, Vec<f64>)]) -> Vec<f64> {
    let mut q = grad.to_vec();
    let mut alphas = Vec::with_capacity(history.len());
    for (s, y) in history.iter().rev() {
        let rho = 1.0 / dot(y, s);
        let alpha = rho * dot(s, &q);
        for (qi, yi) in q.iter_mut().zip(y) {
            *qi -= alpha * yi;
        }
        alphas.push(alpha);
    }
    let gamma = match history.last() {
        Some((s, y)) => dot(s, y) / dot(y, y),
        None => 1.0,
    };
    let mut r: Vec<f64> = q.iter().map(|v| gamma * v).collect();
    for ((s, y), alpha) in history.iter().zip(alphas.iter().rev()) {
        let rho = 1.0 / dot(y, s);
        let beta = rho * dot(y, &r);
        for (ri, si) in r.iter_mut().zip(s) {
            *ri += (alpha - beta) * si;
        }
    }
    r
}

#[derive_frule]
fn model_grad(c: &[f64], x: &[f64]) -> Vec<f64> {
    // ∇ of Σ cᵢ xᵢ² / 2 + x₀ x₁ / 4.
    let mut g: Vec<f64> = c.iter().zip(x).map(|(ci, xi)| ci * xi).collect();
    g[0] += 0.25 * x[1];
    g[1] += 0.25 * x[0];
    g
}

/// Where five L-BFGS steps (unit step, memory 3) from `x0` end, as a function of the
/// curvatures `c`: a hyperparameter sensitivity through the optimiser.
#[derive_frule]
pub fn lbfgs_endpoint(c: &[f64], x0: &[f64]) -> f64 {
    let m = 3;
    let mut x = x0.to_vec();
    let mut g = model_grad(c, &x);
    let mut history: Vec<(Vec<f64>, Vec<f64>)> = Vec::new();
    for _ in 0..5 {
        let d = two_loop(&g, &history);
        let x_new: Vec<f64> = x.iter().zip(&d).map(|(xi, di)| xi - di).collect();
        let g_new = model_grad(c, &x_new);
        let s: Vec<f64> = x_new.iter().zip(&x).map(|(a, b)| a - b).collect();
        let y: Vec<f64> = g_new.iter().zip(&g).map(|(a, b)| a - b).collect();
        if dot(&s, &y) > 1e-12 {
            if history.len() == m {
                history.remove(0);
            }
            history.push((s, y));
        }
        x = x_new;
        g = g_new;
    }
    x.iter().enumerate().map(|(i, v)| (i + 1) as f64 * v).sum()
}

// ---------------------------------------------------------------------------------------
// Program 22: an augmented Lagrangian with closures for objective and constraint.

#[derive_frule]
pub fn gradient_descent<F: Fn(&[f64]) -> f64>(f: F, x: &mut [f64], lr: f64, iters: usize) {
    let h = 1e-6;
    let mut g = vec![0.0; x.len()];
    for _ in 0..iters {
        for i in 0..x.len() {
            let xi = x[i];
            x[i] = xi + h;
            let fp = f(x);
            x[i] = xi - h;
            let fm = f(x);
            x[i] = xi;
            g[i] = (fp - fm) / (2.0 * h);
        }
        for i in 0..x.len() {
            x[i] -= lr * g[i];
        }
    }
}

/// min (x₀ − a)² + (x₁ − b)² subject to x₀ + x₁ = 1, by an augmented Lagrangian; returns
/// the multiplier estimate, whose derivative in (a, b) is known: λ = a + b − 1.
#[derive_frule]
pub fn augmented_lagrangian(a: f64, b: f64) -> f64 {
    let constraint = |x: &[f64]| x[0] + x[1] - 1.0;
    let mut lambda = 0.0;
    let mu = 10.0;
    let mut x = vec![0.0, 0.0];
    for _ in 0..15 {
        // LIMIT: written `let c = constraint(x); objective(x) + ..`, calling the two
        // closures above (docs/limits.md §4, `unsupported-closure-calls-let-closure`).
        let lag = |x: &[f64]| {
            let c = x[0] + x[1] - 1.0;
            (x[0] - a).powi(2) + (x[1] - b).powi(2) + lambda * c + 0.5 * mu * c * c
        };
        gradient_descent(lag, &mut x, 1.0 / (2.0 + 2.0 * mu), 200);
        lambda += mu * constraint(&x);
    }
    lambda
}

// ---------------------------------------------------------------------------------------
// Program 23: a log-barrier method with Newton steps and backtracking, over closures.

/// Minimises c·x − t⁻¹ Σ log(bᵢ − xᵢ) − t⁻¹ Σ log xᵢ (a box 0 < x < b) by Newton on each
/// coordinate (the problem separates), raising t; returns the final objective c·x.
#[derive_frule]
pub fn barrier_lp(c: &[f64], upper: &[f64]) -> f64 {
    let mut x: Vec<f64> = upper.iter().map(|u| 0.5 * u).collect();
    let mut t = 1.0;
    while t < 1e6 {
        for i in 0..x.len() {
            let phi = |xi: f64| c[i] * xi - ((upper[i] - xi).ln() + xi.ln()) / t;
            'newton: for _ in 0..50 {
                let xi = x[i];
                let g = c[i] + (1.0 / (upper[i] - xi) - 1.0 / xi) / t;
                let h = (1.0 / (upper[i] - xi).powi(2) + 1.0 / (xi * xi)) / t;
                let step = g / h;
                let mut alpha = 1.0;
                // Backtracking: stay inside the box and decrease φ.
                loop {
                    let trial = xi - alpha * step;
                    if trial > 0.0
                        && trial < upper[i]
                        && phi(trial) <= phi(xi) - 0.25 * alpha * g * step
                    {
                        x[i] = trial;
                        break;
                    }
                    alpha *= 0.5;
                    if alpha < 1e-12 {
                        break 'newton;
                    }
                }
                if (alpha * step).abs() < 1e-13 {
                    break;
                }
            }
        }
        t *= 10.0;
    }
    c.iter().zip(&x).map(|(ci, xi)| ci * xi).sum()
}

// ---------------------------------------------------------------------------------------

#[test]
fn lqr_gain_in_every_mode() {
    let plain = |x: &[f64]| lqr_gain_norm(x[0], x[1], x[2], x[3]);
    check_modes!(
        bind(lqr_gain_norm {}, (Var(0), Var(1), Var(2), Var(3))),
        plain,
        [1.0, 0.5, 0.3, 0.1]
    );
}

#[test]
fn scalar_lqr_against_its_closed_form() {
    // Scalar plant x⁺ = x + u (a = b = 1): the Riccati equation gives
    // P = (q + √(q² + 4qr))/2 and K = P/(r + P).
    let (k, g) = gradient(bind(scalar_lqr {}, (Var(0), Var(1))), &[2.0, 0.5]);
    let p = |q: f64, r: f64| 0.5 * (q + (q * q + 4.0 * q * r).sqrt());
    let kk = |q: f64, r: f64| p(q, r) / (r + p(q, r));
    assert_close(k, kk(2.0, 0.5), 1e-12, "K");
    let h = 1e-6;
    assert_close(
        g[0],
        (kk(2.0 + h, 0.5) - kk(2.0 - h, 0.5)) / (2.0 * h),
        1e-8,
        "∂K/∂q",
    );
    assert_close(
        g[1],
        (kk(2.0, 0.5 + h) - kk(2.0, 0.5 - h)) / (2.0 * h),
        1e-8,
        "∂K/∂r",
    );
}

/// The first-row gain of a 2-state system whose second state is decoupled and unforced:
/// the scalar problem.
#[derive_frule]
fn scalar_lqr(q: f64, r: f64) -> f64 {
    let a = [[1.0, 0.0], [0.0, 0.5]];
    Lqr { q: [q, 1.0], r }.gain(&a, [1.0, 0.0])[0]
}

#[test]
fn pid_with_anti_windup_in_every_mode() {
    check_modes!(pid_cost {}, pid_cost, [2.5, 1.2, 0.05]);
    // Saturating gains exercise the clamp and the conditional integration.
    check_modes!(pid_cost {}, pid_cost, [8.0, 6.0, 0.02]);
}

#[test]
fn luenberger_observer_in_every_mode() {
    let ys: Vec<f64> = (0..80)
        .map(|i| (0.1 * i as f64).cos() * (-0.01 * i as f64).exp())
        .collect();
    let plain = |x: &[f64]| observer_error(x, &ys);
    check_modes!(bind(observer_error {}, (Wrt, &ys[..])), plain, [0.4, 0.3]);
}

#[test]
fn lbfgs_in_every_mode() {
    let x0 = [1.0, -2.0, 0.5];
    let plain = |c: &[f64]| lbfgs_endpoint(c, &x0);
    check_modes!(
        bind(lbfgs_endpoint {}, (Wrt, &x0[..])),
        plain,
        [2.0, 3.0, 0.7]
    );
    // The two-loop recursion with one pair is the BFGS update of γI: against H g formed
    // from the update formula.
    let (s, y) = (vec![0.3, -0.1], vec![0.5, 0.2]);
    let g = [1.0, 2.0];
    let (hg, jac) = jacobian(bind(two_loop {}, (Wrt, &[(s.clone(), y.clone())][..])), &g);
    let sy = s[0] * y[0] + s[1] * y[1];
    let gamma = sy / (y[0] * y[0] + y[1] * y[1]);
    let rho = 1.0 / sy;
    // H = (I − ρ s yᵀ) γ (I − ρ y sᵀ) + ρ s sᵀ
    let mut h = [[0.0; 2]; 2];
    for i in 0..2 {
        for j in 0..2 {
            let mut v = 0.0;
            for k in 0..2 {
                let left = (i == k) as u8 as f64 - rho * s[i] * y[k];
                let right = (k == j) as u8 as f64 - rho * y[k] * s[j];
                v += left * gamma * right;
            }
            h[i][j] = v + rho * s[i] * s[j];
        }
    }
    for i in 0..2 {
        assert_close(hg[i], h[i][0] * g[0] + h[i][1] * g[1], 1e-14, "H g");
        for j in 0..2 {
            assert_close(jac[(i, j)], h[i][j], 1e-14, "∂(Hg)/∂g = H");
        }
    }
}

#[test]
fn augmented_lagrangian_against_its_closed_form() {
    let (lam, g) = gradient(bind(augmented_lagrangian {}, (Var(0), Var(1))), &[0.8, 0.6]);
    assert_eq!(lam.to_bits(), augmented_lagrangian(0.8, 0.6).to_bits());
    // Stationarity 2(x − (a, b)) + λ(1, 1) = 0 on x₀ + x₁ = 1 gives λ = a + b − 1:
    // λ → 0.4, ∂λ/∂a = ∂λ/∂b = 1 (the inner minimisations converge to about 1e-8).
    assert_close(lam, 0.4, 1e-6, "λ");
    assert_close(g[0], 1.0, 1e-6, "∂λ/∂a");
    assert_close(g[1], 1.0, 1e-6, "∂λ/∂b");
    // Central differences of the outer function are swamped by those the inner solver
    // takes (1e-6 steps), so the other modes are checked against the closed form: one
    // direction, and the Hessian, which vanishes (λ is affine in a and b).
    let (v, d) = jvp(
        bind(augmented_lagrangian {}, (Var(0), Var(1))),
        &[0.8, 0.6],
        &[0.0, 1.0],
    );
    assert_eq!(v.to_bits(), lam.to_bits());
    assert_close(d, 1.0, 1e-6, "one direction: ∂λ/∂b");
    let (v, _, h) = hessian(bind(augmented_lagrangian {}, (Var(0), Var(1))), &[0.8, 0.6]);
    assert_eq!(v.to_bits(), lam.to_bits());
    for i in 0..2 {
        for j in 0..2 {
            assert!(h[(i, j)].abs() < 1e-6, "∂²λ/∂{i}∂{j} = {}", h[(i, j)]);
        }
    }
}

#[test]
fn barrier_method_in_every_mode() {
    let upper = [2.0, 1.0, 3.0];
    let plain = |c: &[f64]| barrier_lp(c, &upper);
    check_modes!(
        bind(barrier_lp {}, (Wrt, &upper[..])),
        plain,
        [1.0, -2.0, 0.5]
    );
    // The LP's solution is a vertex: c·x → Σ min(cᵢ, 0)·uᵢ, whose gradient is uᵢ where
    // cᵢ < 0 and 0 elsewhere (to the barrier's O(1/t)).
    let (v, g) = gradient(bind(barrier_lp {}, (Wrt, &upper[..])), &[1.0, -2.0, 0.5]);
    assert_close(v, -2.0, 1e-5, "c·x");
    assert_close(g[0], 0.0, 1e-5, "∂/∂c₀");
    assert_close(g[1], 1.0, 1e-5, "∂/∂c₁");
    assert_close(g[2], 0.0, 1e-5, "∂/∂c₂");
}
