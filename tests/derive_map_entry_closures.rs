//! The entry API's closures on maps, as users write them: a memo table filled with
//! `or_insert_with(|| ..)`, a tally updated with `and_modify(|t| ..).or_insert(..)` (also
//! `.or_default()` and `.or_insert_with(..)` after it), and an adjacency list built with
//! `or_insert_with(Vec::new)` beside the floats. Each is checked against central
//! differences in every mode (`check_modes!`, primals bit for bit) and its closed form.
// The entry API and index loops as users write them (`or_insert_with(Vec::new)` too).
#![allow(
    clippy::map_entry,
    clippy::needless_range_loop,
    clippy::unwrap_or_default
)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// A cache of `exp` per residue class, each entry computed on its first use only.
#[derive_frule]
fn memo(x: &[f64]) -> f64 {
    let mut cache: HashMap<usize, f64> = HashMap::new();
    for i in 0..x.len() {
        *cache.entry(i % 3).or_insert_with(|| x[i].exp()) += x[i];
    }
    cache[&0]
}

#[test]
fn or_insert_with_runs_its_closure_once() {
    let x = [0.4, -0.3, 1.1, 0.7, 2.0];
    check_modes!(memo {}, memo, x);
    // Closed form: cache[0] = e^{x0} + x0 + x3 (the closure ran at i = 0 only).
    let (v, g) = gradient(memo {}, &x);
    assert_eq!(v.to_bits(), memo(&x).to_bits());
    assert_close(v, x[0].exp() + x[0] + x[3], 1e-15, "value");
    assert_close(g[0], x[0].exp() + 1.0, 1e-12, "d/dx0");
    assert_close(g[3], 1.0, 1e-12, "d/dx3");
    for k in [1, 2, 4] {
        assert_eq!(g[k], 0.0, "d/dx{k}");
    }
}

/// Per-parity totals: the first value inserted, the next ones added by `and_modify`.
#[derive_frule]
fn tally(x: &[f64]) -> f64 {
    let mut totals: HashMap<usize, f64> = HashMap::new();
    for i in 0..x.len() {
        totals
            .entry(i % 2)
            .and_modify(|t| *t += x[i])
            .or_insert(x[i]);
    }
    totals[&1] * totals[&0]
}

#[test]
fn and_modify_then_or_insert() {
    let x = [0.4, -0.3, 1.1, 0.7, 2.0];
    check_modes!(tally {}, tally, x);
    let (_, g) = gradient(tally {}, &x);
    let (even, odd) = (x[0] + x[2] + x[4], x[1] + x[3]);
    for k in 0..5 {
        let want = if k % 2 == 0 { odd } else { even };
        assert_close(g[k], want, 1e-12, "d/dx");
    }
}

/// A soft histogram over bins keyed by name: `and_modify` with a typed closure parameter
/// then `or_default()`, and a weight computed on first sight by `or_insert_with`.
#[derive_frule]
fn soft_histogram(x: &[f64]) -> f64 {
    let mut mass: BTreeMap<String, f64> = BTreeMap::new();
    let mut first: BTreeMap<String, f64> = BTreeMap::new();
    for (i, &v) in x.iter().enumerate() {
        let bin = if v < 0.5 {
            "low".to_string()
        } else {
            "high".to_string()
        };
        let w = (-(v - 0.5) * (v - 0.5)).exp();
        mass.entry(bin.clone())
            .and_modify(|m: &mut f64| *m += w)
            .or_default();
        first
            .entry(bin)
            .and_modify(|f| *f *= 1.0 + 0.1 * i as f64)
            .or_insert_with(|| v * v);
    }
    mass.values().sum::<f64>() + first["low"] * first["high"]
}

#[test]
fn and_modify_then_or_default_and_or_insert_with() {
    let x = [0.1, 0.9, 0.3, 1.4];
    check_modes!(soft_histogram {}, soft_histogram, x);
    // Closed form: `or_default` inserts 0 without the weight, so `mass` holds the weights
    // of all but the first value in each bin; `first` holds the first value squared in
    // each bin, scaled by (1 + 0.1 i) for each later value.
    let w = |v: f64| (-(v - 0.5) * (v - 0.5)).exp();
    let dw = |v: f64| -2.0 * (v - 0.5) * w(v);
    let (v, g) = gradient(soft_histogram {}, &x);
    assert_eq!(v.to_bits(), soft_histogram(&x).to_bits());
    let (low, high) = (x[0] * x[0] * 1.2, x[1] * x[1] * 1.3);
    assert_close(v, w(x[2]) + w(x[3]) + low * high, 1e-14, "value");
    assert_close(g[0], 2.0 * x[0] * 1.2 * high, 1e-12, "d/dx0");
    assert_close(g[1], low * 2.0 * x[1] * 1.3, 1e-12, "d/dx1");
    assert_close(g[2], dw(x[2]), 1e-12, "d/dx2");
    assert_close(g[3], dw(x[3]), 1e-12, "d/dx3");
}

/// A graph Laplacian energy whose neighbour lists are built with
/// `or_insert_with(Vec::new)`, as graph code writes them.
#[derive_frule]
fn laplacian_energy(x: &[f64]) -> f64 {
    let edges = [(0, 1), (1, 2), (0, 2), (2, 3)];
    let mut neighbours: HashMap<usize, Vec<usize>> = HashMap::new();
    for &(a, b) in &edges {
        neighbours.entry(a).or_insert_with(Vec::new).push(b);
        neighbours.entry(b).or_insert_with(Vec::new).push(a);
    }
    let mut e = 0.0;
    for i in 0..x.len() {
        for &j in &neighbours[&i] {
            e += 0.25 * (x[i] - x[j]).powi(2);
        }
    }
    e
}

#[test]
fn adjacency_list_beside_floats() {
    let x = [0.2, 1.0, -0.5, 0.8];
    check_modes!(laplacian_energy {}, laplacian_energy, x);
    // Each edge counted from both ends: e = ½ Σ_edges (xa - xb)², ∂/∂xi = Σ_j (xi - xj).
    let (_, g) = gradient(laplacian_energy {}, &x);
    let want = [
        (x[0] - x[1]) + (x[0] - x[2]),
        (x[1] - x[0]) + (x[1] - x[2]),
        (x[2] - x[1]) + (x[2] - x[0]) + (x[2] - x[3]),
        x[3] - x[2],
    ];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-12, "d/dx");
    }
}
