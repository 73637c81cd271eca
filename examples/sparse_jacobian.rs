//! Newton's method on Bratu's problem `-u'' = λ eᵘ` on (0, 1), `u(0) = u(1) = 0`, with the
//! Jacobian of the discretised residual from `fwdad::sparse`.
//!
//! The residual couples each node to its two neighbours only, so its Jacobian is
//! tridiagonal: the sparse driver detects that once through the derived rule, colours
//! the columns with 3 colours, and then computes each Jacobian in one batched pass,
//! whatever n is. The dense `jacobian` would need ⌈n / 8⌉ passes.
//!
//! ```text
//! cargo run --release --example sparse_jacobian
//! ```

use fwdad::prelude::*;
use fwdad::sparse::{CsrMatrix, SparseJacobianWorkspace};
use fwdad::Out;

/// The residual of `-u'' - λ eᵘ = 0` at the `n` interior nodes of a uniform grid.
#[derive_frule]
fn bratu_residual(u: &[f64], lambda: f64, r: &mut [f64]) {
    let n = u.len();
    let h = 1.0 / (n + 1) as f64;
    for i in 0..n {
        let left = if i > 0 { u[i - 1] } else { 0.0 };
        let right = if i + 1 < n { u[i + 1] } else { 0.0 };
        r[i] = (2.0 * u[i] - left - right) / (h * h) - lambda * u[i].exp();
    }
}

/// Solves `J·d = b` for a tridiagonal `J` (Thomas algorithm; `J` is diagonally dominant
/// here).
fn solve_tridiagonal(j: &CsrMatrix, b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let (mut c, mut d) = (vec![0.0; n], vec![0.0; n]);
    for i in 0..n {
        let lower = if i > 0 { j.get(i, i - 1) } else { 0.0 };
        let upper = if i + 1 < n { j.get(i, i + 1) } else { 0.0 };
        let prev_c = if i > 0 { c[i - 1] } else { 0.0 };
        let prev_d = if i > 0 { d[i - 1] } else { 0.0 };
        let m = j.get(i, i) - lower * prev_c;
        c[i] = upper / m;
        d[i] = (b[i] - lower * prev_d) / m;
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = d[i] - if i + 1 < n { c[i] * x[i + 1] } else { 0.0 };
    }
    x
}

fn main() {
    let n = 10_000;
    let lambda = 1.0;
    // `inplace` reads the residual written into `r` as the function's result; `bind` fixes λ.
    let residual = inplace(bind(bratu_residual {}, (Wrt, lambda, Out)), n);

    let mut u = vec![0.0; n];
    let mut ws = SparseJacobianWorkspace::new(residual, &u);
    println!(
        "n = {n}: {} nonzeros, {} colours, {} batched pass(es) per Jacobian (dense: {})",
        ws.pattern().nnz(),
        ws.colors(),
        ws.passes(),
        n.div_ceil(fwdad::DEFAULT_WIDTH)
    );

    for iteration in 0..20 {
        let (r, j) = ws.jacobian(&u);
        let step = solve_tridiagonal(j, r);
        u.iter_mut().zip(&step).for_each(|(ui, si)| *ui -= si);
        // The residual carries a factor 1/h² = 10⁸, so its rounding floor is about 1e-7;
        // stop on the size of the Newton step instead.
        let size = step.iter().fold(0.0_f64, |m, s| m.max(s.abs()));
        let norm = r.iter().map(|v| v * v).sum::<f64>().sqrt();
        println!("iteration {iteration}: |r| = {norm:.3e}, |step| = {size:.3e}");
        if size < 1e-12 {
            break;
        }
    }
    // The lower branch of Bratu's problem at λ = 1 peaks at u(1/2) ≈ 0.1405.
    println!("u(1/2) = {:.4}", u[n / 2]);
    assert!((u[n / 2] - 0.1405).abs() < 1e-3);
}
