//! Sensitivities of an ODE solution to its parameters, and a parameter fit that uses them.
//!
//! The Lotka–Volterra predator–prey model
//!     x' = αx − βxy,   y' = δxy − γy
//! is integrated with a classic fixed-step RK4 written in plain `f64` Rust. `jacobian`
//! differentiates the whole integration with respect to the four parameters (a 2m × 4
//! sensitivity matrix for m observation times) and with respect to the initial state.
//! Both are checked against finite differences; the sensitivities then drive a
//! Gauss–Newton fit that recovers the parameters from synthetic observations.
//!
//! Run with `cargo run --release --example ode_sensitivity`.

// Numeric code is written index-style on purpose: that is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, inplace, Matrix, Out, Wrt};
use fwdad::prelude::*;

/// The right-hand side: p = (α, β, δ, γ).
#[derive_frule]
fn lotka_volterra(u: [f64; 2], p: &[f64]) -> [f64; 2] {
    let (x, y) = (u[0], u[1]);
    [p[0] * x - p[1] * x * y, p[2] * x * y - p[3] * y]
}

/// One classic Runge–Kutta step.
#[derive_frule]
fn rk4_step(u: [f64; 2], p: &[f64], dt: f64) -> [f64; 2] {
    let k1 = lotka_volterra(u, p);
    let k2 = lotka_volterra([u[0] + 0.5 * dt * k1[0], u[1] + 0.5 * dt * k1[1]], p);
    let k3 = lotka_volterra([u[0] + 0.5 * dt * k2[0], u[1] + 0.5 * dt * k2[1]], p);
    let k4 = lotka_volterra([u[0] + dt * k3[0], u[1] + dt * k3[1]], p);
    [
        u[0] + dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
        u[1] + dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
    ]
}

/// Integrates from `u0` and writes the state after every `steps_per_obs` steps into
/// `obs` = [x(t₁), y(t₁), x(t₂), y(t₂), ...].
#[derive_frule]
fn observe(p: &[f64], u0: &[f64], dt: f64, steps_per_obs: usize, obs: &mut [f64]) {
    let mut u = [u0[0], u0[1]];
    for k in 0..obs.len() / 2 {
        for _ in 0..steps_per_obs {
            u = rk4_step(u, p, dt);
        }
        obs[2 * k] = u[0];
        obs[2 * k + 1] = u[1];
    }
}

const DT: f64 = 0.01;
const STEPS_PER_OBS: usize = 50; // observations every 0.5 time units
const N_OBS: usize = 20; // up to t = 10

fn simulate(p: &[f64], u0: &[f64]) -> Vec<f64> {
    let mut obs = vec![0.0; 2 * N_OBS];
    observe(p, u0, DT, STEPS_PER_OBS, &mut obs);
    obs
}

/// Central finite differences of `simulate` in the parameters or the initial state.
fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Matrix {
    let m = f(x).len();
    let mut j = Matrix::zeros(m, x.len());
    for c in 0..x.len() {
        let h = 1e-6 * x[c].abs().max(1e-3);
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[c] += h;
        xm[c] -= h;
        let (fp, fm) = (f(&xp), f(&xm));
        for r in 0..m {
            j[(r, c)] = (fp[r] - fm[r]) / (2.0 * h);
        }
    }
    j
}

/// Largest relative difference, entries scaled by the largest entry of their row.
fn max_rel_diff(a: &Matrix, b: &Matrix) -> f64 {
    let mut worst: f64 = 0.0;
    for r in 0..a.nrows() {
        let scale = a.row(r).iter().fold(1e-300_f64, |m, v| m.max(v.abs()));
        for c in 0..a.ncols() {
            worst = worst.max((a[(r, c)] - b[(r, c)]).abs() / scale);
        }
    }
    worst
}

/// Solves the symmetric positive definite system `a · x = b` by Cholesky.
fn cholesky_solve(a: &Matrix, b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut l = Matrix::zeros(n, n);
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[(i, k)] * l[(j, k)]).sum();
            if i == j {
                let d = a[(i, i)] - s;
                assert!(d > 0.0, "matrix not positive definite");
                l[(i, i)] = d.sqrt();
            } else {
                l[(i, j)] = (a[(i, j)] - s) / l[(j, j)];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[(i, k)] * y[k]).sum::<f64>()) / l[(i, i)];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[(k, i)] * x[k]).sum::<f64>()) / l[(i, i)];
    }
    x
}

