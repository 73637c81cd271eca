//! Sparsity detection through hand-written rules (`#[primitive]` partials and full rules
//! from `fwdad-special`): the detection modes flow through them as through derived ones.

// Index loops over bodies, as the physics is written.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::sparse::{jacobian_sparsity, sparse_hessian, sparse_jacobian, SparsityPattern};
use fwdad::Out;
use fwdad_special::linalg::gemv;
use fwdad_special::{hypot3, kepler};

/// Positions of `n` bodies on Kepler orbits of semi-major axis 1 at mean anomalies `p[..n]`
/// and eccentricities `p[n..]`, and the distance from each body to the next.
#[derive_frule]
fn orbits(p: &[f64]) -> Vec<f64> {
    let n = p.len() / 2;
    let mut out = Vec::new();
    let mut pos = Vec::new();
    for i in 0..n {
        let e = p[n + i];
        let ecc = kepler(p[i], e);
        let x = ecc.cos() - e;
        let y = (1.0 - e * e).sqrt() * ecc.sin();
        out.push(x);
        out.push(y);
        pos.push((x, y));
    }
    for i in 0..n - 1 {
        let (dx, dy) = (pos[i + 1].0 - pos[i].0, pos[i + 1].1 - pos[i].1);
        out.push(hypot3(dx, dy, 0.1));
    }
    out
}

#[test]
fn kepler_and_hypot3_primitives_carry_their_dependencies() {
    let n = 6;
    let p: Vec<f64> = (0..n)
        .map(|i| 0.3 + 0.7 * i as f64)
        .chain((0..n).map(|i| 0.05 + 0.1 * i as f64))
        .collect();
    // Body i's position depends on M_i and e_i; distance i on bodies i and i + 1.
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        rows.push(vec![i, n + i]);
        rows.push(vec![i, n + i]);
    }
    for i in 0..n - 1 {
        rows.push(vec![i, i + 1, n + i, n + i + 1]);
    }
    let expected = SparsityPattern::from_rows(2 * n, &rows);
    assert_eq!(jacobian_sparsity(&orbits {}, &p), expected);
    let (y, j) = sparse_jacobian(orbits {}, &p);
    let (y_dense, j_dense) = jacobian(orbits {}, &p);
    assert_eq!(y, y_dense);
    assert_eq!(j.to_dense(), j_dense);
    // ∂x_i/∂M_i = -sin E · ∂E/∂M = -sin E / (1 - e cos E).
    let (m0, e0) = (p[0], p[n]);
    let ecc = kepler(m0, e0);
    let want = -ecc.sin() / (1.0 - e0 * ecc.cos());
    assert!((j.get(0, 0) - want).abs() < 1e-14);
}

/// `y = A x` through `gemv`'s hand-written rule, `A` given as dense data.
#[derive_frule]
fn apply(x: &[f64], a: &[f64], y: &mut [f64]) {
    gemv(1.0, a, x, 0.0, y);
}

#[test]
fn zeros_stored_in_data_are_structural_entries() {
    // A tridiagonal A stored densely: the rule multiplies every x_j by a_ij, zero or not,
    // so the detected pattern is dense. Detection sees the code's structure, never the
    // values of the data (a zero that is data could be anything at the next call).
    let n = 5;
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in i.saturating_sub(1)..(i + 2).min(n) {
            a[i * n + j] = 1.0 + (i + 2 * j) as f64;
        }
    }
    let x: Vec<f64> = (0..n).map(|i| i as f64 - 1.5).collect();
    let rule = inplace(bind(apply {}, (Wrt, &a[..], Out)), n);
    assert_eq!(jacobian_sparsity(&rule, &x).nnz(), n * n);
    let (_, j) = sparse_jacobian(rule, &x);
    for i in 0..n {
        for k in 0..n {
            assert_eq!(j.get(i, k), a[i * n + k]);
        }
    }
}

/// Total eccentric anomaly of bodies that share one eccentricity `p[0]`.
#[derive_frule]
fn anomaly_sum(p: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..p.len() {
        s += kepler(p[i], p[0]);
    }
    s
}

#[test]
fn hessian_through_a_primitive_is_an_arrowhead() {
    let p = [0.3, 0.5, 1.0, 2.0, 2.5];
    let (v, g, h) = sparse_hessian(anomaly_sum {}, &p);
    let (v_dense, g_dense, h_dense) = hessian(anomaly_sum {}, &p);
    assert_eq!((v, g), (v_dense, g_dense));
    // Row 0 holds every column, all M's share one colour: H[0, i] is read from row i, as
    // e_iᵀ H e_0, where the dense driver computes e_0ᵀ H e_i; the same number to rounding.
    let h = h.to_dense();
    for i in 0..p.len() {
        for k in 0..p.len() {
            assert_eq!(h[(i, k)], h[(k, i)], "exactly symmetric");
            let d = h_dense[(i, k)];
            assert!((h[(i, k)] - d).abs() <= 1e-13 * d.abs(), "({i}, {k})");
        }
    }
    // The eccentricity couples to every M_i; two M's never couple.
    let pattern = fwdad::sparse::hessian_sparsity(&anomaly_sum {}, &p);
    assert_eq!(pattern.row(0), [0, 1, 2, 3, 4]);
    for i in 1..p.len() {
        assert_eq!(pattern.row(i), [0, i]);
    }
}
