//! Maps holding floats (`HashMap<K, f64>`, `BTreeMap<K, f64>`) in derived bodies, written
//! as users write them: a PageRank-like iteration over a weighted graph, a sparse dot
//! product, a parameter dictionary, a histogram with a smooth kernel, a time series.
//! Each against central differences of the plain function (and closed forms where there
//! are), in one direction, in batches and at second order.
//!
//! A `HashMap` built in the body with `HashMap::new()` iterates in an order that changes
//! from one map to the next (each gets its own `RandomState`), so the plain function
//! itself sums its values in another order on each call: where a test iterates one and
//! sums, the primal is checked to rounding, and a deterministic hasher
//! (`BuildHasherDefault`) shows the bit-for-bit primal.

// `contains_key` then `insert`: what users write, as much as `entry`.
#![allow(clippy::map_entry)]

mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use fwdad::drivers::{gradient_with, hessian_with};
use fwdad::prelude::*;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

type Fixed = BuildHasherDefault<DefaultHasher>;

/// Like `check_modes!`, with the primal compared to `ptol` (relative) instead of bit for
/// bit: for bodies that sum over a `HashMap` with a random hasher.
macro_rules! check_modes_to {
    ($rule:expr, $plain:expr, $x:expr, $ptol:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let y: f64 = plain(x);
        let g = fd_gradient(&plain, x);
        let h = fd_hessian(&plain, x);
        assert!(
            g.iter().any(|d| *d != 0.0),
            "a test point with a zero gradient"
        );
        let same = |v: f64, what: &str| match $ptol {
            0.0 => assert_eq!(v.to_bits(), y.to_bits(), "{what}: primal"),
            tol => assert_close(v, y, tol, &format!("{what}: primal")),
        };
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp($rule, x, &e);
            same(v, "one direction");
            assert_close(d, g[k], 1e-6, &format!("one direction: d/dx{k}"));
        }
        let (v, gb) = gradient_with::<4>($rule, x);
        same(v, "batch");
        for k in 0..x.len() {
            assert_close(gb[k], g[k], 1e-6, &format!("batch: d/dx{k}"));
        }
        let (v, gh, hh) = hessian_with::<2>($rule, x);
        same(v, "second order");
        for i in 0..x.len() {
            assert_close(gh[i], g[i], 1e-6, &format!("second order: d/dx{i}"));
            for j in 0..x.len() {
                assert_close(
                    hh[(i, j)],
                    h[i][j],
                    1e-4,
                    &format!("second order: d2/dx{i}dx{j}"),
                );
            }
        }
    }};
}

// --- PageRank over a weighted graph -------------------------------------------------

/// Edge weights by (from, to), normalised by each node's out-weight, then damped power
/// iteration; the loss is the rank of node 0 against a target.
#[derive_frule]
fn pagerank_loss(log_w: &[f64], edges: &[(usize, usize)], n: usize) -> f64 {
    let d = 0.85;
    let mut weights: HashMap<(usize, usize), f64, Fixed> = HashMap::default();
    for (e, &(i, j)) in edges.iter().enumerate() {
        weights.insert((i, j), log_w[e].exp());
    }
    let mut out: HashMap<usize, f64, Fixed> = HashMap::default();
    for (&(i, _), &w) in &weights {
        *out.entry(i).or_insert(0.0) += w;
    }
    let mut rank = vec![1.0 / n as f64; n];
    for _ in 0..30 {
        let mut next = vec![(1.0 - d) / n as f64; n];
        for (&(i, j), &w) in &weights {
            next[j] += d * rank[i] * w / out[&i];
        }
        rank = next;
    }
    (rank[0] - 0.3).powi(2) + rank[1]
}

const EDGES: [(usize, usize); 6] = [(0, 1), (1, 2), (2, 0), (0, 2), (2, 1), (1, 0)];

#[test]
fn pagerank_over_a_weighted_graph() {
    let w = [0.1, -0.3, 0.5, 0.2, -0.1, 0.4];
    let rule = bind(pagerank_loss {}, (Wrt, &EDGES[..], 3));
    check_modes_to!(rule, |x: &[f64]| pagerank_loss(x, &EDGES, 3), w, 0.0);
}

// --- Sparse vectors -------------------------------------------------------------------

