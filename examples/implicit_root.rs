//! Derivatives of roots found by iteration, with the implicit-function theorem.
//!
//! Two solvers whose iterations we do not want differentiated:
//!
//! * Kepler's equation `E - e sin E = M`, solved by Newton: the position of a satellite on
//!   its orbit and its sensitivity to the mean anomaly and the eccentricity, first and
//!   second order (`fwdad::gradient`, `fwdad::hessian`).
//! * The coexistence equilibrium of a predator–prey model with logistic prey growth, a
//!   2 × 2 nonlinear system solved by Newton: how the equilibrium populations move with
//!   the five model parameters (`fwdad::jacobian`).
//!
//! `implicit_root` and `implicit_system` return the root as given and, in the derived rule,
//! give it the tangent `-(∂g/∂x)⁻¹ ∂g/∂p · dp` from the residual's own rule. The example
//! checks both against finite differences and against closed forms.
//!
//! Run with `cargo run --release --example implicit_root`.

use fwdad::prelude::*;
use fwdad::{implicit_root, implicit_system, Residual};

// ---------------------------------------------------------------------------------------
// Kepler's equation

/// The residual of Kepler's equation in the eccentric anomaly `E`, for `p = (M, e)`.
#[derive_frule]
fn kepler(ecc_anomaly: f64, p: (f64, f64)) -> f64 {
    let (mean_anomaly, e) = p;
    ecc_anomaly - e * ecc_anomaly.sin() - mean_anomaly
}

/// Newton's method; its result gets its derivative from `implicit_root`.
#[non_differentiable]
fn solve_kepler(mean_anomaly: f64, e: f64) -> f64 {
    let mut x = if e > 0.8 {
        std::f64::consts::PI
    } else {
        mean_anomaly
    };
    for _ in 0..50 {
        let step = (x - e * x.sin() - mean_anomaly) / (1.0 - e * x.cos());
        x -= step;
        if step.abs() < 1e-15 * (1.0 + x.abs()) {
            break;
        }
    }
    x
}

/// Distance from the focus, in units of the semi-major axis, at `p = [M, e]`:
/// `r = 1 - e cos E`.
#[derive_frule]
fn orbit_radius(p: &[f64]) -> f64 {
    let (m, e) = (p[0], p[1]);
    let ecc_anomaly = implicit_root(Residual(kepler {}), solve_kepler(m, e), (m, e));
    1.0 - e * ecc_anomaly.cos()
}

// ---------------------------------------------------------------------------------------
// Predator–prey equilibrium

/// Rates of change of prey `x[0]` and predators `x[1]` for
/// `p = [growth r, capacity K, predation a, conversion b, mortality m]`.
#[derive_frule]
fn predator_prey(x: [f64; 2], p: Vec<f64>) -> [f64; 2] {
    let (r, k, a, b, m) = (p[0], p[1], p[2], p[3], p[4]);
    [
        r * x[0] * (1.0 - x[0] / k) - a * x[0] * x[1],
        b * x[0] * x[1] - m * x[1],
    ]
}

/// Newton's method on `predator_prey` from a starting guess, with the Jacobian written
/// out; its result gets its derivative from `implicit_system`.
#[non_differentiable]
fn solve_equilibrium(p: &[f64], guess: [f64; 2]) -> [f64; 2] {
    let (r, k, a, b, m) = (p[0], p[1], p[2], p[3], p[4]);
    let mut x = guess;
    for _ in 0..100 {
        let g = [
            r * x[0] * (1.0 - x[0] / k) - a * x[0] * x[1],
            b * x[0] * x[1] - m * x[1],
        ];
        let j = [
            [r - 2.0 * r * x[0] / k - a * x[1], -a * x[0]],
            [b * x[1], b * x[0] - m],
        ];
        let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
        let step = [
            (j[1][1] * g[0] - j[0][1] * g[1]) / det,
            (j[0][0] * g[1] - j[1][0] * g[0]) / det,
        ];
        x = [x[0] - step[0], x[1] - step[1]];
        if step[0].abs() + step[1].abs() < 1e-14 {
            break;
        }
    }
    x
}

