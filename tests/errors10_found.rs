//! What the thirteenth session's error audit found compiling that used to be rejected,
//! as users write it, against closed forms and central differences.
//!
//! - `let mut temp;` of an `f32` assigned on one path only (special 0.11.4's `inc_beta`
//!   in the `impl` its `macro_rules!` writes for `f32`): the runtime had the value of the
//!   path that does not assign it for `f64` duals only.
//! - `entry(k).or_default()` on a map of running sums kept in a tuple (`(f64, f64)`, a
//!   count beside a sum `(usize, f64)`, an array): the runtime had the default of floats
//!   and `Vec`s only.

// Loops over a map's pairs, as users write them.
#![allow(clippy::for_kv_map)]

use fwdad::prelude::*;
use std::collections::BTreeMap;

#[derive_frule]
fn ordered_gap(mut p: f32, mut q: f32) -> f32 {
    let mut temp;
    if p > q {
        temp = q;
        q = p;
        p = temp;
    }
    temp = q - p;
    temp * p
}

/// The same, plain, in `f64`, for the finite differences.
fn ordered_gap_64(mut p: f64, mut q: f64) -> f64 {
    let mut temp;
    if p > q {
        temp = q;
        q = p;
        p = temp;
    }
    temp = q - p;
    temp * p
}

/// A swap through an `f32` temporary declared ahead of a loop, as Numerical Recipes'
/// `gaussj` and `sort` write it.
#[derive_frule]
fn sorted_weighted(x: &[f32]) -> f32 {
    let mut v = x.to_vec();
    let n = v.len();
    let mut t;
    for i in 0..n {
        for j in 0..n - 1 - i {
            if v[j] > v[j + 1] {
                t = v[j];
                v[j] = v[j + 1];
                v[j + 1] = t;
            }
        }
    }
    let mut s = 0.0;
    for (k, a) in v.iter().enumerate() {
        s += (k as f32 + 1.0) * a;
    }
    s
}

fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6;
    (f(x + h) - f(x - h)) / (2.0 * h)
}

#[test]
fn f32_local_declared_without_a_value() {
    for &(p, q) in &[(0.75f32, 2.5f32), (3.0, 1.25), (-0.5, 0.25), (2.0, -1.5)] {
        let dp = ordered_gap_frule(Dual::new(p, 1.0f32), Dual::new(q, 0.0f32));
        let dq = ordered_gap_frule(Dual::new(p, 0.0f32), Dual::new(q, 1.0f32));
        assert_eq!(dp.primal.to_bits(), ordered_gap(p, q).to_bits());
        assert_eq!(dq.primal.to_bits(), ordered_gap(p, q).to_bits());
        // Closed form: (max - min) * min.
        let (lo, hi) = if p > q { (q, p) } else { (p, q) };
        let (d_lo, d_hi) = (hi - 2.0 * lo, lo);
        let (want_p, want_q) = if p > q { (d_hi, d_lo) } else { (d_lo, d_hi) };
        assert!((dp.tangent - want_p).abs() <= 1e-6 * (1.0 + want_p.abs()));
        assert!((dq.tangent - want_q).abs() <= 1e-6 * (1.0 + want_q.abs()));
        let (p64, q64) = (p as f64, q as f64);
        let fd_p = central(|t| ordered_gap_64(t, q64), p64);
        let fd_q = central(|t| ordered_gap_64(p64, t), q64);
        assert!(
            (dp.tangent as f64 - fd_p).abs() < 1e-4,
            "{p} {q}: {} vs {fd_p}",
            dp.tangent
        );
        assert!(
            (dq.tangent as f64 - fd_q).abs() < 1e-4,
            "{p} {q}: {} vs {fd_q}",
            dq.tangent
        );
        // The f32 driver.
        let (y, d) = derivative_f32(bind(ordered_gap {}, (Wrt, q)), p);
        assert_eq!(y.to_bits(), ordered_gap(p, q).to_bits());
        assert_eq!(d, dp.tangent);
    }
}