/// A sparse vector as `HashMap<usize, f64>`, dotted with a dense one.
#[derive_frule]
fn sparse_dot(a: &HashMap<usize, f64>, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (&i, &v) in a {
        s += v * x[i];
    }
    s
}

/// Builds the sparse vector from the inputs, scales it by a key's value, dots it.
#[derive_frule]
fn sparse_energy(x: &[f64]) -> f64 {
    let mut a: HashMap<usize, f64> = HashMap::with_capacity(4);
    a.insert(0, x[1] * x[2]);
    a.insert(2, x[0].sin());
    if !a.contains_key(&1) {
        a.insert(1, 0.5);
    }
    let scale = a[&2];
    for v in a.values_mut() {
        *v *= scale;
    }
    if let Some(v) = a.get_mut(&0) {
        *v += x[3];
    }
    let mut first = 0.0;
    if let Some(v) = a.get(&1) {
        first = *v;
    }
    let removed = a.remove(&1).unwrap_or(0.0);
    sparse_dot(&a, x) + first * removed + a.len() as f64
}

fn sparse_energy_closed(x: &[f64]) -> f64 {
    let s = x[0].sin();
    let a0 = x[1] * x[2] * s + x[3];
    let a2 = s * s;
    a0 * x[0] + a2 * x[2] + (0.5 * s) * (0.5 * s) + 2.0
}

#[test]
fn sparse_dot_product() {
    let x = [0.7, -1.2, 0.4, 2.0];
    assert_close(
        sparse_energy(&x),
        sparse_energy_closed(&x),
        1e-15,
        "closed form",
    );
    check_modes_to!(sparse_energy {}, sparse_energy, x, 1e-15);
}

/// The data map as constant data: differentiated with respect to the dense vector only.
#[test]
fn sparse_dot_with_constant_map() {
    let a: HashMap<usize, f64> = [(0, 2.0), (2, -1.5)].into_iter().collect();
    let x = [0.3, 0.9, 1.1];
    let rule = bind(sparse_dot {}, (&a, Wrt));
    let (v, g) = gradient(rule, &x);
    assert_close(v, sparse_dot(&a, &x), 1e-15, "primal");
    assert_eq!(g, [2.0, 0.0, -1.5]);
}

// --- A parameter dictionary -----------------------------------------------------------

#[derive_frule]
fn linear_model(params: &HashMap<String, f64>, x: f64) -> f64 {
    params["w"] * x + params["b"]
}

/// Squared error of the model with its parameters in a dictionary built from `theta`.
#[derive_frule]
fn dict_loss(theta: &[f64], xs: &[f64], ys: &[f64]) -> f64 {
    let mut params: HashMap<String, f64> = HashMap::new();
    params.insert("w".to_string(), theta[0]);
    params.insert("b".to_string(), theta[1].tanh());
    let mut loss = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let r = linear_model(&params, *x) - y;
        loss += r * r;
    }
    loss
}

#[test]
fn parameter_dictionary() {
    let xs = [0.5, 1.5, -2.0];
    let ys = [1.0, 2.5, -3.0];
    let theta = [0.8, 0.3];
    let rule = bind(dict_loss {}, (Wrt, &xs[..], &ys[..]));
    check_modes_to!(rule, |t: &[f64]| dict_loss(t, &xs, &ys), theta, 0.0);
    // Closed form of the gradient.
    let (w, b) = (theta[0], theta[1].tanh());
    let db = 1.0 - b * b;
    let (gw, gb) = xs.iter().zip(&ys).fold((0.0, 0.0), |(gw, gb), (x, y)| {
        let r = w * x + b - y;
        (gw + 2.0 * r * x, gb + 2.0 * r * db)
    });
    let (_, g) = gradient(rule, &theta);
    assert_close(g[0], gw, 1e-14, "d/dw");
    assert_close(g[1], gb, 1e-14, "d/db");
}

