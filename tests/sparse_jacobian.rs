//! Sparse Jacobians: patterns detected through the derived rules, coloured, evaluated in
//! compressed passes, against the dense `jacobian` (bit for bit), analytic Jacobians and
//! known structures.

// Index loops over grids and chains, as the physics is written.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::sparse::{
    jacobian_sparsity, sparse_jacobian, SparseJacobianWorkspace, SparseResidualWorkspace,
    SparsityPattern,
};
use fwdad::{jacobian_with, Matrix, Out};
use rand::{Rng, SeedableRng};

/// Bratu's problem `-u'' = λ eᵘ` on (0, 1), `u = 0` at both ends, central differences.
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

/// `-Δu + u³ = 1` on the unit square, an `m × m` interior grid, `u = 0` on the boundary.
#[derive_frule]
fn laplacian_residual(u: &[f64], m: usize) -> Vec<f64> {
    let h = 1.0 / (m + 1) as f64;
    let mut r = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            let k = i * m + j;
            let north = if i > 0 { u[k - m] } else { 0.0 };
            let south = if i + 1 < m { u[k + m] } else { 0.0 };
            let west = if j > 0 { u[k - 1] } else { 0.0 };
            let east = if j + 1 < m { u[k + 1] } else { 0.0 };
            let lap = (north + south + west + east - 4.0 * u[k]) / (h * h);
            r[k] = -lap + u[k] * u[k] * u[k] - 1.0;
        }
    }
    r
}

/// A reaction network: rate `r` is `(Σ_k c_k sin(x_{species_k}))²` over its species.
#[derive_frule]
fn reaction_rates(x: &[f64], offsets: &[usize], species: &[usize], c: &[f64]) -> Vec<f64> {
    let mut rates = Vec::new();
    for r in 0..offsets.len() - 1 {
        let mut a = 0.0;
        for k in offsets[r]..offsets[r + 1] {
            a += c[k] * x[species[k]].sin();
        }
        rates.push(a * a);
    }
    rates
}

fn tridiagonal(n: usize) -> SparsityPattern {
    let rows: Vec<Vec<usize>> = (0..n)
        .map(|i| (i.saturating_sub(1)..(i + 2).min(n)).collect())
        .collect();
    SparsityPattern::from_rows(n, &rows)
}

fn five_point(m: usize) -> SparsityPattern {
    let rows: Vec<Vec<usize>> = (0..m * m)
        .map(|k| {
            let (i, j) = (k / m, k % m);
            let mut r = vec![k];
            if i > 0 {
                r.push(k - m);
            }
            if i + 1 < m {
                r.push(k + m);
            }
            if j > 0 {
                r.push(k - 1);
            }
            if j + 1 < m {
                r.push(k + 1);
            }
            r.sort_unstable();
            r
        })
        .collect();
    SparsityPattern::from_rows(m * m, &rows)
}

fn assert_close(a: f64, b: f64, rel: f64) {
    assert!(
        (a - b).abs() <= rel * b.abs().max(1.0),
        "{a} differs from {b} by more than {rel} relative"
    );
}

#[test]
fn bratu_jacobian_is_tridiagonal_in_three_colours() {
    let n = 50;
    let lambda = 1.5;
    let u: Vec<f64> = (0..n)
        .map(|i| {
            let t = (i + 1) as f64 / (n + 1) as f64;
            0.3 * t * (1.0 - t)
        })
        .collect();
    let f = inplace(bind(bratu_residual {}, (Wrt, lambda, Out)), n);
    let mut ws = SparseJacobianWorkspace::new(f.clone(), &u);
    assert_eq!(ws.pattern(), &tridiagonal(n));
    assert_eq!(ws.colors(), 3);
    assert_eq!(ws.passes(), 1);

    let (r, j) = ws.jacobian(&u);
    // The analytic Jacobian: 2/h² - λ e^{u_i} on the diagonal, -1/h² beside it.
    let h = 1.0 / (n + 1) as f64;
    for i in 0..n {
        assert_close(j.get(i, i), 2.0 / (h * h) - lambda * u[i].exp(), 1e-13);
        if i + 1 < n {
            assert_close(j.get(i, i + 1), -1.0 / (h * h), 1e-13);
            assert_close(j.get(i + 1, i), -1.0 / (h * h), 1e-13);
        }
    }
    // The same bits as the dense driver.
    let (r_dense, j_dense) = jacobian(f, &u);
    assert_eq!(r, &r_dense[..]);
    assert_eq!(j.to_dense(), j_dense);
}

