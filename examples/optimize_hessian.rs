//! Newton's method for minimisation with exact Hessians from `fwdad::hessian`.
//!
//! Minimises the Rosenbrock function, the classic 2-D one from (−1.2, 1) and the extended
//! one in 10 dimensions, with damped Newton steps: solve ∇²f · d = −∇f (shifting the
//! Hessian by λI until it is positive definite), then backtrack along d until the Armijo
//! condition holds. The Hessian is checked against finite differences of the gradient,
//! and `hvp` against the Newton equation.
//!
//! Run with `cargo run --release --example optimize_hessian`.

// Numeric code is written index-style on purpose: that is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::Matrix;
use fwdad::prelude::*;

/// The extended Rosenbrock function Σ 100 (xᵢ₊₁ − xᵢ²)² + (1 − xᵢ)².
#[derive_frule]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

/// Cholesky factor of `a + shift·I`, or `None` if that is not positive definite.
fn cholesky(a: &Matrix, shift: f64) -> Option<Matrix> {
    let n = a.nrows();
    let mut l = Matrix::zeros(n, n);
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[(i, k)] * l[(j, k)]).sum();
            if i == j {
                let d = a[(i, i)] + shift - s;
                if d <= 0.0 {
                    return None;
                }
                l[(i, i)] = d.sqrt();
            } else {
                l[(i, j)] = (a[(i, j)] - s) / l[(j, j)];
            }
        }
    }
    Some(l)
}

fn cholesky_solve(l: &Matrix, b: &[f64]) -> Vec<f64> {
    let n = b.len();
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

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| p * q).sum()
}

/// Damped Newton from `x0`; returns the minimiser and the number of iterations.
fn newton(mut x: Vec<f64>, verbose: bool) -> (Vec<f64>, usize) {
    if verbose {
        println!(" iter   f(x)           |∇f|          step   shift");
    }
    for iter in 0..100 {
        let (f, g, h) = hessian(rosenbrock {}, &x);
        let gnorm = dot(&g, &g).sqrt();
        if gnorm < 1e-10 {
            if verbose {
                println!(" {iter:4}   {f:.6e}   {gnorm:.3e}");
            }
            return (x, iter);
        }
        // Newton direction, with the smallest shift λ ∈ {0, 1e-3·2^k} that makes
        // ∇²f + λI positive definite.
        let mut shift = 0.0;
        let l = loop {
            if let Some(l) = cholesky(&h, shift) {
                break l;
            }
            shift = if shift == 0.0 { 1e-3 } else { 2.0 * shift };
        };
        let d = cholesky_solve(&l, &g.iter().map(|v| -v).collect::<Vec<_>>());
        if shift == 0.0 {
            // hvp gives ∇²f·d without forming the Hessian: it must equal −∇f.
            let (_, _, hd) = hvp(rosenbrock {}, &x, &d);
            for i in 0..x.len() {
                assert!(
                    (hd[i] + g[i]).abs() <= 1e-8 * (1.0 + g[i].abs()),
                    "hvp ≠ −∇f"
                );
            }
        }
        // Backtracking (Armijo) line search.
        let slope = dot(&g, &d);
        let mut t = 1.0;
        let x_new = loop {
            let trial: Vec<f64> = x.iter().zip(&d).map(|(a, b)| a + t * b).collect();
            if rosenbrock(&trial) <= f + 1e-4 * t * slope || t < 1e-10 {
                break trial;
            }
            t *= 0.5;
        };
        if verbose {
            println!(" {iter:4}   {f:.6e}   {gnorm:.3e}   {t:5.3}   {shift:.0e}");
        }
        x = x_new;
    }
    panic!("Newton did not converge");
}

fn main() {
    // The Hessian against central differences of the gradient at the start point.
    let x0 = vec![-1.2, 1.0];
    let (_, _, h) = hessian(rosenbrock {}, &x0);
    let mut fd = Matrix::zeros(2, 2);
    for j in 0..2 {
        let step = 1e-6;
        let (mut xp, mut xm) = (x0.clone(), x0.clone());
        xp[j] += step;
        xm[j] -= step;
        let (gp, gm) = (
            gradient(rosenbrock {}, &xp).1,
            gradient(rosenbrock {}, &xm).1,
        );
        for i in 0..2 {
            fd[(i, j)] = (gp[i] - gm[i]) / (2.0 * step);
        }
    }
    println!("Rosenbrock, x0 = {x0:?}");
    println!("Hessian at x0:\n{h:10.3}");
    let err = h
        .as_slice()
        .iter()
        .zip(fd.as_slice())
        .map(|(a, b)| (a - b).abs() / a.abs().max(1.0))
        .fold(0.0, f64::max);
    println!("max relative difference to finite differences: {err:.1e}");
    assert!(err < 1e-6, "Hessian disagrees with finite differences");
    // By hand: ∇²f = [[1200x² − 400y + 2, −400x], [−400x, 200]].
    let (x, y) = (x0[0], x0[1]);
    assert_eq!(
        h.to_rows(),
        [
            [1200.0 * x * x - 400.0 * y + 2.0, -400.0 * x],
            [-400.0 * x, 200.0]
        ]
    );

    println!("\nNewton's method in 2-D:");
    let (xmin, iters) = newton(x0, true);
    println!("minimiser {xmin:.12?} after {iters} iterations");
    for v in &xmin {
        assert!((v - 1.0).abs() < 1e-9);
    }

    // The chained function in 10 dimensions has a second, local minimiser near
    // (−0.99, 0.99, 1, …, 1). From the origin Newton finds the global one; from the
    // standard start (−1.2, 1, −1.2, 1, …) it finds the local one, which the Hessian
    // certifies: ∇f = 0 and ∇²f positive definite there.
    let (xmin, iters) = newton(vec![0.0; 10], false);
    let dev = xmin.iter().map(|v| (v - 1.0).abs()).fold(0.0, f64::max);
    println!("\n10-D chained Rosenbrock from the origin: all ones after {iters} iterations");
    println!("  max |xᵢ − 1| = {dev:.1e}");
    assert!(dev < 1e-9);

    let x0: Vec<f64> = (0..10)
        .map(|i| if i % 2 == 0 { -1.2 } else { 1.0 })
        .collect();
    let (xloc, iters) = newton(x0, false);
    let (f, g, h) = hessian(rosenbrock {}, &xloc);
    let gnorm = dot(&g, &g).sqrt();
    let positive_definite = cholesky(&h, 0.0).is_some();
    println!("from (−1.2, 1, …): a local minimiser after {iters} iterations");
    println!("  x = {:.4?}", &xloc[..4]);
    println!("  f = {f:.6}, |∇f| = {gnorm:.1e}, ∇²f positive definite: {positive_definite}");
    assert!(gnorm < 1e-10 && positive_definite && f > 3.0);
    println!("ok");
}