/// The dictionary itself as the differentiated argument: its tangent is a map of the same
/// keys.
#[test]
fn parameter_dictionary_as_active_argument() {
    let params: HashMap<String, f64> = [("w".to_string(), 1.5), ("b".to_string(), -0.5)]
        .into_iter()
        .collect();
    let dparams: HashMap<String, f64> = [("w".to_string(), 1.0), ("b".to_string(), 0.25)]
        .into_iter()
        .collect();
    let d = linear_model_frule(Dual::new(&params, &dparams), Dual::new(2.0, 0.0));
    assert_eq!(d.primal.to_bits(), linear_model(&params, 2.0).to_bits());
    assert_eq!(d.tangent, 1.0 * 2.0 + 0.25);
    // Four directions at once.
    let batch: HashMap<String, Batch<f64, 4>> = [
        ("w".to_string(), Batch([1.0, 0.0, 0.0, 2.0])),
        ("b".to_string(), Batch([0.0, 1.0, 0.0, 3.0])),
    ]
    .into_iter()
    .collect();
    let d = <linear_model as Frule<_, Batch<f64, 4>>>::frule(
        &linear_model {},
        (
            Dual::new(&params, &batch),
            Dual::new(2.0, Batch([0.0, 0.0, 1.0, 0.0])),
        ),
    );
    assert_eq!(d.tangent.0, [2.0, 1.0, 1.5, 7.0]);
}

// --- A histogram with a smooth kernel --------------------------------------------------

/// Each sample spreads a Gaussian bump over its bin and the two beside it; the loss
/// compares the bins with a flat target.
#[derive_frule]
fn histogram_loss(x: &[f64], target: f64) -> f64 {
    let mut hist: BTreeMap<i64, f64> = BTreeMap::new();
    for &xi in x {
        let b = xi.floor() as i64;
        for k in b - 1..=b + 1 {
            let d = xi - (k as f64 + 0.5);
            *hist.entry(k).or_default() += (-d * d).exp();
        }
    }
    let mut loss = 0.0;
    for h in hist.values() {
        loss += (h - target) * (h - target);
    }
    loss / hist.len() as f64
}

#[test]
fn histogram_with_smooth_kernel() {
    let x = [0.2, 0.9, 1.4, 2.7, 1.1];
    let rule = bind(histogram_loss {}, (Wrt, 0.8));
    check_modes_to!(rule, |x: &[f64]| histogram_loss(x, 0.8), x, 0.0);
}

// --- A time series in a `BTreeMap` ----------------------------------------------------

/// Observations by time stamp (unordered input, read back in time order), a roughness
/// penalty over consecutive stamps and a misfit at the stamps that exist.
#[derive_frule]
fn series_roughness(obs: &[f64], stamps: &[i64]) -> f64 {
    let mut ts: BTreeMap<i64, f64> = BTreeMap::new();
    for (t, &o) in stamps.iter().zip(obs) {
        ts.insert(*t, o);
    }
    let mut acc = 0.0;
    let mut prev: Option<(i64, f64)> = None;
    for (&t, &v) in &ts {
        if let Some((pt, pv)) = prev {
            acc += (v - pv) * (v - pv) / (t - pt) as f64;
        }
        prev = Some((t, v));
    }
    let mean: f64 = ts.values().sum::<f64>() / ts.len() as f64;
    acc + mean * mean
}

fn series_closed(obs: &[f64], stamps: &[i64]) -> f64 {
    let mut pairs: Vec<(i64, f64)> = stamps.iter().copied().zip(obs.iter().copied()).collect();
    pairs.sort_by_key(|p| p.0);
    let acc: f64 = pairs
        .windows(2)
        .map(|w| (w[1].1 - w[0].1).powi(2) / (w[1].0 - w[0].0) as f64)
        .sum();
    let mean = pairs.iter().map(|p| p.1).sum::<f64>() / pairs.len() as f64;
    acc + mean * mean
}

#[test]
fn time_series_in_a_btreemap() {
    let stamps = [5, 1, 3, 10];
    let obs = [0.4, 1.0, -0.2, 0.7];
    assert_close(
        series_roughness(&obs, &stamps),
        series_closed(&obs, &stamps),
        1e-15,
        "closed",
    );
    let rule = bind(series_roughness {}, (Wrt, &stamps[..]));
    check_modes_to!(rule, |x: &[f64]| series_roughness(x, &stamps), obs, 0.0);
}

// --- Idioms ------------------------------------------------------------------------------

/// Adds `w` to bin `k` of a histogram passed by `&mut`.
#[derive_frule]
fn add_to_bin(hist: &mut BTreeMap<usize, f64>, k: usize, w: f64) {
    *hist.entry(k).or_insert(0.0) += w;
}