#[test]
fn workspace_evaluates_at_new_points_like_the_dense_driver() {
    let n = 40;
    let f = inplace(bind(bratu_residual {}, (Wrt, 2.0, Out)), n);
    let u0 = vec![0.0; n];
    let mut ws = SparseJacobianWorkspace::new(f.clone(), &u0);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..5 {
        let u: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
        let (r, j) = ws.jacobian(&u);
        let (r_dense, j_dense) = jacobian(f.clone(), &u);
        assert_eq!(r, &r_dense[..]);
        assert_eq!(j.to_dense(), j_dense);
    }
}

#[test]
fn detection_spans_several_windows() {
    // 1300 inputs: three detection passes of 512.
    let n = 1300;
    let f = inplace(bind(bratu_residual {}, (Wrt, 1.0, Out)), n);
    let u: Vec<f64> = (0..n).map(|i| (i as f64 * 0.01).sin()).collect();
    let (r, j) = sparse_jacobian(f.clone(), &u);
    assert_eq!(j.pattern(), &tridiagonal(n));
    let mut r_ref = vec![0.0; n];
    bratu_residual(&u, 1.0, &mut r_ref);
    assert_eq!(r, r_ref);
    // Entries across window boundaries (511 | 512, 1023 | 1024).
    let h = 1.0 / (n + 1) as f64;
    for (i, k) in [(511, 512), (512, 511), (1023, 1024), (1024, 1023)] {
        assert_close(j.get(i, k), -1.0 / (h * h), 1e-13);
    }
}

#[test]
fn five_point_laplacian_in_five_colours() {
    let m = 12;
    let u: Vec<f64> = (0..m * m).map(|k| 0.1 * (k as f64).cos()).collect();
    let f = bind(laplacian_residual {}, (Wrt, m));
    let mut ws = SparseJacobianWorkspace::new(f, &u);
    assert_eq!(ws.pattern(), &five_point(m));
    assert!(ws.colors() <= 5, "{} colours", ws.colors());
    let (r, j) = ws.jacobian(&u);
    let (r_dense, j_dense) = jacobian(f, &u);
    assert_eq!(r, &r_dense[..]);
    assert_eq!(j.to_dense(), j_dense);
    // Analytic: 4/h² + 3u² on the diagonal, -1/h² for each neighbour.
    let h = 1.0 / (m + 1) as f64;
    for k in 0..m * m {
        assert_close(j.get(k, k), 4.0 / (h * h) + 3.0 * u[k] * u[k], 1e-13);
    }
    assert_close(j.get(m + 1, 1), -1.0 / (h * h), 1e-13);
}

#[test]
fn random_sparse_structures_are_found_exactly() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    for trial in 0..10 {
        let (nrows, ncols) = (rng.random_range(5..60), rng.random_range(5..700));
        let mut rows: Vec<Vec<usize>> = Vec::new();
        for _ in 0..nrows {
            let len = rng.random_range(0..6);
            let mut r: Vec<usize> = (0..len).map(|_| rng.random_range(0..ncols)).collect();
            r.sort_unstable();
            r.dedup();
            rows.push(r);
        }
        let offsets: Vec<usize> = std::iter::once(0)
            .chain(rows.iter().scan(0, |acc, r| {
                *acc += r.len();
                Some(*acc)
            }))
            .collect();
        let species: Vec<usize> = rows.concat();
        let c: Vec<f64> = species.iter().map(|_| rng.random_range(0.5..2.0)).collect();
        let x: Vec<f64> = (0..ncols).map(|_| rng.random_range(0.1..1.4)).collect();
        let f = bind(reaction_rates {}, (Wrt, &offsets[..], &species[..], &c[..]));
        let p = jacobian_sparsity(&f, &x);
        assert_eq!(p, SparsityPattern::from_rows(ncols, &rows), "trial {trial}");
        let (y, j) = sparse_jacobian(f, &x);
        let (y_dense, j_dense) = jacobian(f, &x);
        assert_eq!(y, y_dense, "trial {trial}");
        assert_eq!(j.to_dense(), j_dense, "trial {trial}");
        // At this generic point every structural entry is a true nonzero.
        assert_eq!(SparsityPattern::of_nonzeros(&j_dense), p, "trial {trial}");
    }
}

