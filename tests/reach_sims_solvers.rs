//! The user's own ODE solvers and optimisers taking closures (`impl Fn`, `F: Fn(&[f64]) ->
//! Vec<f64>`, `&dyn Fn`), state structs stepped by `&mut self`, particle systems over
//! `Vec<Particle>` with `iter_mut`, `chunks_exact` and `windows`, a `HashMap` cell list, and
//! an `ode_solvers`-style `System` trait with a fixed-step RK4 driving it, annotated
//! unmodified. Each program is checked against central differences in one direction, in
//! batches and at second order, primals bit for bit (`check_modes!`), and against closed
//! forms where there is one.
#![allow(clippy::needless_range_loop)]

use common::modes::{assert_close, fd_gradient};
use fwdad::drivers::{gradient_with, hessian_with, jvp};
use fwdad::prelude::*;
use std::collections::{BTreeMap, HashMap};

mod common;

// ---------------------------------------------------------------------------------------
// Program 13: classic RK4 over a closure returning the derivative as a `Vec`.

#[derive_frule]
fn rk4<F: Fn(f64, &[f64]) -> Vec<f64>>(f: F, t0: f64, y0: &[f64], h: f64, n: usize) -> Vec<f64> {
    let mut y = y0.to_vec();
    let mut t = t0;
    let dim = y.len();
    for _ in 0..n {
        let k1 = f(t, &y);
        let y2: Vec<f64> = (0..dim).map(|i| y[i] + 0.5 * h * k1[i]).collect();
        let k2 = f(t + 0.5 * h, &y2);
        let y3: Vec<f64> = (0..dim).map(|i| y[i] + 0.5 * h * k2[i]).collect();
        let k3 = f(t + 0.5 * h, &y3);
        let y4: Vec<f64> = (0..dim).map(|i| y[i] + h * k3[i]).collect();
        let k4 = f(t + h, &y4);
        for i in 0..dim {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        t += h;
    }
    y
}

/// A damped pendulum: `x` = (length, damping, θ0, ω0); the final angle after 2 s.
#[derive_frule]
fn pendulum_angle(x: &[f64]) -> f64 {
    let (l, c) = (x[0], x[1]);
    let g = 9.81;
    let y = rk4(
        |_t, s| vec![s[1], -g / l * s[0].sin() - c * s[1]],
        0.0,
        &[x[2], x[3]],
        0.02,
        100,
    );
    y[0]
}

/// Exponential decay y' = −k y through the same solver: y(T) = y0 e^{−kT}.
#[derive_frule]
fn decay(x: &[f64]) -> f64 {
    let k = x[0];
    rk4(
        |_, y| y.iter().map(|v| -k * v).collect(),
        0.0,
        &x[1..],
        0.01,
        100,
    )[0]
}

// ---------------------------------------------------------------------------------------
// Program 14: adaptive Runge–Kutta–Fehlberg 4(5) with step-size control, over `&dyn Fn`.

#[derive_frule]
fn rkf45(f: &dyn Fn(f64, &[f64]) -> Vec<f64>, y0: &[f64], t_end: f64, tol: f64) -> Vec<f64> {
    let mut t = 0.0;
    let mut h = 0.1;
    let mut y = y0.to_vec();
    let n = y.len();
    let axpy = |y: &[f64], ks: &[&Vec<f64>], cs: &[f64], h: f64| -> Vec<f64> {
        let mut out = y.to_vec();
        for (k, c) in ks.iter().zip(cs) {
            for i in 0..out.len() {
                out[i] += h * c * k[i];
            }
        }
        out
    };
    let mut steps = 0;
    while t < t_end && steps < 1000 {
        steps += 1;
        if t + h > t_end {
            h = t_end - t;
        }
        let k1 = f(t, &y);
        let k2 = f(t + h / 4.0, &axpy(&y, &[&k1], &[1.0 / 4.0], h));
        let k3 = f(
            t + 3.0 * h / 8.0,
            &axpy(&y, &[&k1, &k2], &[3.0 / 32.0, 9.0 / 32.0], h),
        );
        let k4 = f(
            t + 12.0 * h / 13.0,
            &axpy(
                &y,
                &[&k1, &k2, &k3],
                &[1932.0 / 2197.0, -7200.0 / 2197.0, 7296.0 / 2197.0],
                h,
            ),
        );
        let k5 = f(
            t + h,
            &axpy(
                &y,
                &[&k1, &k2, &k3, &k4],
                &[439.0 / 216.0, -8.0, 3680.0 / 513.0, -845.0 / 4104.0],
                h,
            ),
        );
        let k6 = f(
            t + h / 2.0,
            &axpy(
                &y,
                &[&k1, &k2, &k3, &k4, &k5],
                &[
                    -8.0 / 27.0,
                    2.0,
                    -3544.0 / 2565.0,
                    1859.0 / 4104.0,
                    -11.0 / 40.0,
                ],
                h,
            ),
        );
        let mut err: f64 = 0.0;
        let mut y5 = vec![0.0; n];
        for i in 0..n {
            let y4 = y[i]
                + h * (25.0 / 216.0 * k1[i] + 1408.0 / 2565.0 * k3[i] + 2197.0 / 4104.0 * k4[i]
                    - k5[i] / 5.0);
            y5[i] = y[i]
                + h * (16.0 / 135.0 * k1[i] + 6656.0 / 12825.0 * k3[i] + 28561.0 / 56430.0 * k4[i]
                    - 9.0 / 50.0 * k5[i]
                    + 2.0 / 55.0 * k6[i]);
            err = err.max((y5[i] - y4).abs());
        }
        if err <= tol || h < 1e-6 {
            t += h;
            y = y5;
        }
        let factor = if err == 0.0 {
            4.0
        } else {
            (0.84 * (tol / err).powf(0.25)).clamp(0.1, 4.0)
        };
        h *= factor;
    }
    y
}

/// Lotka–Volterra predator–prey: `x` = (α, β, δ, γ, prey0, predators0).
#[derive_frule]
fn predators_at_5(x: &[f64]) -> f64 {
    let (alpha, beta, delta, gamma) = (x[0], x[1], x[2], x[3]);
    let rhs = move |_t: f64, y: &[f64]| -> Vec<f64> {
        vec![
            alpha * y[0] - beta * y[0] * y[1],
            delta * y[0] * y[1] - gamma * y[1],
        ]
    };
    let y = rkf45(&rhs, &x[4..6], 5.0, 1e-7);
    y[1]
}

// ---------------------------------------------------------------------------------------
// Program 15: velocity Verlet over `impl Fn(&[f64]) -> Vec<f64>` accelerations, and a
// symplectic Euler state struct stepped with `&mut self`.

#[derive_frule]
fn velocity_verlet(
    accel: impl Fn(&[f64]) -> Vec<f64>,
    q: &mut [f64],
    p: &mut [f64],
    dt: f64,
    steps: usize,
) {
    let mut a = accel(q);
    for _ in 0..steps {
        for i in 0..q.len() {
            q[i] += p[i] * dt + 0.5 * a[i] * dt * dt;
        }
        let a_new = accel(q);
        for i in 0..p.len() {
            p[i] += 0.5 * (a[i] + a_new[i]) * dt;
        }
        a = a_new;
    }
}

/// A Fermi–Pasta–Ulam–Tsingou chain: `x` = (β, displacements…); the kinetic energy of
/// the chain after 30 steps.
#[derive_frule]
fn fput_kinetic(x: &[f64]) -> f64 {
    let beta = x[0];
    let mut q = x[1..].to_vec();
    let mut p = vec![0.0; q.len()];
    let n = q.len();
    let force = |q: &[f64]| -> Vec<f64> {
        let mut f = vec![0.0; n];
        for i in 0..n {
            let left = if i == 0 { 0.0 } else { q[i - 1] };
            let right = if i + 1 == n { 0.0 } else { q[i + 1] };
            let dl = q[i] - left;
            let dr = right - q[i];
            f[i] = (dr - dl) + beta * (dr.powi(3) - dl.powi(3));
        }
        f
    };
    velocity_verlet(force, &mut q, &mut p, 0.05, 30);
    p.iter().map(|v| 0.5 * v * v).sum()
}

#[derive(Differentiable, Clone, Debug)]
pub struct Particle {
    pub x: f64,
    pub v: f64,
    pub m: f64,
}

#[derive(Differentiable, Clone, Debug)]
pub struct Chain {
    pub particles: Vec<Particle>,
    pub k: f64,
    pub t: f64,
}

#[derive_frule]
impl Chain {
    fn spring_forces(&self) -> Vec<f64> {
        let mut f = vec![0.0; self.particles.len()];
        for (i, w) in self.particles.windows(2).enumerate() {
            let stretch = w[1].x - w[0].x - 1.0;
            f[i] += self.k * stretch;
            f[i + 1] -= self.k * stretch;
        }
        f
    }

    /// Symplectic Euler: velocities from the current forces, then positions.
    pub fn step(&mut self, dt: f64) {
        let f = self.spring_forces();
        for (p, fi) in self.particles.iter_mut().zip(f.iter()) {
            p.v += dt * fi / p.m;
        }
        for p in self.particles.iter_mut() {
            p.x += dt * p.v;
        }
        self.t += dt;
    }

    pub fn energy(&self) -> f64 {
        let kinetic: f64 = self.particles.iter().map(|p| 0.5 * p.m * p.v * p.v).sum();
        let mut potential = 0.0;
        for w in self.particles.windows(2) {
            let s = w[1].x - w[0].x - 1.0;
            potential += 0.5 * self.k * s * s;
        }
        kinetic + potential
    }
}

/// `x` = (k, x0, v0, x1, v1, …).
#[derive_frule]
fn chain_energy_drift(x: &[f64]) -> f64 {
    let mut chain = Chain {
        particles: Vec::new(),
        k: x[0],
        t: 0.0,
    };
    for (i, xv) in x[1..].chunks_exact(2).enumerate() {
        chain.particles.push(Particle {
            x: xv[0],
            v: xv[1],
            m: 1.0 + i as f64,
        });
    }
    let e0 = chain.energy();
    for _ in 0..25 {
        chain.step(0.02);
    }
    chain.energy() - e0 + chain.particles.last().unwrap().x
}

// ---------------------------------------------------------------------------------------
// Program 16: Newton's method with a backtracking line search on the equilibrium of a
// hanging spring chain; the derivative of the equilibrium in the load goes through the
// iterations.

#[derive_frule]
fn newton_line_search<F, G>(grad: F, hess_diag: G, x0: &[f64], iters: usize) -> Vec<f64>
where
    F: Fn(&[f64]) -> Vec<f64>,
    G: Fn(&[f64]) -> Vec<f64>,
{
    let mut x = x0.to_vec();
    let norm2 = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>();
    for _ in 0..iters {
        let g = grad(&x);
        let h = hess_diag(&x);
        let dir: Vec<f64> = g.iter().zip(&h).map(|(gi, hi)| -gi / hi).collect();
        let g0 = norm2(&g);
        let mut alpha = 1.0;
        loop {
            let trial: Vec<f64> = x.iter().zip(&dir).map(|(xi, di)| xi + alpha * di).collect();
            if norm2(&grad(&trial)) < g0 || alpha < 1e-4 {
                x = trial;
                break;
            }
            alpha *= 0.5;
        }
    }
    x
}

/// Vertical springs in series holding loads: `p` = (k, load). The nodes' equilibrium
/// heights minimise Σ ½ k (xᵢ − xᵢ₋₁ + 1)² + load · Σ xᵢ + x⁴ stiffening.
#[derive_frule]
fn hanging_tip(p: &[f64]) -> f64 {
    let (k, load) = (p[0], p[1]);
    let n = 4;
    let grad = |x: &[f64]| -> Vec<f64> {
        let mut g = vec![load; n];
        for i in 0..n {
            let prev = if i == 0 { 0.0 } else { x[i - 1] };
            let s = x[i] - prev + 1.0;
            g[i] += k * s + 0.1 * s.powi(3);
            if i > 0 {
                g[i - 1] -= k * s + 0.1 * s.powi(3);
            }
        }
        g
    };
    let hess_diag = |x: &[f64]| -> Vec<f64> {
        let mut h = vec![0.0; n];
        for i in 0..n {
            let prev = if i == 0 { 0.0 } else { x[i - 1] };
            let s = x[i] - prev + 1.0;
            h[i] += k + 0.3 * s * s;
            if i > 0 {
                h[i - 1] += k + 0.3 * s * s;
            }
        }
        h
    };
    let x = newton_line_search(grad, hess_diag, &[-1.0, -2.0, -3.0, -4.0], 60);
    x[n - 1]
}

// ---------------------------------------------------------------------------------------
// Program 17: Gauss–Newton fitting y = a e^{−b t} to data; the fitted rate as a function
// of the data (the derivative of an optimiser's result in its inputs).

#[derive_frule]
fn gauss_newton<R, J>(residual: R, jac: J, mut theta: [f64; 2], iters: usize) -> [f64; 2]
where
    R: Fn(&[f64; 2]) -> Vec<f64>,
    J: Fn(&[f64; 2]) -> Vec<[f64; 2]>,
{
    for _ in 0..iters {
        let r = residual(&theta);
        let j = jac(&theta);
        // Normal equations JᵀJ δ = −Jᵀr, solved in closed form for two unknowns.
        let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (row, ri) in j.iter().zip(r.iter()) {
            a11 += row[0] * row[0];
            a12 += row[0] * row[1];
            a22 += row[1] * row[1];
            b1 -= row[0] * ri;
            b2 -= row[1] * ri;
        }
        let det = a11 * a22 - a12 * a12;
        theta[0] += (a22 * b1 - a12 * b2) / det;
        theta[1] += (a11 * b2 - a12 * b1) / det;
    }
    theta
}

#[derive_frule]
fn fitted_rate(data: &[f64]) -> f64 {
    let times: Vec<f64> = (0..data.len()).map(|i| 0.5 * i as f64).collect();
    let residual = |th: &[f64; 2]| -> Vec<f64> {
        times
            .iter()
            .zip(data)
            .map(|(t, y)| th[0] * (-th[1] * t).exp() - y)
            .collect()
    };
    let jac = |th: &[f64; 2]| -> Vec<[f64; 2]> {
        times
            .iter()
            .map(|t| {
                let e = (-th[1] * t).exp();
                [e, -th[0] * t * e]
            })
            .collect()
    };
    let theta = gauss_newton(residual, jac, [1.0, 0.5], 12);
    theta[1]
}

// ---------------------------------------------------------------------------------------
// Program 18: a 2-D cell list in a `HashMap`, short-ranged soft-sphere energy.

#[derive_frule]
fn soft_sphere_energy(xy: &[f64]) -> f64 {
    let cell = 1.0;
    let rc = 1.0;
    let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, p) in xy.chunks_exact(2).enumerate() {
        let key = ((p[0] / cell).floor() as i64, (p[1] / cell).floor() as i64);
        cells.entry(key).or_default().push(i);
    }
    let mut e = 0.0;
    for (&(cx, cy), members) in &cells {
        for dx in -1..=1 {
            for dy in -1..=1 {
                if let Some(others) = cells.get(&(cx + dx, cy + dy)) {
                    for &i in members {
                        for &j in others {
                            if i < j {
                                let rx = xy[2 * i] - xy[2 * j];
                                let ry = xy[2 * i + 1] - xy[2 * j + 1];
                                let r = (rx * rx + ry * ry).sqrt();
                                if r < rc {
                                    e += (1.0 - r / rc).powi(2);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    e
}

/// The same cell list in a `BTreeMap`: its order, and so the primal's rounding, is fixed.
#[derive_frule]
fn soft_sphere_energy_ordered(xy: &[f64]) -> f64 {
    let mut cells: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
    for (i, p) in xy.chunks_exact(2).enumerate() {
        cells
            .entry((p[0].floor() as i64, p[1].floor() as i64))
            .or_default()
            .push(i);
    }
    let mut e = 0.0;
    for (&(cx, cy), members) in cells.iter() {
        for (dx, dy) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 0),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let Some(others) = cells.get(&(cx + dx, cy + dy)) else {
                continue;
            };
            for &i in members {
                for &j in others.iter().filter(|&&j| j > i) {
                    let r = (xy[2 * i] - xy[2 * j]).hypot(xy[2 * i + 1] - xy[2 * j + 1]);
                    if r < 1.0 {
                        e += (1.0 - r).powi(2);
                    }
                }
            }
        }
    }
    e
}

// ---------------------------------------------------------------------------------------
// Program 19: an `ode_solvers`-style system trait, implemented for a user's struct, and a
// fixed-step RK4 stepper holding the system.

pub type State = [f64; 3];

#[derive_frule]
pub trait System {
    /// System of ordinary differential equations.
    fn system(&self, x: f64, y: &State, dy: &mut State);

    /// Stop function called at every successful integration step.
    fn solout(&mut self, _x: f64, _y: &State, _dy: &State) -> bool {
        false
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct Lorenz {
    pub sigma: f64,
    pub rho: f64,
    pub beta: f64,
}

#[derive_frule]
impl System for Lorenz {
    fn system(&self, _t: f64, y: &State, dy: &mut State) {
        dy[0] = self.sigma * (y[1] - y[0]);
        dy[1] = y[0] * (self.rho - y[2]) - y[1];
        dy[2] = y[0] * y[1] - self.beta * y[2];
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct Rk4<F> {
    f: F,
    x: f64,
    y: State,
    x_end: f64,
    step_size: f64,
}

#[derive_frule]
impl<F: System> Rk4<F> {
    pub fn new(f: F, x: f64, y: State, x_end: f64, step_size: f64) -> Self {
        Rk4 {
            f,
            x,
            y,
            x_end,
            step_size,
        }
    }

    fn step(&mut self) -> (f64, State) {
        let h = self.step_size;
        let mut k = [[0.0; 3]; 4];
        self.f.system(self.x, &self.y, &mut k[0]);
        let mut buffer = [0.0; 3];
        for i in 0..3 {
            buffer[i] = self.y[i] + 0.5 * h * k[0][i];
        }
        self.f.system(self.x + 0.5 * h, &buffer, &mut k[1]);
        for i in 0..3 {
            buffer[i] = self.y[i] + 0.5 * h * k[1][i];
        }
        self.f.system(self.x + 0.5 * h, &buffer, &mut k[2]);
        for i in 0..3 {
            buffer[i] = self.y[i] + h * k[2][i];
        }
        self.f.system(self.x + h, &buffer, &mut k[3]);
        let mut y_new = self.y;
        for (idx, y_elem) in y_new.iter_mut().enumerate() {
            *y_elem += (k[0][idx] + k[1][idx] * 2.0 + k[2][idx] * 2.0 + k[3][idx]) * (h / 6.0);
        }
        (self.x + h, y_new)
    }

    pub fn integrate(&mut self) -> State {
        let num_steps = ((self.x_end - self.x) / self.step_size).ceil() as usize;
        for _ in 0..num_steps {
            let (x_new, y_new) = self.step();
            self.x = x_new;
            self.y = y_new;
        }
        self.y
    }
}

/// `x` = (σ, ρ, β, y0, y1, y2); z after 0.5 time units.
#[derive_frule]
fn lorenz_z(x: &[f64]) -> f64 {
    let system = Lorenz {
        sigma: x[0],
        rho: x[1],
        beta: x[2],
    };
    let mut stepper = Rk4::new(system, 0.0, [x[3], x[4], x[5]], 0.5, 0.01);
    let y = stepper.integrate();
    y[2]
}

// ---------------------------------------------------------------------------------------

#[test]
fn rk4_pendulum_in_every_mode() {
    check_modes!(pendulum_angle {}, pendulum_angle, [1.2, 0.3, 0.5, -0.2]);
    // Closed form: the decay's derivative in k is −T y0 e^{−kT} (RK4 is accurate to 1e-10).
    let (v, g) = gradient(decay {}, &[0.7, 2.0]);
    assert!((v - 2.0 * (-0.7f64).exp()).abs() < 1e-9);
    assert!((g[0] + 2.0 * (-0.7f64).exp()).abs() < 1e-8);
    assert!((g[1] - (-0.7f64).exp()).abs() < 1e-9);
}

/// First derivatives in every mode against central differences, primals bit for bit, and
/// the Hessian against second differences of step `h` (`check_modes!`'s step crosses the
/// step-size controller's accept/reject switches of an adaptive solver, where the computed
/// function has jumps of the solver's tolerance).
fn check_adaptive(x: &[f64], h: f64) {
    let g = fd_gradient(&predators_at_5, x);
    let y = predators_at_5(x);
    let (v, gb) = gradient_with::<4>(predators_at_5 {}, x);
    assert_eq!(v.to_bits(), y.to_bits());
    for k in 0..x.len() {
        let mut e = vec![0.0; x.len()];
        e[k] = 1.0;
        let (v, d) = jvp(predators_at_5 {}, x, &e);
        assert_eq!(v.to_bits(), y.to_bits());
        assert_close(d, g[k], 1e-6, "one direction");
        assert_close(gb[k], g[k], 1e-6, "batch");
    }
    let (v, _, hh) = hessian_with::<2>(predators_at_5 {}, x);
    assert_eq!(v.to_bits(), y.to_bits());
    let want = second_differences(predators_at_5, x, h);
    for i in 0..x.len() {
        for j in 0..x.len() {
            assert_close(
                hh[(i, j)],
                want[i][j],
                1e-4,
                &format!("d2/dx{i}dx{j} (h = {h})"),
            );
        }
    }
}

/// ∂²f/∂xᵢ∂xⱼ by second differences of step `h`.
fn second_differences(f: fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<Vec<f64>> {
    let at = |i: usize, si: f64, j: usize, sj: f64| {
        let mut y = x.to_vec();
        y[i] += si * h;
        y[j] += sj * h;
        f(&y)
    };
    (0..x.len())
        .map(|i| {
            (0..x.len())
                .map(|j| match i == j {
                    true => (at(i, 1.0, i, 0.0) - 2.0 * f(x) + at(i, -1.0, i, 0.0)) / (h * h),
                    false => {
                        (at(i, 1.0, j, 1.0) - at(i, 1.0, j, -1.0) - at(i, -1.0, j, 1.0)
                            + at(i, -1.0, j, -1.0))
                            / (4.0 * h * h)
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn rkf45_lotka_volterra_in_every_mode() {
    let x = [1.1, 0.4, 0.1, 0.4, 10.0, 10.0];
    check_adaptive(&x, 1e-5);
}

#[test]
fn verlet_and_symplectic_euler_in_every_mode() {
    check_modes!(fput_kinetic {}, fput_kinetic, [0.25, 0.1, -0.2, 0.3, 0.05]);
    check_modes!(
        chain_energy_drift {},
        chain_energy_drift,
        [4.0, 0.0, 0.1, 1.2, -0.3, 2.1, 0.2]
    );
}

#[test]
fn newton_with_line_search_in_every_mode() {
    check_modes!(hanging_tip {}, hanging_tip, [5.0, 0.8]);
}

#[test]
fn gauss_newton_in_every_mode() {
    // Exact data of 2 e^{−0.8 t}: the fit is exact, and the rate's derivative in each
    // datum is the implicit one, −(JᵀJ)⁻¹Jᵀ row 2.
    let data: Vec<f64> = (0..6)
        .map(|i| 2.0 * (-0.8 * 0.5 * i as f64).exp())
        .collect();
    let (rate, g) = gradient(fitted_rate {}, &data);
    assert!((rate - 0.8).abs() < 1e-10);
    let j: Vec<[f64; 2]> = (0..6)
        .map(|i| {
            let t = 0.5 * i as f64;
            let e = (-0.8 * t).exp();
            [e, -2.0 * t * e]
        })
        .collect();
    let (a11, a12, a22) = j.iter().fold((0.0, 0.0, 0.0), |(a, b, c), r| {
        (a + r[0] * r[0], b + r[0] * r[1], c + r[1] * r[1])
    });
    let det = a11 * a22 - a12 * a12;
    for (i, row) in j.iter().enumerate() {
        let want = (-a12 * row[0] + a11 * row[1]) / det;
        assert!((g[i] - want).abs() < 1e-8, "datum {i}: {} vs {want}", g[i]);
    }
    let noisy: Vec<f64> = data
        .iter()
        .enumerate()
        .map(|(i, y)| y + 0.01 * (i as f64 - 2.5))
        .collect();
    check_modes!(fitted_rate {}, fitted_rate, noisy);
}

#[test]
fn hashmap_cell_list_in_every_mode() {
    let xy = [0.1, 0.2, 0.8, 0.5, 1.3, 0.4, 1.1, 1.2, 2.5, 2.5, 0.4, 0.9];
    check_modes!(
        soft_sphere_energy_ordered {},
        soft_sphere_energy_ordered,
        xy
    );
    // A `HashMap` visits its cells in a random order per map, so two calls of the plain
    // function may round differently: the value to rounding, the gradient against
    // central differences.
    let (v, g) = gradient(soft_sphere_energy {}, &xy);
    let want = soft_sphere_energy_ordered(&xy);
    assert!((v - want).abs() <= 1e-14 * want.abs());
    let fd = fd_gradient(&soft_sphere_energy_ordered, &xy);
    for k in 0..xy.len() {
        assert_close(g[k], fd[k], 1e-6, &format!("HashMap cell list: d/dx{k}"));
    }
}

#[test]
fn ode_solvers_style_system_in_every_mode() {
    check_modes!(
        lorenz_z {},
        lorenz_z,
        [10.0, 28.0, 8.0 / 3.0, 1.0, 1.0, 1.0]
    );
}
