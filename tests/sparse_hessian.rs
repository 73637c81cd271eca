//! Sparse Hessians: patterns recorded by the nonlinear rules, star colouring, compressed
//! second-order passes, against the dense `hessian` (bit for bit) and analytic Hessians.

// Index loops over grids and chains, as the physics is written.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::sparse::{hessian_sparsity, sparse_hessian, SparseHessianWorkspace, SparsityPattern};
use rand::{Rng, SeedableRng};

/// A chain of springs of rest length 1 in a quartic well.
#[derive_frule]
fn chain_energy(x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let stretch = x[i + 1] - x[i] - 1.0;
        e += 0.5 * stretch * stretch;
    }
    for xi in x {
        e += 0.25 * xi.powi(4);
    }
    e
}

/// Ginzburg–Landau energy of a scalar field on an `m × m` periodic grid.
#[derive_frule]
fn ginzburg_landau(u: &[f64], m: usize) -> f64 {
    let mut e = 0.0;
    for i in 0..m {
        for j in 0..m {
            let k = i * m + j;
            let east = u[i * m + (j + 1) % m];
            let south = u[((i + 1) % m) * m + j];
            e += 0.5 * ((east - u[k]).powi(2) + (south - u[k]).powi(2));
            e += 0.25 * (1.0 - u[k] * u[k]).powi(2);
        }
    }
    e
}

/// A hub coupled to every other variable: an arrowhead Hessian.
#[derive_frule]
fn hub(x: &[f64]) -> f64 {
    let mut e = x[0].cosh();
    for i in 1..x.len() {
        e += x[0] * x[i] * x[i] + x[i].sin();
    }
    e
}

/// Pair interactions `c_k · x_a · exp(x_b)` over a list of pairs, plus `Σ cos x_i`.
#[derive_frule]
fn pair_energy(x: &[f64], a: &[usize], b: &[usize], c: &[f64]) -> f64 {
    let mut e = 0.0;
    for k in 0..a.len() {
        e += c[k] * x[a[k]] * x[b[k]].exp();
    }
    for xi in x {
        e += xi.cos();
    }
    e
}

fn tridiagonal(n: usize) -> SparsityPattern {
    let rows: Vec<Vec<usize>> = (0..n)
        .map(|i| (i.saturating_sub(1)..(i + 2).min(n)).collect())
        .collect();
    SparsityPattern::from_rows(n, &rows)
}

#[test]
fn chain_hessian_is_tridiagonal_and_equals_the_dense_one() {
    let n = 30;
    let x: Vec<f64> = (0..n).map(|i| 1.2 * i as f64 - 3.0).collect();
    let mut ws = SparseHessianWorkspace::new(chain_energy {}, &x);
    assert_eq!(ws.pattern(), &tridiagonal(n));
    assert_eq!(ws.colors(), 3);
    let (e, g, h) = ws.hessian(&x);
    let (e_dense, g_dense, h_dense) = hessian(chain_energy {}, &x);
    assert_eq!(e, e_dense);
    assert_eq!(g, &g_dense[..]);
    assert_eq!(h.to_dense(), h_dense);
    // Analytic: 3x_i² + (1 or 2 springs) on the diagonal, -1 beside it.
    for i in 0..n {
        let springs = if i == 0 || i == n - 1 { 1.0 } else { 2.0 };
        let expected = 3.0 * x[i] * x[i] + springs;
        assert!((h.get(i, i) - expected).abs() <= 1e-13 * expected, "{i}");
        if i + 1 < n {
            assert_eq!(h.get(i, i + 1), -1.0);
        }
    }
}