#[derive_frule]
fn products(x: &[f64]) -> [f64; 3] {
    [x[0] * x[1], x[2] * x[2], 0.0 * x[3] + x[2]]
}

#[test]
fn a_partial_that_is_zero_at_the_point_keeps_its_entry() {
    // ∂(x0·x1)/∂x0 = x1 = 0 and ∂(x2²)/∂x2 = 0 at this point; both stay in the pattern,
    // so the workspace is right where they are not zero.
    let x0 = [3.0, 0.0, 0.0, 1.0];
    let mut ws = SparseJacobianWorkspace::new(products {}, &x0);
    let entries: Vec<(usize, usize)> = ws.pattern().iter().collect();
    assert_eq!(entries, [(0, 0), (0, 1), (1, 2), (2, 2), (2, 3)]);
    let x = [3.0, 2.0, -1.5, 1.0];
    let (_, j) = ws.jacobian(&x);
    assert_eq!(
        j.to_dense().to_rows(),
        [
            [2.0, 3.0, 0.0, 0.0],
            [0.0, 0.0, -3.0, 0.0],
            [0.0, 0.0, 1.0, 0.0]
        ]
    );
}

#[derive_frule]
fn switch(x: &[f64]) -> [f64; 2] {
    let y = if x[0] > 0.0 { x[1] * x[1] } else { x[2].exp() };
    [y, x[0] + x[3]]
}

#[test]
fn branches_follow_the_point_and_patterns_unite() {
    let (xp, xn) = ([1.0, 2.0, 3.0, 4.0], [-1.0, 2.0, 3.0, 4.0]);
    let pp = jacobian_sparsity(&switch {}, &xp);
    let pn = jacobian_sparsity(&switch {}, &xn);
    assert_eq!(pp.row(0), [1]);
    assert_eq!(pn.row(0), [2]);
    let ws_p = SparseJacobianWorkspace::new(switch {}, &xp);
    assert!(ws_p.pattern_holds_at(&[2.0, -1.0, 0.5, 0.0]));
    assert!(!ws_p.pattern_holds_at(&xn));
    let mut ws = SparseJacobianWorkspace::with_pattern(switch {}, pp.union(&pn));
    assert!(ws.pattern_holds_at(&xp) && ws.pattern_holds_at(&xn));
    for x in [xp, xn] {
        let (_, j) = ws.jacobian(&x);
        assert_eq!(j.to_dense(), jacobian(switch {}, &x).1);
    }
}

#[test]
fn narrow_batches_take_several_passes() {
    let m = 6;
    let u: Vec<f64> = (0..m * m).map(|k| 0.05 * k as f64).collect();
    let f = bind(laplacian_residual {}, (Wrt, m));
    let mut ws = SparseJacobianWorkspace::<_, 2>::detect(f, &u);
    assert_eq!(ws.passes(), ws.colors().div_ceil(2));
    assert!(ws.passes() >= 3);
    let (_, j) = ws.jacobian(&u);
    let (_, j_dense): (_, Matrix) = jacobian_with::<2>(f, &u);
    assert_eq!(j.to_dense(), j_dense);
}

#[test]
#[should_panic(expected = "x has 3 inputs, the pattern 4")]
fn a_point_of_another_size_is_refused() {
    let mut ws = SparseJacobianWorkspace::new(products {}, &[1.0, 2.0, 3.0, 4.0]);
    ws.jacobian(&[1.0, 2.0, 3.0]);
}

/// Forces on a chain of particles, accumulated bond by bond into `f`.
#[derive_frule]
fn chain_forces(x: &[f64], k: f64, f: &mut [f64]) {
    for i in 0..x.len() - 1 {
        let stretch = x[i + 1] - x[i] - 1.0;
        let t = k * (stretch + 0.1 * stretch.powi(3));
        f[i] += t;
        f[i + 1] -= t;
    }
}

