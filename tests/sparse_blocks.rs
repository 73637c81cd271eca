//! Block-by-block Jacobians (`BlockLayout`, `BlockJacobianWorkspace`) and the residual
//! workspace that chooses its width (`NarrowResidualWorkspace`): against analytic
//! Jacobians, central finite differences and the dense driver (bit for bit).

// Index loops over grids and chains, as the physics is written.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::sparse::{
    narrow_width, BlockLayout, NarrowResidualWorkspace, SparseResidualWorkspace, SparsityPattern,
};
use fwdad::{jacobian_with, Out};
use rand::{Rng, SeedableRng};

/// A bar of a plane truss between nodes a and b, `p = [xa, ya, xb, yb]`: its strain
/// `(L - L0) / L0`.
#[derive_frule]
fn strain(p: &[f64], rest: f64) -> f64 {
    let dx = p[2] - p[0];
    let dy = p[3] - p[1];
    ((dx * dx + dy * dy).sqrt() - rest) / rest
}

/// A node's support: a spring of stiffness k to where the node started.
#[derive_frule]
fn support(p: &[f64], x0: f64, y0: f64, k: f64) -> [f64; 2] {
    [k * (p[0] - x0), k * (p[1] - y0)]
}

/// The truss's whole residual `[strains of the bars, supports of the nodes]`, as one
/// function of all node coordinates.
fn truss_residual(x: &[f64], bars: &[(usize, usize, f64)], fixed: &[(usize, f64)]) -> Vec<f64> {
    let mut r = Vec::new();
    for &(a, b, rest) in bars {
        let (dx, dy) = (x[2 * b] - x[2 * a], x[2 * b + 1] - x[2 * a + 1]);
        r.push(((dx * dx + dy * dy).sqrt() - rest) / rest);
    }
    for &(node, k) in fixed {
        r.push(k * (x[2 * node] - x0(node)));
        r.push(k * (x[2 * node + 1] - y0(node)));
    }
    r
}

/// A node's starting position: a row of nodes along x, slightly bent.
fn x0(node: usize) -> f64 {
    node as f64
}
fn y0(node: usize) -> f64 {
    0.1 * (node as f64).sin()
}