/// The equilibrium populations for the parameters `p`.
#[derive_frule]
fn equilibrium(p: &[f64]) -> [f64; 2] {
    let x = solve_equilibrium(p, [5.0, 2.0]); // near the coexistence state, away from (0, 0)
    implicit_system(Residual(predator_prey {}), x, p.to_vec())
}

// ---------------------------------------------------------------------------------------

fn central_difference(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], j: usize) -> Vec<f64> {
    let h = 1e-6 * x[j].abs().max(1.0);
    let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
    xp[j] += h;
    xm[j] -= h;
    let (fp, fm) = (f(&xp), f(&xm));
    fp.iter()
        .zip(&fm)
        .map(|(a, b)| (a - b) / (2.0 * h))
        .collect()
}

fn main() {
    // Kepler: r(M, e), its gradient and Hessian.
    let p = [1.2, 0.6];
    let (r, grad) = fwdad::gradient(orbit_radius {}, &p);
    let (_, _, hess) = fwdad::hessian(orbit_radius {}, &p);
    println!("orbit: r = {r:.12} at M = {}, e = {}", p[0], p[1]);
    println!("  ∇r   = [{:.12}, {:.12}]", grad[0], grad[1]);
    println!("  ∇²r  = {:?}", hess.to_rows());
    for j in 0..2 {
        let fd = central_difference(|q| vec![orbit_radius(q)], &p, j)[0];
        assert!((grad[j] - fd).abs() < 1e-8, "∂r/∂p{j}: {} vs {fd}", grad[j]);
        let fd_row = central_difference(|q| fwdad::gradient(orbit_radius {}, q).1, &p, j);
        for i in 0..2 {
            assert!((hess[(i, j)] - fd_row[i]).abs() < 1e-6);
        }
    }
    // Closed form of ∂r/∂M: e sin E / (1 - e cos E).
    let e_anom = solve_kepler(p[0], p[1]);
    let dr_dm = p[1] * e_anom.sin() / (1.0 - p[1] * e_anom.cos());
    assert!((grad[0] - dr_dm).abs() < 1e-13);

    // Predator–prey: the equilibrium and its sensitivities to r, K, a, b, m.
    let params = [1.1, 20.0, 0.4, 0.2, 0.9];
    let (x, sens) = fwdad::jacobian(equilibrium {}, &params);
    println!("equilibrium: prey {:.6}, predators {:.6}", x[0], x[1]);
    let names = ["r", "K", "a", "b", "m"];
    for (i, who) in ["prey", "predators"].iter().enumerate() {
        let row: Vec<String> = (0..5)
            .map(|j| format!("∂/∂{} = {:+.6}", names[j], sens[(i, j)]))
            .collect();
        println!("  {who}: {}", row.join(", "));
    }
    // Closed form: x* = m / b, y* = (r / a)(1 - m / (b K)).
    let [r_, k, a, b, m] = params;
    let want = [
        [0.0, 0.0, 0.0, -m / (b * b), 1.0 / b],
        [
            (1.0 - m / (b * k)) / a,
            r_ * m / (a * b * k * k),
            -r_ / (a * a) * (1.0 - m / (b * k)),
            r_ * m / (a * b * b * k),
            -r_ / (a * b * k),
        ],
    ];
    for i in 0..2 {
        for j in 0..5 {
            assert!((sens[(i, j)] - want[i][j]).abs() < 1e-12 * want[i][j].abs().max(1.0));
            let fd = central_difference(|q| equilibrium(q).to_vec(), &params, j)[i];
            assert!((sens[(i, j)] - fd).abs() < 1e-7);
        }
    }
    println!("all sensitivities match finite differences and the closed forms");
}