/// Builds and returns a map; its caller reads it back.
#[derive_frule]
fn soft_counts(x: &[f64]) -> BTreeMap<usize, f64> {
    let mut counts = BTreeMap::new();
    for &xi in x {
        add_to_bin(&mut counts, (xi.abs() as usize).min(3), xi * xi);
    }
    counts
}

#[derive_frule]
fn count_idioms(x: &[f64]) -> f64 {
    let counts: BTreeMap<usize, f64> = soft_counts(x);
    let total: f64 = counts.values().sum();
    let biggest = counts.values().cloned().fold(f64::NEG_INFINITY, f64::max);
    let first = counts.get(&0).copied().unwrap_or(0.0);
    let second = *counts.get(&1).unwrap();
    let mut weighted = 0.0;
    for (k, v) in counts.iter() {
        weighted += *k as f64 * v;
    }
    let sparse: f64 = counts.iter().map(|(&k, &v)| v * x[k]).sum();
    let keys: Vec<usize> = counts.keys().copied().collect();
    total + biggest * first + second + weighted + sparse + keys.len() as f64
}

fn count_idioms_closed(x: &[f64]) -> f64 {
    let mut c = [0.0; 4];
    let mut seen = [false; 4];
    for &xi in x {
        let k = (xi.abs() as usize).min(3);
        c[k] += xi * xi;
        seen[k] = true;
    }
    let present: Vec<usize> = (0..4).filter(|&k| seen[k]).collect();
    let total: f64 = present.iter().map(|&k| c[k]).sum();
    let biggest = present
        .iter()
        .map(|&k| c[k])
        .fold(f64::NEG_INFINITY, f64::max);
    let weighted: f64 = present.iter().map(|&k| k as f64 * c[k]).sum();
    let sparse: f64 = present.iter().map(|&k| c[k] * x[k]).sum();
    total + biggest * c[0] + c[1] + weighted + sparse + present.len() as f64
}

#[test]
fn map_idioms_and_returned_maps() {
    let x = [0.3, 1.7, -0.4, 2.2, 1.1];
    assert_close(
        count_idioms(&x),
        count_idioms_closed(&x),
        1e-14,
        "closed form",
    );
    check_modes_to!(count_idioms {}, count_idioms, x, 0.0);
}

// --- Maps in struct fields ---------------------------------------------------------------

/// A bag-of-words scorer: a weight per word, a bias.
#[derive(Differentiable, Clone, Debug)]
struct BagOfWords {
    weights: HashMap<String, f64>,
    bias: f64,
}

#[derive_frule]
impl BagOfWords {
    fn score(&self, words: &[&str]) -> f64 {
        let mut s = self.bias;
        for w in words {
            if let Some(v) = self.weights.get(*w) {
                s += v;
            }
        }
        s.tanh()
    }
}

#[derive_frule]
fn bag_loss(theta: &[f64], docs: &[Vec<&str>], labels: &[f64]) -> f64 {
    let mut weights: HashMap<String, f64> = HashMap::new();
    weights.insert("good".to_string(), theta[0]);
    weights.insert("bad".to_string(), -theta[1]);
    weights.insert("fine".to_string(), theta[0] * theta[1]);
    let model = BagOfWords {
        weights,
        bias: theta[2],
    };
    let mut loss = 0.0;
    for (doc, y) in docs.iter().zip(labels) {
        let r = model.score(doc) - y;
        loss += r * r;
    }
    loss
}

#[test]
fn maps_in_struct_fields() {
    let docs = vec![
        vec!["good", "fine"],
        vec!["bad"],
        vec!["fine", "bad", "good"],
    ];
    let labels = [0.8, -0.5, 0.1];
    let theta = [0.4, 0.7, -0.1];
    let rule = bind(bag_loss {}, (Wrt, &docs[..], &labels[..]));
    check_modes_to!(rule, |t: &[f64]| bag_loss(t, &docs, &labels), theta, 0.0);
}

// --- `test_frule` on maps ----------------------------------------------------------------

/// Moves each value of a time series towards its neighbours' mean (in time order), in
/// place; returns the roughness before the step.
#[derive_frule]
fn relax_series(ts: &mut BTreeMap<i64, f64>, rate: f64) -> f64 {
    let values: Vec<f64> = ts.values().copied().collect();
    let mut rough = 0.0;
    for (k, v) in ts.values_mut().enumerate() {
        if k == 0 || k + 1 == values.len() {
            continue;
        }
        let mean = 0.5 * (values[k - 1] + values[k + 1]);
        rough += (values[k] - mean) * (values[k] - mean);
        *v += rate * (mean - values[k]).sin();
    }
    rough
}

