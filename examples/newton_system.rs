//! Newton's method for a nonlinear system F(x) = 0, with the Jacobian from
//! `fwdad::jacobian`.
//!
//! The system is Broyden's tridiagonal function (Moré, Garbow & Hillstrom, 1981),
//! written as an in-place residual `fn(x: &[f64], f: &mut [f64])`, plus a variant with a
//! parameter bound by `bind`. Newton converges quadratically from the standard starting
//! point; the example checks the Jacobian against finite differences and the solution
//! against the residual.
//!
//! Run with `cargo run --release --example newton_system`.

// Numeric code is written index-style on purpose: that is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, inplace, Matrix, Out, Wrt};
use fwdad::prelude::*;

/// Broyden's tridiagonal function:
/// Fᵢ(x) = (3 − 2xᵢ)·xᵢ − xᵢ₋₁ − 2xᵢ₊₁ + 1, with x₋₁ = xₙ = 0.
#[derive_frule]
fn broyden_tridiagonal(x: &[f64], f: &mut [f64]) {
    let n = x.len();
    for i in 0..n {
        let left = if i > 0 { x[i - 1] } else { 0.0 };
        let right = if i + 1 < n { x[i + 1] } else { 0.0 };
        f[i] = (3.0 - 2.0 * x[i]) * x[i] - left - 2.0 * right + 1.0;
    }
}

/// The same system with a nonlinearity of strength `c` in place of the 2 and a coupling
/// to every neighbour's square: a parameterised family for `bind`.
#[derive_frule]
fn coupled(c: f64, x: &[f64], f: &mut [f64]) {
    let n = x.len();
    for i in 0..n {
        let left = if i > 0 { x[i - 1] } else { 0.0 };
        let right = if i + 1 < n { x[i + 1] } else { 0.0 };
        f[i] = (3.0 - c * x[i]) * x[i] - left - 2.0 * right + 1.0 + 0.1 * (left * left).sin();
    }
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting.
fn solve(a: &Matrix, b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m = a.clone();
    let mut x = b.to_vec();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| m[(i, col)].abs().total_cmp(&m[(j, col)].abs()))
            .unwrap();
        assert!(m[(pivot, col)] != 0.0, "singular Jacobian");
        for k in 0..n {
            let t = m[(col, k)];
            m[(col, k)] = m[(pivot, k)];
            m[(pivot, k)] = t;
        }
        x.swap(col, pivot);
        for row in col + 1..n {
            let factor = m[(row, col)] / m[(col, col)];
            for k in col..n {
                m[(row, k)] -= factor * m[(col, k)];
            }
            x[row] -= factor * x[col];
        }
    }
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[(row, k)] * x[k]).sum();
        x[row] = (x[row] - s) / m[(row, row)];
    }
    x
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// Central finite-difference Jacobian of a plain residual function.
fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Matrix {
    let n = x.len();
    let mut j = Matrix::zeros(n, n);
    for c in 0..n {
        let h = 1e-6;
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[c] += h;
        xm[c] -= h;
        let (fp, fm) = (f(&xp), f(&xm));
        for r in 0..n {
            j[(r, c)] = (fp[r] - fm[r]) / (2.0 * h);
        }
    }
    j
}

fn max_abs_diff(a: &Matrix, b: &Matrix) -> f64 {
    a.as_slice()
        .iter()
        .zip(b.as_slice())
        .map(|(p, q)| (p - q).abs())
        .fold(0.0, f64::max)
}

fn main() {
    let n = 12;
    let plain = |x: &[f64]| {
        let mut f = vec![0.0; x.len()];
        broyden_tridiagonal(x, &mut f);
        f
    };

    // The standard starting point, and a check of the Jacobian there.
    let mut x = vec![-1.0; n];
    let (_, j0) = jacobian(inplace(broyden_tridiagonal {}, n), &x);
    let err = max_abs_diff(&j0, &fd_jacobian(plain, &x));
    println!("Broyden tridiagonal system, n = {n}");
    println!("Jacobian at x0 (first rows, tridiagonal):");
    for r in 0..3 {
        println!("  {:5.1?} ...", &j0.row(r)[..5]);
    }
    println!("  max |J_ad - J_fd| = {err:.2e}");
    assert!(err < 1e-8, "Jacobian disagrees with finite differences");

    // Newton: J(x) δ = −F(x), x ← x + δ. One call gives both F and J.
    println!("\n iter   |F(x)|          |step|");
    let mut residuals = Vec::new();
    for iter in 0..20 {
        let (f, j) = jacobian(inplace(broyden_tridiagonal {}, n), &x);
        let r = norm(&f);
        residuals.push(r);
        if r < 1e-13 {
            println!(" {iter:4}   {r:.3e}");
            break;
        }
        let step = solve(&j, &f.iter().map(|v| -v).collect::<Vec<_>>());
        for i in 0..n {
            x[i] += step[i];
        }
        println!(" {iter:4}   {r:.3e}      {:.3e}", norm(&step));
    }
    let final_residual = norm(&plain(&x));
    println!("solution: {:.6?}", &x[..4]);
    println!("          ... |F(x*)| = {final_residual:.2e}");
    assert!(final_residual < 1e-12, "Newton did not converge");
    // Quadratic convergence: once small, each residual is about the square of the last.
    let k = residuals.iter().position(|&r| r < 1e-3).unwrap();
    assert!(
        residuals[k + 1] < 10.0 * residuals[k] * residuals[k],
        "convergence is not quadratic: {residuals:?}"
    );

    // A parameterised family, continued in the parameter c from 2 to 3: `bind` fixes c,
    // and each solve starts from the previous solution.
    println!("\ncontinuation in c (x₀ of the solution):");
    for step in 0..=4 {
        let c = 2.0 + 0.25 * step as f64;
        let mut iters = 0;
        loop {
            let (f, j) = jacobian(inplace(bind(coupled {}, (c, Wrt, Out)), n), &x);
            if norm(&f) < 1e-13 {
                break;
            }
            let step = solve(&j, &f.iter().map(|v| -v).collect::<Vec<_>>());
            for i in 0..n {
                x[i] += step[i];
            }
            iters += 1;
            assert!(iters < 30, "continuation step did not converge");
        }
        let mut f = vec![0.0; n];
        coupled(c, &x, &mut f);
        println!(
            "  c = {c:4.2}: x₀ = {:+.10}, {iters} Newton steps, |F| = {:.1e}",
            x[0],
            norm(&f)
        );
        assert!(norm(&f) < 1e-12);
        // The bound Jacobian agrees with finite differences of the plain function.
        let (_, j) = jacobian(inplace(bind(coupled {}, (c, Wrt, Out)), n), &x);
        let fd = fd_jacobian(
            |x| {
                let mut f = vec![0.0; n];
                coupled(c, x, &mut f);
                f
            },
            &x,
        );
        assert!(max_abs_diff(&j, &fd) < 1e-8);
    }
    println!("ok");
}