#[test]
fn f32_swap_temporary_declared_ahead_of_a_loop() {
    let x = [0.5f32, -1.25, 2.0, 0.75];
    let (y, g) = gradient_f32(sorted_weighted {}, &x);
    // The plain function, bit for bit.
    assert_eq!(y.to_bits(), sorted_weighted(&x).to_bits());
    // Sorted ascending: -1.25, 0.5, 0.75, 2.0, weighted 1..4; each gradient entry is the
    // weight of its element's rank.
    assert_eq!(g, vec![2.0f32, 1.0, 4.0, 3.0]);
}

/// The variance of the even- and odd-indexed samples, from running sums per class.
#[derive_frule]
fn class_variances(x: &[f64]) -> f64 {
    let mut sums: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for (i, &v) in x.iter().enumerate() {
        let s = sums.entry(i % 2).or_default();
        s.0 += v;
        s.1 += v * v;
    }
    let mut total = 0.0;
    for (_, v) in &sums {
        total += v.1 - v.0 * v.0;
    }
    total
}

/// Mean reading per sensor id, from a count and a sum per id.
#[derive_frule]
fn mean_of_means(ids: &[u32], r: &[f64]) -> f64 {
    let mut acc: BTreeMap<u32, (usize, f64)> = BTreeMap::new();
    for (id, v) in ids.iter().zip(r) {
        let e = acc.entry(*id).or_default();
        e.0 += 1;
        e.1 += v;
    }
    let mut m = 0.0;
    for (_, (n, s)) in acc.iter() {
        m += s / *n as f64;
    }
    m
}

/// A centroid per cluster label.
#[derive_frule]
fn centroid_spread(labels: &[usize], p: &[f64]) -> f64 {
    let mut c: BTreeMap<usize, [f64; 2]> = BTreeMap::new();
    for (k, &l) in labels.iter().enumerate() {
        let e = c.entry(l).or_default();
        e[0] += p[2 * k];
        e[1] += p[2 * k + 1];
    }
    c[&0][0] * c[&1][1] - c[&0][1] * c[&1][0]
}

fn fd_gradient(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-6 * (1.0 + x[i].abs());
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[i] += h;
            b[i] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

fn assert_close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-6 * (1.0 + w.abs()),
            "{got:?} vs {want:?}"
        );
    }
}

#[test]
fn or_default_of_a_pair_of_running_sums() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5];
    let (y, g) = gradient(class_variances {}, &x);
    assert_eq!(y.to_bits(), class_variances(&x).to_bits());
    // Closed form: d/dx_i (s2 - s^2) of its class = 2 x_i - 2 s.
    let (even, odd): (f64, f64) = (0.5 + 2.0 + 1.5, -1.0 + 0.25);
    let want: Vec<f64> = (x.iter().enumerate())
        .map(|(i, v)| 2.0 * v - 2.0 * if i % 2 == 0 { even } else { odd })
        .collect();
    assert_close(&g, &want);
    assert_close(&g, &fd_gradient(class_variances, &x));
}

#[test]
fn or_default_of_a_count_and_a_sum() {
    let ids = [3u32, 7, 3, 3, 7];
    let r = [1.0, 2.0, 4.0, 0.5, -1.0];
    let (y, g) = gradient(bind(mean_of_means {}, (&ids[..], Wrt)), &r);
    assert_eq!(y.to_bits(), mean_of_means(&ids, &r).to_bits());
    // Each reading counts 1/n of its sensor's mean.
    assert_close(&g, &[1.0 / 3.0, 0.5, 1.0 / 3.0, 1.0 / 3.0, 0.5]);
}

#[test]
fn or_default_of_an_array() {
    let labels = [0usize, 1, 0, 1];
    let p = [1.0, 2.0, 0.5, -1.0, 3.0, 0.25, -2.0, 1.5];
    let (y, g) = gradient(bind(centroid_spread {}, (&labels[..], Wrt)), &p);
    assert_eq!(y.to_bits(), centroid_spread(&labels, &p).to_bits());
    let f = |q: &[f64]| centroid_spread(&labels, q);
    assert_close(&g, &fd_gradient(f, &p));
}
