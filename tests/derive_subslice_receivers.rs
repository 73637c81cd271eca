//! Methods called straight on a sub-slice (`x[1..].iter()`, `out[..n].fill(0.0)`), which
//! Rust borrows implicitly, against central differences and written-out derivatives.

use fwdad::drivers::{bind, inplace, Out, Wrt};
use fwdad::prelude::*;

/// A moving-average detrended energy, as a signal-processing user writes it.
#[derive_frule]
fn detrended_energy(x: &[f64]) -> f64 {
    let n = x.len();
    let head: f64 = x[..n / 2].iter().sum::<f64>() / (n / 2) as f64;
    let tail: f64 = x[n / 2..].iter().map(|v| v * v).sum();
    let peak = x[1..n - 1]
        .iter()
        .cloned()
        .fold(f64::NEG_INFINITY, f64::max);
    let pairs: Vec<Vec<f64>> = x[..4].chunks(2).map(|r| r.to_vec()).collect();
    tail - head * head + peak * x[1..].len() as f64 + pairs[1][0] * pairs[0][1]
}

/// Writes through methods of sub-slices of an output buffer.
#[derive_frule]
fn staged(x: &[f64], out: &mut [f64]) {
    out[1..].fill(0.0);
    out[..2].copy_from_slice(&x[..2]);
    for o in out[2..].iter_mut() {
        *o += x[2] * x[3];
    }
    out[3..].swap(0, 1);
    out[4] += x[4].sin();
}

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

fn fd(f: impl Fn(&[f64]) -> f64, x: &[f64], i: usize) -> f64 {
    let h = 1e-6 * (1.0 + x[i].abs());
    let (mut up, mut dn) = (x.to_vec(), x.to_vec());
    up[i] += h;
    dn[i] -= h;
    (f(&up) - f(&dn)) / (2.0 * h)
}

#[test]
fn reads_through_subslice_receivers() {
    let x = [0.3, 1.2, -0.4, 2.0, 0.9, -1.1];
    let (v, g) = gradient(detrended_energy {}, &x);
    assert_eq!(v, detrended_energy(&x));
    for i in 0..x.len() {
        assert_close(g[i], fd(detrended_energy, &x, i), 1e-7, "d/dx");
    }
    // Written out: the peak of x[1..5] is x[3] = 2.0, counted 5 times; the head mean is
    // (x0 + x1 + x2)/3; the tail squares x3..x5; the pair product is x2·x1.
    let head = (x[0] + x[1] + x[2]) / 3.0;
    let want = [
        -2.0 * head / 3.0,
        -2.0 * head / 3.0 + x[2],
        -2.0 * head / 3.0 + x[1],
        2.0 * x[3] + 5.0,
        2.0 * x[4],
        2.0 * x[5],
    ];
    for i in 0..x.len() {
        assert_close(g[i], want[i], 1e-14, "written out");
    }
}

#[test]
fn writes_through_subslice_receivers() {
    let x = [0.3, 1.2, -0.4, 2.0, 0.9];
    let (y, j) = jacobian(inplace(bind(staged {}, (Wrt, Out)), 5), &x);
    let mut plain = [7.0; 5];
    staged(&x, &mut plain);
    assert_eq!(y, plain.to_vec());
    // out = [x0, x1, x2·x3, x2·x3, x2·x3 + sin x4] (the swap exchanges equal entries).
    let mut want = [[0.0; 5]; 5];
    want[0][0] = 1.0;
    want[1][1] = 1.0;
    for r in 2..5 {
        want[r][2] = x[3];
        want[r][3] = x[2];
    }
    want[4][4] = x[4].cos();
    for r in 0..5 {
        for c in 0..5 {
            assert_eq!(j[(r, c)], want[r][c], "({r}, {c})");
        }
    }
}