/// Central finite differences of `f` at `x`, column `j`.
fn fd_column(f: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64], j: usize) -> Vec<f64> {
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

#[test]
fn truss_jacobian_block_by_block_against_finite_differences() {
    // 12 nodes, bars between neighbours and next-but-one neighbours, the bars listed
    // with their nodes in either order; nodes 0 and 11 held by supports.
    let nodes = 12;
    let mut bars = Vec::new();
    for a in 0..nodes {
        for step in [1, 2] {
            if a + step < nodes {
                let (p, q) = if a % 2 == 0 {
                    (a, a + step)
                } else {
                    (a + step, a)
                };
                bars.push((p, q, step as f64 * 1.05));
            }
        }
    }
    let fixed = [(0, 50.0), (nodes - 1, 50.0)];
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let x: Vec<f64> = (0..nodes)
        .flat_map(|i| {
            [
                x0(i) + rng.random_range(-0.1..0.1),
                y0(i) + rng.random_range(-0.1..0.1),
            ]
        })
        .collect();

    let mut layout = BlockLayout::new(2 * nodes);
    let bar_rows = layout.group(bars.len(), 1, |b| {
        let (p, q, _) = bars[b];
        [2 * p, 2 * p + 1, 2 * q, 2 * q + 1]
    });
    let support_rows = layout.group(fixed.len(), 2, |s| [2 * fixed[s].0, 2 * fixed[s].0 + 1]);
    assert_eq!(layout.nrows(), bars.len() + 4);
    let mut ws = layout.workspace::<4>();
    ws.eval(bar_rows, &x, |b| bind(strain {}, (Wrt, bars[b].2)));
    ws.eval(support_rows, &x, |s| {
        let (node, k) = fixed[s];
        bind(support {}, (Wrt, x0(node), y0(node), k))
    });

    let whole = |x: &[f64]| truss_residual(x, &bars, &fixed);
    let r = whole(&x);
    for (got, want) in ws.values().iter().zip(&r) {
        assert!((got - want).abs() <= 1e-15 * want.abs().max(1.0));
    }
    let j = ws.jacobian();
    assert_eq!(j.nnz(), 4 * bars.len() + fixed.len() * 2 * 2);
    let dense = j.to_dense();
    for col in 0..2 * nodes {
        let fd = fd_column(&whole, &x, col);
        for row in 0..r.len() {
            let (a, b) = (dense[(row, col)], fd[row]);
            assert!(
                (a - b).abs() <= 1e-6 * b.abs().max(1.0),
                "J[{row}, {col}] = {a}, finite differences {b}"
            );
        }
    }
    // The strain's gradient by hand for bar 0: ±(dx, dy) / (L · L0).
    let (p, q, rest) = bars[0];
    let (dx, dy) = (x[2 * q] - x[2 * p], x[2 * q + 1] - x[2 * p + 1]);
    let len = (dx * dx + dy * dy).sqrt();
    assert!((j.get(0, 2 * q) - dx / (len * rest)).abs() < 1e-14);
    assert!((j.get(0, 2 * p + 1) + dy / (len * rest)).abs() < 1e-14);
    assert_eq!(j.get(0, 2 * (q + 3).min(nodes - 1)), 0.0);
}

/// A block of 7 inputs with 2 rows.
#[derive_frule]
fn seven(p: &[f64]) -> [f64; 2] {
    let mut s = 0.0;
    let mut q = 1.0;
    for i in 0..p.len() {
        s += (i as f64 + 1.0) * p[i].sin();
        q *= 1.0 + 0.1 * p[i];
    }
    [s * q, s.exp()]
}

#[test]
fn blocks_wider_than_the_batch_take_several_passes_with_the_same_bits() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let ncols = 40;
    let x: Vec<f64> = (0..ncols).map(|_| rng.random_range(-1.0..1.0)).collect();
    let inputs: Vec<Vec<usize>> = (0..9)
        .map(|_| {
            let mut v: Vec<usize> = Vec::new();
            while v.len() < 7 {
                let j = rng.random_range(0..ncols);
                if !v.contains(&j) {
                    v.push(j);
                }
            }
            v
        })
        .collect();
    let layout = {
        let mut l = BlockLayout::new(ncols);
        l.group(inputs.len(), 2, |b| inputs[b].clone());
        l
    };
    let group = {
        let mut l = BlockLayout::new(ncols);
        l.group(inputs.len(), 2, |b| inputs[b].clone())
    };
    // 7 inputs: one pass at width 8, three at width 3.
    let mut wide = layout.clone().workspace::<8>();
    let mut narrow = layout.workspace::<3>();
    wide.eval(group, &x, |_| seven {});
    narrow.eval(group, &x, |_| seven {});
    assert_eq!(wide.jacobian(), narrow.jacobian());
    assert_eq!(wide.values(), narrow.values());
    // Each block's rows are the dense Jacobian of `seven` at its gathered inputs,
    // scattered to their columns.
    let j = wide.jacobian();
    for (b, ins) in inputs.iter().enumerate() {
        let p: Vec<f64> = ins.iter().map(|&k| x[k]).collect();
        let (y, jb) = jacobian_with::<8>(seven {}, &p);
        for row in 0..2 {
            assert_eq!(wide.values()[2 * b + row], y[row]);
            for (k, &col) in ins.iter().enumerate() {
                assert_eq!(j.get(2 * b + row, col), jb[(row, k)]);
            }
            assert_eq!(j.row(2 * b + row).0.len(), 7);
        }
    }
}

#[test]
#[should_panic(expected = "block 1 names an input twice")]
fn a_block_naming_an_input_twice_is_refused() {
    let mut l = BlockLayout::new(5);
    l.group(2, 1, |b| if b == 0 { vec![0, 1] } else { vec![2, 2] });
}

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