#[test]
fn ginzburg_landau_on_a_periodic_grid() {
    let m = 7;
    let u: Vec<f64> = (0..m * m).map(|k| 0.3 * (0.7 * k as f64).sin()).collect();
    let f = bind(ginzburg_landau {}, (Wrt, m));
    let mut ws = SparseHessianWorkspace::new(f, &u);
    // The periodic 5-point stencil: five entries per row.
    assert!((0..m * m).all(|k| ws.pattern().row(k).len() == 5));
    let (e, g, h) = ws.hessian(&u);
    let (e_dense, g_dense, h_dense) = hessian(f, &u);
    assert_eq!(e, e_dense);
    assert_eq!(g, &g_dense[..]);
    assert_eq!(h.to_dense(), h_dense);
    // Analytic diagonal: 4 (two bonds each way) + 3u² - 1.
    for k in 0..m * m {
        let expected = 4.0 + 3.0 * u[k] * u[k] - 1.0;
        assert!((h.get(k, k) - expected).abs() < 1e-13, "{k}");
    }
}

#[test]
fn an_arrowhead_takes_two_colours() {
    let n = 40;
    let x: Vec<f64> = (0..n).map(|i| 0.1 * i as f64 + 0.05).collect();
    let mut ws = SparseHessianWorkspace::new(hub {}, &x);
    assert_eq!(ws.colors(), 2);
    let (_, _, h) = ws.hessian(&x);
    assert_eq!(h.to_dense(), hessian(hub {}, &x).2);
    // ∂²/∂x0∂xi = 2x_i; ∂²/∂xi² = 2x_0 - sin x_i; ∂²/∂x0² = cosh x0.
    assert_eq!(h.get(0, 0), x[0].cosh());
    for i in 1..n {
        assert_eq!(h.get(0, i), 2.0 * x[i]);
        assert_eq!(h.get(i, 0), 2.0 * x[i]);
        assert!((h.get(i, i) - (2.0 * x[0] - x[i].sin())).abs() < 1e-15);
    }
}

#[test]
fn random_pair_interactions() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for trial in 0..8 {
        let n = rng.random_range(3..60);
        let pairs = rng.random_range(0..2 * n);
        let a: Vec<usize> = (0..pairs).map(|_| rng.random_range(0..n)).collect();
        let b: Vec<usize> = (0..pairs).map(|_| rng.random_range(0..n)).collect();
        let c: Vec<f64> = (0..pairs).map(|_| rng.random_range(0.5..1.5)).collect();
        let x: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
        let f = bind(pair_energy {}, (Wrt, &a[..], &b[..], &c[..]));
        // Expected pattern: every diagonal (cos), and (a, b), (b, a), (b, b) of each pair.
        let mut rows: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        for k in 0..pairs {
            rows[a[k]].push(b[k]);
            rows[b[k]].push(a[k]);
        }
        for r in &mut rows {
            r.sort_unstable();
            r.dedup();
        }
        assert_eq!(
            hessian_sparsity(&f, &x),
            SparsityPattern::from_rows(n, &rows),
            "trial {trial}"
        );
        let (e, g, h) = sparse_hessian(f, &x);
        let (e_dense, g_dense, h_dense) = hessian(f, &x);
        assert_eq!((e, g), (e_dense, g_dense), "trial {trial}");
        assert_eq!(h.to_dense(), h_dense, "trial {trial}");
    }
}

#[test]
fn detection_pairs_blocks_beyond_one_window() {
    // 700 inputs: blocks of 256, window pairs (0,0) (0,1) (0,2) (1,1) (1,2) (2,2).
    let n = 700;
    let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let p = hessian_sparsity(&chain_energy {}, &x);
    assert_eq!(p, tridiagonal(n));
}

#[test]
fn a_hessian_at_new_points() {
    let n = 25;
    let x0 = vec![0.5; n];
    let mut ws = SparseHessianWorkspace::new(chain_energy {}, &x0);
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for _ in 0..4 {
        let x: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
        let (_, g, h) = ws.hessian(&x);
        let (_, g_dense, h_dense) = hessian(chain_energy {}, &x);
        assert_eq!(g, &g_dense[..]);
        assert_eq!(h.to_dense(), h_dense);
    }
}