#[test]
fn residual_workspace_keeps_its_buffer_and_zeroes_it_per_pass() {
    let n = 30;
    let rule = bind(chain_forces {}, (Wrt, 4.0, Out));
    let x: Vec<f64> = (0..n).map(|i| 1.05 * i as f64).collect();
    let mut ws = SparseResidualWorkspace::new(rule, n, &x);
    assert_eq!(ws.pattern(), &tridiagonal(n));
    assert_eq!(ws.colors(), 3);
    for shift in [0.0, 0.3, -0.2] {
        let y: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, v)| v + shift * (i % 3) as f64)
            .collect();
        let (f, j) = ws.jacobian(&y);
        // Accumulated from zero at every call, not on top of the previous forces.
        let mut f_ref = vec![0.0; n];
        chain_forces(&y, 4.0, &mut f_ref);
        assert_eq!(f, &f_ref[..]);
        let (_, j_dense) = jacobian(inplace(rule, n), &y);
        assert_eq!(j.to_dense(), j_dense);
        // Analytic: ∂t_i/∂x_{i+1} = k (1 + 0.3 s²), s the stretch of bond i.
        let s0 = y[1] - y[0] - 1.0;
        assert_close(j.get(0, 1), 4.0 * (1.0 + 0.3 * s0 * s0), 1e-14);
    }
}

#[derive_frule]
fn offsets(x: &[f64]) -> [f64; 2] {
    let n = x.len() as f64;
    [n, 2.0 * n]
}

#[test]
fn no_dependence_and_no_inputs() {
    // Outputs that depend on no input: an empty pattern, one pass (for the values), a
    // zero Jacobian.
    let mut ws = SparseJacobianWorkspace::new(offsets {}, &[1.0, 2.0, 3.0]);
    assert_eq!((ws.pattern().nnz(), ws.passes()), (0, 1));
    let (y, j) = ws.jacobian(&[4.0, 5.0, 6.0]);
    assert_eq!(y, [3.0, 6.0]);
    assert_eq!(j.to_dense(), Matrix::zeros(2, 3));
    // No inputs at all.
    let (y, j) = sparse_jacobian(offsets {}, &[]);
    assert_eq!(y, [0.0, 0.0]);
    assert_eq!((j.nrows(), j.ncols(), j.nnz()), (2, 0, 0));
}

/// Each output mixes two inputs through one of many scalar operations, piecewise ones
/// included.
#[derive_frule]
fn mixers(x: &[f64], a: &[usize], b: &[usize], op: &[usize]) -> Vec<f64> {
    let mut out = Vec::new();
    for k in 0..a.len() {
        let (u, v) = (x[a[k]], x[b[k]]);
        let y = match op[k] % 12 {
            0 => u * v,
            1 => u / (1.0 + v * v),
            2 => u.atan2(v),
            3 => u.hypot(v),
            4 => u.max(v),
            5 => u.min(v).abs(),
            6 => (u - v).abs().sqrt(),
            7 => u.exp() * v.sin(),
            8 => u.abs().powf(v),
            9 => (u * v).tanh() + v.floor(),
            10 => u.clamp(-0.5, 0.5) * v,
            _ => u.mul_add(v, u.cbrt()),
        };
        out.push(y);
    }
    out
}

#[test]
fn every_nonzero_of_the_dense_jacobian_is_in_the_pattern() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(99);
    for trial in 0..20 {
        let n = rng.random_range(2..40);
        let m = rng.random_range(1..60);
        let a: Vec<usize> = (0..m).map(|_| rng.random_range(0..n)).collect();
        let b: Vec<usize> = (0..m).map(|_| rng.random_range(0..n)).collect();
        let op: Vec<usize> = (0..m).map(|_| rng.random_range(0..12)).collect();
        let x: Vec<f64> = (0..n).map(|_| rng.random_range(-1.5..1.5)).collect();
        let f = bind(mixers {}, (Wrt, &a[..], &b[..], &op[..]));
        let p = jacobian_sparsity(&f, &x);
        let (_, j_dense) = jacobian(f, &x);
        for (i, k) in SparsityPattern::of_nonzeros(&j_dense).iter() {
            assert!(p.contains(i, k), "trial {trial}: ({i}, {k}) missing");
        }
        // Row k holds at most its two inputs.
        for k in 0..m {
            assert!(
                p.row(k).iter().all(|&c| c == a[k] || c == b[k]),
                "trial {trial}"
            );
        }
        // The compressed Jacobian is the dense one, NaN-free entries bit for bit.
        let (_, j) = sparse_jacobian(f, &x);
        let j = j.to_dense();
        for i in 0..m {
            for k in 0..n {
                let (s, d) = (j[(i, k)], j_dense[(i, k)]);
                assert!(
                    s == d || (s.is_nan() && d.is_nan()),
                    "trial {trial}: ({i}, {k})"
                );
            }
        }
    }
}