/// A 9-point stencil (`-Δu` with the diagonal neighbours, `+ u³`) on an `m × m` grid.
#[derive_frule]
fn nine_point(u: &[f64], m: usize, r: &mut [f64]) {
    for i in 0..m {
        for j in 0..m {
            let mut s = 0.0;
            for di in 0..3 {
                for dj in 0..3 {
                    if i + di >= 1 && i + di <= m && j + dj >= 1 && j + dj <= m {
                        s += u[(i + di - 1) * m + (j + dj - 1)];
                    }
                }
            }
            let k = i * m + j;
            r[k] = 9.0 * u[k] - s + u[k] * u[k] * u[k];
        }
    }
}

#[test]
fn narrow_workspace_takes_three_lanes_for_bratu_with_the_analytic_jacobian() {
    let n = 200;
    let lambda = 2.0;
    let u: Vec<f64> = (0..n).map(|i| 0.2 * (0.05 * i as f64).sin()).collect();
    let f = bind(bratu_residual {}, (Wrt, lambda, Out));
    let mut ws = NarrowResidualWorkspace::new(f, n, &u);
    assert_eq!((ws.colors(), ws.width(), ws.passes()), (3, 3, 1));
    let (_, j) = ws.jacobian(&u);
    let h = 1.0 / (n + 1) as f64;
    for i in 0..n {
        let d = 2.0 / (h * h) - lambda * u[i].exp();
        assert!((j.get(i, i) - d).abs() <= 1e-13 * d.abs());
        if i + 1 < n {
            assert_eq!(j.get(i, i + 1), -1.0 / (h * h));
        }
    }
    // The same bits as the default 8 lanes and as the dense driver; twice, since the
    // buffers are reused.
    let j = j.clone();
    let mut fixed = SparseResidualWorkspace::new(f, n, &u);
    assert_eq!(fixed.jacobian(&u).1, &j);
    assert_eq!(j.to_dense(), jacobian(inplace(f, n), &u).1);
    let v: Vec<f64> = u.iter().map(|x| x + 0.1).collect();
    assert_eq!(ws.jacobian(&v).1.to_dense(), jacobian(inplace(f, n), &v).1);
}

#[test]
fn nine_point_stencil_takes_nine_colours_in_one_pass_of_twelve_lanes() {
    let m = 12;
    let u: Vec<f64> = (0..m * m).map(|k| 0.3 * (k as f64).cos()).collect();
    let f = bind(nine_point {}, (Wrt, m, Out));
    let mut ws = NarrowResidualWorkspace::new(f, m * m, &u);
    assert_eq!(ws.colors(), 9);
    assert_eq!((ws.width(), narrow_width(9)), (12, 12));
    let interior = m + 1;
    assert_eq!(ws.pattern().row(interior).len(), 9);
    let (r, j) = ws.jacobian(&u);
    let (r_dense, j_dense) = jacobian(inplace(f, m * m), &u);
    assert_eq!(r, &r_dense[..]);
    assert_eq!(j.to_dense(), j_dense);
    assert_eq!(j.get(interior, interior), 8.0 + 3.0 * u[interior].powi(2));
    assert_eq!(
        SparsityPattern::of_nonzeros(&j_dense).nnz(),
        ws.pattern().nnz()
    );
}

#[test]
fn narrow_width_chooses_the_fewest_idle_lanes() {
    assert_eq!(narrow_width(0), 2);
    assert_eq!(narrow_width(1), 2);
    for c in 2..=6 {
        assert_eq!(narrow_width(c), c);
    }
    assert_eq!(narrow_width(7), 8);
    assert_eq!(narrow_width(8), 8);
    // 9 or 10 colours: one pass of 12 lanes (16 units), not two of 5 (18).
    assert_eq!(narrow_width(9), 12);
    assert_eq!(narrow_width(10), 12);
    assert_eq!(narrow_width(16), 16);
    // 24 colours: two passes of 12 (32 units) rather than 16 + 8 idle lanes (40).
    assert_eq!(narrow_width(24), 12);
    // 30 colours: 2 passes of 16 (2 idle lanes) cost 40 units, 3 of 12 cost 48.
    assert_eq!(narrow_width(30), 16);
}