fn main() {
    let names = ["α", "β", "δ", "γ"];
    let p_true = [1.1, 0.4, 0.1, 0.4];
    let u0 = [10.0, 5.0];
    let m = 2 * N_OBS;

    // Sensitivities of the whole trajectory to the parameters: one batched jacobian call
    // (4 directions in one pass) through 1000 RK4 steps.
    let (traj, s) = jacobian(
        inplace(bind(observe {}, (Wrt, &u0[..], DT, STEPS_PER_OBS, Out)), m),
        &p_true,
    );
    assert_eq!(traj, simulate(&p_true, &u0));
    println!("Lotka–Volterra, RK4 with dt = {DT}, u0 = {u0:?}, p = {p_true:?}");
    println!(
        "state at t = 10: x = {:.6}, y = {:.6}",
        traj[m - 2],
        traj[m - 1]
    );
    println!("sensitivities at t = 10:");
    for (r, label) in [(m - 2, "x"), (m - 1, "y")] {
        let row: Vec<String> = (0..4)
            .map(|c| format!("∂{label}/∂{} = {:+10.4}", names[c], s[(r, c)]))
            .collect();
        println!("  {}", row.join("  "));
    }
    let fd = fd_jacobian(|p| simulate(p, &u0), &p_true);
    let err = max_rel_diff(&s, &fd);
    println!("  max relative difference to finite differences: {err:.2e}");
    assert!(
        err < 1e-6,
        "parameter sensitivities disagree with finite differences"
    );

    // Sensitivity to the initial state (the state-transition matrix at t = 10).
    let (_, phi) = jacobian(
        inplace(
            bind(observe {}, (&p_true[..], Wrt, DT, STEPS_PER_OBS, Out)),
            m,
        ),
        &u0,
    );
    let fd = fd_jacobian(|u| simulate(&p_true, u), &u0);
    let err = max_rel_diff(&phi, &fd);
    println!(
        "∂u(10)/∂u0 = [[{:.4}, {:.4}], [{:.4}, {:.4}]]  (finite differences: {err:.1e})",
        phi[(m - 2, 0)],
        phi[(m - 2, 1)],
        phi[(m - 1, 0)],
        phi[(m - 1, 1)]
    );
    assert!(
        err < 1e-6,
        "initial-state sensitivities disagree with finite differences"
    );

    // Gauss–Newton fit of the parameters to the synthetic observations, from a guess
    // 10–20 % off: minimise |r(p)|², r(p) = simulate(p) − data, with J = ∂r/∂p.
    let data = traj;
    let mut p = vec![1.0, 0.45, 0.09, 0.45];
    println!("\nGauss–Newton fit from p = {p:?}");
    println!(" iter   |r|            p");
    for iter in 0..30 {
        let (sim, j) = jacobian(
            inplace(bind(observe {}, (Wrt, &u0[..], DT, STEPS_PER_OBS, Out)), m),
            &p,
        );
        let r: Vec<f64> = sim.iter().zip(&data).map(|(a, b)| a - b).collect();
        let rnorm = r.iter().map(|v| v * v).sum::<f64>().sqrt();
        println!(" {iter:4}   {rnorm:.3e}   {p:.8?}");
        if rnorm < 1e-10 {
            break;
        }
        // Normal equations (JᵀJ) δ = −Jᵀr, with a step halving safeguard.
        let jt = j.transpose();
        let mut jtj = Matrix::zeros(4, 4);
        for a in 0..4 {
            for b in 0..4 {
                jtj[(a, b)] = (0..m).map(|k| jt[(a, k)] * jt[(b, k)]).sum();
            }
        }
        let jtr: Vec<f64> = jt.mul_vec(&r).iter().map(|v| -v).collect();
        let delta = cholesky_solve(&jtj, &jtr);
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = p.iter().zip(&delta).map(|(a, d)| a + t * d).collect();
            let rt: f64 = simulate(&trial, &u0)
                .iter()
                .zip(&data)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
                .sqrt();
            if rt < rnorm || t < 1e-4 {
                p = trial;
                break;
            }
            t *= 0.5;
        }
    }
    for c in 0..4 {
        println!("  {} = {:.10} (true {})", names[c], p[c], p_true[c]);
        assert!(
            (p[c] - p_true[c]).abs() < 1e-8,
            "fit did not recover {}",
            names[c]
        );
    }
    println!("ok");
}