#[test]
fn map_rules_pass_test_frule() {
    use fwdad::testing::{test_frule, test_frule_batched};
    let params: HashMap<String, f64> = [("w".to_string(), 1.5), ("b".to_string(), -0.5)]
        .into_iter()
        .collect();
    test_frule(
        (params.clone(), 0.75),
        |a| linear_model(&a.0, a.1),
        |a, da| linear_model_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    let ts: BTreeMap<i64, f64> = [(0, 0.3), (2, 1.1), (3, -0.4), (7, 0.9)]
        .into_iter()
        .collect();
    test_frule(
        (ts.clone(), 0.2),
        |a| relax_series(&mut a.0, a.1),
        |a, da| relax_series_frule(Dual::new(&mut a.0, &mut da.0), Dual::new(a.1, da.1)),
    );
    test_frule_batched::<3, _, _>(
        (ts, 0.2),
        |a| relax_series(&mut a.0, a.1),
        |a, da| {
            <relax_series as Frule<_, Batch<f64, 3>>>::frule(
                &relax_series {},
                (Dual::new(&mut a.0, &mut da.0), Dual::new(a.1, da.1)),
            )
        },
    );
}

// --- Constructors, untyped maps, ranges ----------------------------------------------------

/// Observations looked up by time step (what `tests/ui` once rejected).
#[derive_frule]
fn misfit(model: &[f64], data: &[(usize, f64)]) -> f64 {
    let mut by_step: HashMap<usize, f64> = HashMap::new();
    for &(step, obs) in data {
        by_step.insert(step, obs);
    }
    let mut sse = 0.0;
    for (step, m) in model.iter().enumerate() {
        if let Some(obs) = by_step.get(&step) {
            sse += (m - obs) * (m - obs);
        }
    }
    sse
}

#[test]
fn observations_by_step() {
    let data = [(0, 1.0), (2, 0.5), (3, -1.0)];
    let model = [0.8, 7.0, 0.1, -0.7];
    let closed: Vec<f64> = model
        .iter()
        .enumerate()
        .map(|(i, m)| {
            data.iter()
                .find(|d| d.0 == i)
                .map_or(0.0, |d| 2.0 * (m - d.1))
        })
        .collect();
    let (v, g) = gradient(bind(misfit {}, (Wrt, &data[..])), &model);
    assert_eq!(v.to_bits(), misfit(&model, &data).to_bits());
    assert_eq!(g[..], closed[..]);
}

/// A map without a written type (`HashMap::new()` tells), one built by `BTreeMap::from`,
/// one collected from a chain, and a range query of a time series.
#[derive_frule]
fn built_maps(x: &[f64]) -> f64 {
    let mut untyped = HashMap::new();
    untyped.insert(7usize, x[0] * x[1]);
    let mut s = 0.0;
    for (k, v) in &untyped {
        s += v * *k as f64;
    }
    let pairs: BTreeMap<usize, f64> = BTreeMap::from([(0, x[0].exp()), (1, x[1] / x[2])]);
    let doubled: HashMap<usize, f64> = x.iter().map(|v| 2.0 * v * v).enumerate().collect();
    let mut series: BTreeMap<i64, f64> = BTreeMap::new();
    for (i, v) in x.iter().enumerate() {
        series.insert(10 * i as i64, v.sin());
    }
    let mut window = 0.0;
    for (t, v) in series.range(5..25) {
        window += v * *t as f64;
    }
    s + pairs[&0] * pairs[&1] + doubled[&2] + window
}

fn built_maps_closed(x: &[f64]) -> f64 {
    7.0 * x[0] * x[1]
        + x[0].exp() * (x[1] / x[2])
        + 2.0 * x[2] * x[2]
        + 10.0 * x[1].sin()
        + 20.0 * x[2].sin()
}

#[test]
fn constructors_untyped_maps_and_ranges() {
    let x = [0.4, -1.3, 0.9];
    assert_close(built_maps(&x), built_maps_closed(&x), 1e-14, "closed form");
    check_modes_to!(built_maps {}, built_maps, x, 0.0);
}

// --- More of what users write --------------------------------------------------------------

/// A softmax over a dictionary of scores, normalised in place, then a weighted sum; the
/// scores updated with `get_mut` or inserted, one removed, the rest consumed by value.
#[derive_frule]
fn dict_softmax(x: &[f64]) -> f64 {
    let mut scores: BTreeMap<String, f64> = BTreeMap::new();
    scores.insert("a".to_string(), x[0]);
    scores.insert("b".to_string(), 2.0 * x[1]);
    for (i, name) in ["a", "c"].iter().enumerate() {
        if let Some(v) = scores.get_mut(*name) {
            *v += x[2];
        } else {
            scores.insert(name.to_string(), x[i] * x[2]);
        }
    }
    let total: f64 = scores.values().map(|v| v.exp()).sum();
    for v in scores.values_mut() {
        *v = v.exp() / total;
    }
    for (_, v) in scores.iter_mut() {
        *v = v.sqrt();
    }
    for (name, v) in &mut scores {
        *v *= 1.0 + 0.25 * name.len() as f64;
    }
    let mut removed = 0.0;
    if let Some(v) = scores.remove("c") {
        removed = v;
    }
    let b = scores.get("b").copied().unwrap_or_default();
    let mut rest = 0.0;
    for (name, v) in scores {
        rest += v * name.len() as f64;
    }
    removed + b + rest
}

fn dict_softmax_closed(x: &[f64]) -> f64 {
    let (a, b, c) = (x[0] + x[2], 2.0 * x[1], x[1] * x[2]);
    let total = a.exp() + b.exp() + c.exp();
    let f = |s: f64| 1.25 * (s.exp() / total).sqrt();
    f(c) + f(b) + f(a) + f(b)
}

#[test]
fn dictionary_softmax_in_place() {
    let x = [0.3, -0.2, 0.8];
    assert_close(
        dict_softmax(&x),
        dict_softmax_closed(&x),
        1e-14,
        "closed form",
    );
    check_modes_to!(dict_softmax {}, dict_softmax, x, 0.0);
}

/// An embedding table: a `Vec` of floats per word, summed over a sentence.
#[derive_frule(inactive(vocab))]
fn embed(table: &[f64], vocab: &HashMap<String, usize>, words: &[&str]) -> f64 {
    let mut emb: HashMap<String, Vec<f64>> = HashMap::new();
    for (w, &row) in vocab {
        emb.insert(w.clone(), table[2 * row..2 * row + 2].to_vec());
    }
    let mut acc = [0.0; 2];
    for w in words {
        let e = &emb[*w];
        acc[0] += e[0];
        acc[1] += e[1] * e[0];
    }
    acc[0] * acc[1]
}

#[test]
fn embedding_table_of_vecs() {
    let vocab: HashMap<String, usize> = [("cat".to_string(), 0), ("dog".to_string(), 1)]
        .into_iter()
        .collect();
    let words = ["cat", "dog", "cat"];
    let table = [0.5, -1.0, 2.0, 0.25];
    let rule = bind(embed {}, (Wrt, Inactive(&vocab), &words[..]));
    check_modes_to!(rule, |t: &[f64]| embed(t, &vocab, &words), table, 0.0);
}

/// `f32` values, and a constant map named `inactive`.
#[derive_frule(inactive(gain))]
fn gains_f32(x: &[f32], gain: &BTreeMap<u8, f32>) -> f32 {
    let mut s = 0.0f32;
    for (i, v) in x.iter().enumerate() {
        s += v * v * gain.get(&(i as u8)).copied().unwrap_or(1.0);
    }
    s
}

#[test]
fn f32_values_and_inactive_maps() {
    let gain: BTreeMap<u8, f32> = [(0, 2.0), (2, 0.5)].into_iter().collect();
    let x = [1.0f32, 2.0, 3.0];
    let d = gains_f32_frule(Dual::new(&x[..], &[1.0f32, 1.0, 1.0][..]), &gain);
    assert_eq!(d.primal.to_bits(), gains_f32(&x, &gain).to_bits());
    assert_eq!(d.tangent, 2.0 * 2.0 * 1.0 + 2.0 * 2.0 + 2.0 * 3.0 * 0.5);
}
