//! The `std` idioms users reach for (issue #28, item 3), written as users write them and
//! differentiated unmodified: order statistics through `sort_by`, `chunks_exact` with its
//! `remainder`, `cycle`, `Option` combinators, `try_into` of a window, destructuring
//! assignment, `flat_map`, `skip_while`, `last`, `Vec::extend`. Every derivative is
//! checked against central finite differences of the plain function, in one direction
//! (`jvp`), in a batch (`gradient_with::<4>`) and at second order (`hessian_with::<2>`),
//! and every primal the rule returns is the plain function's, bit for bit.
// The functions are written as users write them (`map_or(true, ..)`, `unwrap_or_else(|| 1.0)`,
// index loops): these are the idioms under test.
#![allow(
    clippy::unnecessary_map_or,
    clippy::unnecessary_lazy_evaluations,
    clippy::needless_range_loop
)]
use fwdad::drivers::{bind, gradient_with, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;
use fwdad::testing::{test_frule, test_frule_batched};

// ---------------------------------------------------------------------------------------
// Order statistics

/// The sample median.
#[derive_frule]
fn median(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// The mean of the middle 80 % of the samples.
#[derive_frule]
fn trimmed_mean(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_unstable_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let k = n / 10;
    let kept = &v[k..n - k];
    kept.iter().sum::<f64>() / kept.len() as f64
}

/// Sorts a buffer in place, largest first, and returns its rank-weighted sum.
#[derive_frule]
fn sort_in_place(x: &mut [f64]) -> f64 {
    x.sort_by(|a, b| b.total_cmp(a));
    x.iter()
        .enumerate()
        .map(|(k, v)| (k as f64 + 1.0) * v)
        .sum()
}

/// Inverse-distance-weighted mean of the features of the `k` nearest samples to `x`
/// (candidates sorted as `(distance, features)` pairs, as a k-NN regressor keeps them).
#[derive_frule]
fn knn_features(x: &[f64], samples: &[f64], k: usize) -> f64 {
    let mut cands: Vec<(f64, Vec<f64>)> = Vec::new();
    for s in samples.chunks(2) {
        let d = ((s[0] - x[0]).powi(2) + (s[1] - x[1]).powi(2)).sqrt();
        cands.push((d, vec![s[0] * x[1], s[1].sin()]));
    }
    cands.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    let mut num = 0.0;
    let mut den = 0.0;
    for (d, f) in &cands[..k] {
        num += (f[0] + f[1]) / d;
        den += 1.0 / d;
    }
    num / den
}

/// A 3×3 rotation about z times a stretch, built with nested `std::array::from_fn`, as
/// const-generic matrix code does; then the Frobenius norm of the product with `x`'s
/// matrix.
#[derive_frule]
fn rotated_frobenius(x: &[f64]) -> f64 {
    let (s, c) = x[0].sin_cos();
    let r = [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]];
    let m: [[f64; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| x[1 + 3 * i + j]));
    let p: [[f64; 3]; 3] =
        std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| r[i][k] * m[k][j]).sum()));
    p.iter().flatten().map(|v| v * v).sum::<f64>().sqrt()
}

/// Softmax of a fixed-size array, the exponentials gathered with `core::array::from_fn`.
#[derive_frule]
fn softmax<const N: usize>(z: &[f64; N]) -> [f64; N] {
    let m = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let e: [f64; N] = core::array::from_fn(|i| (z[i] - m).exp());
    let total: f64 = e.iter().sum();
    core::array::from_fn(|i| e[i] / total)
}

#[derive_frule]
fn softmax_entropy(x: &[f64]) -> f64 {
    let p = softmax(&[x[0], x[1], x[2], x[3]]);
    -p.iter().map(|q| q * q.ln()).sum::<f64>()
}

/// The `i`-th coefficient of an 8-point Hann window.
#[derive_frule]
fn hann8(i: usize) -> f64 {
    0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / 7.0).cos()
}

/// The energy of a Hann-windowed frame, the window tabulated by passing `hann8` by name.
#[derive_frule]
fn windowed_energy(x: &[f64]) -> f64 {
    let w: [f64; 8] = std::array::from_fn(hann8);
    x.iter().zip(w).map(|(v, wk)| (v * wk).powi(2)).sum()
}

/// A two-layer model unpacked from a flat parameter vector by a `take` closure that
/// advances an offset, called inside `map` (the way ML code without a framework reads its
/// weights); each layer's weights are a `Vec` of rows.
#[derive_frule]
fn unpacked_model(params: &[f64]) -> f64 {
    let mut off = 0;
    let mut take = |n: usize| {
        let s = params[off..off + n].to_vec();
        off += n;
        s
    };
    let w1: Vec<Vec<f64>> = (0..2).map(|_| take(3)).collect();
    let b1 = take(2);
    let w2 = take(2);
    let x = [0.5, -1.0, 2.0];
    let h: Vec<f64> = w1
        .iter()
        .zip(&b1)
        .map(|(row, b)| (row.iter().zip(&x).map(|(w, v)| w * v).sum::<f64>() + b).tanh())
        .collect();
    h.iter().zip(&w2).map(|(a, w)| a * w).sum()
}

/// Reads samples with a cursor closure until one exceeds a threshold: the closure's
/// state advances in the `while` condition.
#[derive_frule]
fn sum_before_threshold(x: &[f64]) -> f64 {
    let mut cursor = 0;
    let mut next = || {
        let v = x[cursor];
        cursor += 1;
        v
    };
    let mut total = 0.0;
    let mut v = next();
    while v < 1.5 {
        total += v * v;
        v = next();
    }
    let mut seen = 0;
    while next() < 2.5 {
        seen += 1;
    }
    total + seen as f64 * v
}

/// Polynomial features of one sample.
#[derive_frule]
fn poly_features(x: f64) -> Vec<f64> {
    vec![x, x * x, x * x * x]
}

/// A feature vector assembled with `extend` from a call's `Vec`, a borrowed `Vec`, an
/// array and a sub-slice, then a weighted sum (a hand-rolled feature pipeline).
#[derive_frule]
fn feature_score(x: &[f64]) -> f64 {
    let mut feats = Vec::new();
    feats.extend(poly_features(x[0]));
    let trig = vec![x[1].sin(), x[1].cos()];
    feats.extend(&trig);
    feats.extend([x[0] * x[1], 1.0]);
    feats.extend(&x[2..4]);
    feats.extend(trig);
    feats
        .iter()
        .enumerate()
        .map(|(k, f)| (k as f64 + 1.0) * f)
        .sum()
}

/// Max-pooling of one channel in windows of two.
#[derive_frule]
fn max_pool2(ch: &[f64]) -> Vec<f64> {
    ch.chunks(2).map(|c| c[0].max(c[1])).collect()
}

/// Pooled features of two channels flattened with `flat_map` over a call's `Vec`, plus a
/// log-sum over the positive inputs through `flat_map` of an `Option`.
#[derive_frule]
#[allow(clippy::useless_vec)] // as users write it
fn pooled_features(x: &[f64]) -> f64 {
    let channels = vec![x.to_vec(), x.iter().map(|v| v * v).collect::<Vec<f64>>()];
    let flat: Vec<f64> = channels.iter().flat_map(|ch| max_pool2(ch)).collect();
    let logs: f64 = x
        .iter()
        .flat_map(|v| if *v > 0.0 { Some(v.ln()) } else { None })
        .sum();
    flat.iter()
        .enumerate()
        .map(|(i, v)| (i + 1) as f64 * v)
        .sum::<f64>()
        + logs
}

/// Products of consecutive pairs, the first of each pair held in an `Option` that
/// `take()` empties (a pairing buffer, as a stream parser keeps it).
#[derive_frule]
fn paired_products(x: &[f64]) -> f64 {
    let mut pending: Option<f64> = None;
    let mut total = 0.0;
    for v in x {
        if let Some(p) = pending.take() {
            total += p * v;
        } else {
            pending = Some(v.sin());
        }
    }
    total + pending.take().unwrap_or(0.0)
}

/// The `q`-quantile, interpolated linearly between order statistics.
#[derive_frule]
fn quantile(x: &[f64], q: f64) -> f64 {
    let mut sorted = x.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let w = pos - lo as f64;
    sorted[lo] * (1.0 - w) + sorted[hi] * w
}

/// The pinball (quantile) loss of predictions `a·tᵢ + b` for level `tau`.
#[derive_frule]
fn pinball_loss(p: &[f64], t: &[f64], y: &[f64], tau: f64) -> f64 {
    let (a, b) = (p[0], p[1]);
    let mut loss = 0.0;
    for (ti, yi) in t.iter().copied().zip(y.iter().copied()) {
        let r = yi - (a * ti + b);
        loss += if r >= 0.0 { tau * r } else { (tau - 1.0) * r };
    }
    loss / t.len() as f64
}

/// Robust scale: the smallest and largest of the squared deviations from the mean.
#[derive_frule]
fn deviation_range(x: &[f64]) -> f64 {
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let lo = x
        .iter()
        .map(|v| (v - mean).powi(2))
        .min_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    let hi = x
        .iter()
        .map(|v| (v - mean).powi(2))
        .max_by(|a, b| a.total_cmp(b))
        .unwrap();
    hi - lo
}

// ---------------------------------------------------------------------------------------
// Chunks, cycles, windows

/// A dot product unrolled by four, with the tail from `remainder()`.
#[derive_frule]
fn dot_unrolled(x: &[f64]) -> f64 {
    let (a, b) = x.split_at(x.len() / 2);
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let tail = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(p, q)| p * q)
        .sum::<f64>();
    let mut acc = [0.0; 4];
    for (p, q) in ca.zip(cb) {
        acc[0] += p[0] * q[0];
        acc[1] += p[1] * q[1];
        acc[2] += p[2] * q[2];
        acc[3] += p[3] * q[3];
    }
    acc[0] + acc[1] + acc[2] + acc[3] + tail
}

/// A piecewise-linear interpolation through the knots `(xs, ys)` at `t`.
#[derive_frule]
fn interpolate(ys: &[f64], t: f64) -> f64 {
    let xs = [0.0, 0.5, 1.5, 2.0, 3.0];
    for i in 0..xs.len() - 1 {
        let [x0, x1]: [f64; 2] = xs[i..i + 2].try_into().unwrap();
        let [y0, y1]: [f64; 2] = ys[i..i + 2].try_into().unwrap();
        if t <= x1 {
            return y0 + (y1 - y0) * (t - x0) / (x1 - x0);
        }
    }
    *ys.last().unwrap()
}

/// A moving-average filter over a ring buffer of three slots, the slot from `cycle()`.
#[derive_frule]
fn ring_filter(x: &[f64]) -> f64 {
    let mut ring = [0.0; 3];
    let mut energy = 0.0;
    for (&v, slot) in x.iter().zip((0..3).cycle()) {
        let avg = (ring[0] + ring[1] + ring[2]) / 3.0;
        ring[slot] = v;
        energy += (v - avg).powi(2);
    }
    energy
}

/// A periodic weighting: the first two samples are weights repeated along the rest.
#[derive_frule]
fn periodic_weighted(x: &[f64]) -> f64 {
    let (w, s) = x.split_at(2);
    s.iter()
        .zip(w.iter().cycle())
        .map(|(v, wi)| wi * v.sin())
        .sum()
}

// ---------------------------------------------------------------------------------------
// Option combinators

/// A sparse polynomial: the coefficients present, `c.get(k)` absent beyond the end.
#[derive_frule]
fn sparse_poly(c: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for k in 0..6 {
        s += c.get(k).map_or(0.0, |a| a * x.powi(k as i32));
    }
    s
}

/// The log of the first positive sample, scaled, or zero.
#[derive_frule]
fn first_positive_log(x: &[f64]) -> f64 {
    let first = x.iter().copied().find(|v| *v > 0.0);
    let scaled = first.map(|v| 2.0 * v);
    scaled
        .and_then(|v| if v > 1.0 { Some(v.ln()) } else { None })
        .unwrap_or(0.0)
}

/// The larger real root of `a t² + b t + c`, if any (a helper returning an `Option`).
#[derive_frule]
fn larger_root(a: f64, b: f64, c: f64) -> Option<f64> {
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    Some((-b + disc.sqrt()) / (2.0 * a))
}

/// Time of flight of a projectile launched upwards: `Option` combinators straight on the
/// helper's result (`and_then` written as users do, where `map` would do).
#[derive_frule]
#[allow(clippy::bind_instead_of_map)]
fn flight_time(p: &[f64]) -> f64 {
    let (v, h) = (p[0], p[1]);
    let up = larger_root(-4.905, v, h).map(|t| t * t).unwrap_or(0.0);
    let down = larger_root(4.905, -v, -h).map_or(1.0, |t| t.sqrt());
    let none = larger_root(1.0, 0.0, v * v + 1.0)
        .and_then(|t| Some(t * v))
        .unwrap_or(h);
    up + down + none
}

/// The small-angle pendulum period, refusing a non-positive length (a helper returning
/// a `Result`).
#[derive_frule]
fn pendulum_period(l: f64, theta0: f64) -> Result<f64, String> {
    if l <= 0.0 {
        return Err(format!("length must be positive, got {l}"));
    }
    let t0 = 2.0 * std::f64::consts::PI * (l / 9.81).sqrt();
    Ok(t0 * (1.0 + theta0 * theta0 / 16.0))
}

/// `Result` methods straight on the helper's result.
#[derive_frule]
fn period_misfit(p: &[f64]) -> f64 {
    let t = pendulum_period(p[0], p[1]).unwrap_or(0.0);
    let u = pendulum_period(p[0] + 1.0, p[1]).expect("positive length");
    let w = pendulum_period(p[0] + 2.0, p[1]).unwrap();
    let bad = pendulum_period(-p[0], p[1]);
    let penalty = if bad.is_err() { p[1] } else { 0.0 };
    let o = pendulum_period(p[0], 0.0).ok().unwrap_or(0.0);
    (t - 2.0).powi(2) + u * w + penalty + o
}

/// The argmax idiom: `max_by` over `enumerate()`, then `Option::map` to the index.
#[derive_frule]
fn at_argmax(x: &[f64]) -> f64 {
    let idx = x
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .map(|(i, _)| i)
        .unwrap();
    x[idx] * x[0]
}

/// A running maximum kept in an `Option`, tested with `map_or`.
#[derive_frule]
fn running_best(x: &[f64]) -> f64 {
    let mut best: Option<f64> = None;
    for &v in x {
        if best.map_or(true, |b| v > b) {
            best = Some(v);
        }
    }
    best.map_or_else(|| 0.0, |b| b * b) + best.unwrap_or_else(|| 1.0)
}

// ---------------------------------------------------------------------------------------
// Destructuring assignment

/// A Fibonacci-style linear recurrence seeded by `x[0]`, `x[1]`, damped by `x[2]`.
#[derive_frule]
fn recurrence(x: &[f64]) -> f64 {
    let (mut a, mut b) = (x[0], x[1]);
    for _ in 0..6 {
        (a, b) = (b, a + x[2] * b);
    }
    let (mut u, mut v) = (a, x[0]);
    for _ in 0..3 {
        [u, v] = [v, u - 0.5 * v];
    }
    let mut p = [a, b];
    [p[0], p[1]] = [p[1], p[0]];
    p[0] * p[1].sin() + u * v
}

// ---------------------------------------------------------------------------------------
// More adaptors

/// A weighted norm over a local array, through `iter().copied()` on arrays.
#[derive_frule]
fn array_norm(x: &[f64]) -> f64 {
    let p = [x[0], 2.0 * x[1], x[2] * x[0]];
    let w = [1.0, 0.5, 0.25];
    p.iter()
        .copied()
        .zip(w.iter().copied())
        .map(|(v, wi)| wi * v * v)
        .sum::<f64>()
        .sqrt()
}

/// The energy of all pairwise differences, by `flat_map` over index ranges.
#[derive_frule]
fn pair_energy(x: &[f64]) -> f64 {
    let n = x.len();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (x[i] - x[j]).powi(2)))
        .sum()
}

/// A row-major matrix flattened by `flat_map` over its rows (references), scaled, and a
/// `for` over the features each sample expands to.
#[derive_frule]
fn flattened(x: &[f64]) -> f64 {
    let frob: f64 = x.chunks(3).flat_map(|r| r.iter()).map(|v| v * v).sum();
    let mut feats = 0.0;
    for f in x.iter().flat_map(|&v| [v.sin(), v.cos() * v]) {
        feats += f;
    }
    frob.sqrt() + feats
}

/// The sum of squares after the leading negative samples (a warm-up), by `skip_while`;
/// and a `for` over the samples after the leading small ones.
#[derive_frule]
fn after_warmup(x: &[f64]) -> f64 {
    let tail: f64 = x.iter().skip_while(|v| **v < 0.0).map(|v| v * v).sum();
    let mut late = 0.0;
    for v in x.iter().copied().skip_while(|v| v.abs() < 1.0) {
        late += v.sin();
    }
    tail + late
}

/// The length of a vector passed as an array, through `iter().copied()`.
#[derive_frule]
fn length3(p: [f64; 3]) -> f64 {
    p.iter().copied().map(|v| v * v).sum::<f64>().sqrt()
}

/// The last sample's cube, and features collected into one `Vec` with `extend`.
#[derive_frule]
fn last_and_extend(x: &[f64]) -> f64 {
    let last = x.iter().copied().last().unwrap();
    let mut f = Vec::with_capacity(2 * x.len());
    f.extend(x.iter().map(|v| v.sin()));
    f.extend(x.iter().copied());
    let w = [0.5, -1.0];
    let mut s = 0.0;
    for (k, a) in f.iter().enumerate() {
        s += w[k % 2] * a;
    }
    s + last.powi(3)
}

/// Softplus features written through `iter_mut` by a chain of `map`s (the first passing
/// on a tuple that holds the `&mut` element), driven by `count()`, as
/// argmin_testfunctions' `levy_derivative_const` writes its gradient.
#[derive_frule]
fn softplus_features(x: &[f64]) -> f64 {
    let mut out = vec![0.0; x.len()];
    x.iter()
        .zip(out.iter_mut())
        .enumerate()
        .map(|(i, (v, o))| (i, v, (1.0 + v.exp()).ln(), o))
        .map(|(i, &v, s, o)| *o = if i == 0 { s } else { s * v })
        .count();
    let mut e = 0.0;
    for (k, f) in out.iter().enumerate() {
        e += (k + 1) as f64 * f * f;
    }
    e
}

/// The first `N` cosines of `x` scaled by `a`: `N` appears only in the result, so the
/// caller fixes it (by the type it asks for, or a turbofish).
#[derive_frule]
fn leading_cosines<const N: usize>(x: &[f64], a: f64) -> [f64; N] {
    let mut c = [0.0; N];
    for i in 0..N {
        c[i] = a * x[i].cos();
    }
    c
}

/// Two calls of `leading_cosines`, `N` inferred from the `let` and named by a turbofish.
#[derive_frule]
fn cosine_energy(x: &[f64]) -> f64 {
    let c: [f64; 3] = leading_cosines(x, 2.0);
    let d = leading_cosines::<2>(x, 0.5);
    c[0] * c[1] + c[2] * c[2] + d[0] * d[1]
}

// ---------------------------------------------------------------------------------------
// Checks: central finite differences of the plain function, in the three modes

/// Samples without ties, in no order.
fn samples(n: usize) -> Vec<f64> {
    // Gaps of at least 0.008 for n ≤ 20: wider than every finite-difference step.
    (0..n)
        .map(|i| 1.7 * (2.399 * i as f64 + 0.5).sin())
        .collect()
}

#[test]
fn median_of_odd_and_even_counts() {
    check_modes!(median {}, median, samples(7));
    check_modes!(median {}, median, samples(8));
}

#[test]
fn median_of_sorted_and_reversed_samples_is_the_middle() {
    // Independent of the sort: the median's gradient is the indicator of the middle.
    let x = [5.0, 4.0, 3.0, 2.0, 1.0];
    let (m, g) = gradient_with::<4>(median {}, &x);
    assert_eq!(m, 3.0);
    assert_eq!(g, [0.0, 0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn trimmed_mean_of_twenty() {
    check_modes!(trimmed_mean {}, trimmed_mean, samples(20));
    // The two extremes at either end carry no weight, the sixteen others 1/16 each.
    let x = samples(20);
    let (_, g) = gradient_with::<4>(trimmed_mean {}, &x);
    let mut order: Vec<usize> = (0..20).collect();
    order.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
    for (rank, &i) in order.iter().enumerate() {
        let want = if (2..18).contains(&rank) {
            1.0 / 16.0
        } else {
            0.0
        };
        assert_eq!(g[i], want, "rank {rank}");
    }
}

#[test]
fn sorting_a_mutable_buffer_moves_tangents_with_values() {
    // test_frule compares the buffer after the call bit for bit and its propagated
    // tangents, with the result's, against finite differences.
    let x = samples(9);
    test_frule(
        (x.clone(),),
        |a| sort_in_place(&mut a.0),
        |a, da| sort_in_place_frule(Dual::new(&mut a.0[..], &mut da.0[..])),
    );
    test_frule_batched::<4, _, _>(
        (x,),
        |a| sort_in_place(&mut a.0),
        |a, da| {
            <sort_in_place as Frule<_, Batch<f64, 4>>>::frule(
                &sort_in_place {},
                (Dual::new(&mut a.0[..], &mut da.0[..]),),
            )
        },
    );
}

#[test]
fn sorting_pairs_that_hold_vectors() {
    // The elements are `(f64, Vec<f64>)`: the sort moves them by `clone`, tangents included.
    let samples = [0.3, 0.1, -0.4, 0.8, 1.2, -0.2, 0.05, 0.6, -0.9, -0.3];
    check_modes!(
        bind(knn_features {}, (Wrt, &samples[..], 3)),
        |x: &[f64]| knn_features(x, &samples, 3),
        [0.2, 0.3]
    );
}

#[test]
fn arrays_built_by_array_from_fn() {
    let x = [0.4, 1.0, 0.5, -0.2, 0.3, 2.0, 0.1, -1.0, 0.7, 1.5];
    check_modes!(rotated_frobenius {}, rotated_frobenius, x);
    // A rotation keeps the Frobenius norm: d/dθ = 0, d/dm = m / |m|.
    let (n, g) = gradient_with::<4>(rotated_frobenius {}, &x);
    assert_close(g[0], 0.0, 1e-15, "d/dtheta");
    for k in 1..10 {
        assert_close(g[k], x[k] / n, 1e-14, "d/dm");
    }
    check_modes!(softmax_entropy {}, softmax_entropy, [0.3, -1.2, 0.8, 0.1]);
    let frame = samples(8);
    check_modes!(windowed_energy {}, windowed_energy, frame.clone());
    // d/dx_k Σ (x w)² = 2 w_k² x_k.
    let (_, g) = gradient_with::<4>(windowed_energy {}, &frame);
    for (k, gk) in g.iter().enumerate() {
        assert_close(*gk, 2.0 * hann8(k).powi(2) * frame[k], 1e-15, "d/dx");
    }
}

#[test]
fn closures_with_state_called_inside_loops() {
    // Before the fix the offset did not advance inside the `map`: every row was the first.
    let p: Vec<f64> = (0..10).map(|i| 0.3 * (1.3 * i as f64).sin()).collect();
    check_modes!(unpacked_model {}, unpacked_model, p.clone());
    let plain = {
        let x = [0.5, -1.0, 2.0];
        let h0 = (p[0] * x[0] + p[1] * x[1] + p[2] * x[2] + p[6]).tanh();
        let h1 = (p[3] * x[0] + p[4] * x[1] + p[5] * x[2] + p[7]).tanh();
        h0 * p[8] + h1 * p[9]
    };
    assert_eq!(
        unpacked_model_frule(Dual::new(&p[..], &[0.0; 10][..])).primal,
        plain
    );
    let x = [0.3, -0.7, 1.1, 1.9, 0.4, 1.0, 2.2, 3.0, 0.5];
    check_modes!(sum_before_threshold {}, sum_before_threshold, x);
    // total = x0² + x1² + x2², v = x3, then x4, x5, x6 < 2.5 and x7 stops: seen = 3.
    let (v, g) = gradient_with::<4>(sum_before_threshold {}, &x);
    assert_eq!(v, 0.09 + 0.49 + 1.2100000000000002 + 3.0 * 1.9);
    assert_eq!(&g[..4], &[0.6, -1.4, 2.2, 3.0]);
}

#[test]
fn extend_from_collections() {
    let x = [0.7, -0.4, 1.3, 0.2];
    check_modes!(feature_score {}, feature_score, x);
    // Σ k·f_k with f = [a, a², a³, sin b, cos b, ab, 1, c, d, sin b, cos b].
    let (a, b) = (x[0], x[1]);
    let (_, g) = gradient_with::<4>(feature_score {}, &x);
    let da = 1.0 + 2.0 * 2.0 * a + 3.0 * 3.0 * a * a + 6.0 * b;
    let db = (4.0 + 10.0) * b.cos() - (5.0 + 11.0) * b.sin() + 6.0 * a;
    assert_close(g[0], da, 1e-14, "d/da");
    assert_close(g[1], db, 1e-14, "d/db");
    assert_eq!(&g[2..], &[8.0, 9.0]);
}

#[test]
fn flat_map_of_vecs_and_options() {
    let x = [1.0, 3.0, 2.5, -0.5];
    check_modes!(pooled_features {}, pooled_features, x);
    // flat = [x1, x2, x1², x2²] here; logs = ln x0 + ln x1 + ln x2.
    let (v, g) = gradient_with::<4>(pooled_features {}, &x);
    let logs = 1.0f64.ln() + 3.0f64.ln() + 2.5f64.ln();
    assert_eq!(v, 3.0 + 2.0 * 2.5 + 3.0 * 9.0 + 4.0 * 6.25 + logs);
    let expect = [1.0, 1.0 + 3.0 * 6.0 + 1.0 / 3.0, 2.0 + 4.0 * 5.0 + 0.4, 0.0];
    for k in 0..4 {
        assert_close(g[k], expect[k], 1e-14, "d/dx");
    }
}

#[test]
fn option_take_of_a_typed_local() {
    let x = [1.0, 2.0, 3.0, 4.0, 0.5];
    check_modes!(paired_products {}, paired_products, x);
    // sin x0 · x1 + sin x2 · x3 + sin x4.
    let (v, g) = gradient_with::<4>(paired_products {}, &x);
    assert_eq!(v, 1.0f64.sin() * 2.0 + 3.0f64.sin() * 4.0 + 0.5f64.sin());
    let expect = [
        2.0 * 1.0f64.cos(),
        1.0f64.sin(),
        4.0 * 3.0f64.cos(),
        3.0f64.sin(),
        0.5f64.cos(),
    ];
    for k in 0..5 {
        assert_close(g[k], expect[k], 1e-15, "d/dx");
    }
}

#[test]
fn quantile_between_order_statistics() {
    check_modes!(
        bind(quantile {}, (Wrt, 0.37)),
        |x: &[f64]| quantile(x, 0.37),
        samples(11)
    );
}

#[test]
fn pinball_loss_of_a_linear_fit() {
    let t: Vec<f64> = (0..9).map(|i| 0.25 * i as f64).collect();
    let y: Vec<f64> = t
        .iter()
        .map(|ti| 1.5 * ti - 0.3 + 0.4 * (3.0 * ti).sin())
        .collect();
    check_modes!(
        bind(pinball_loss {}, (Wrt, &t[..], &y[..], 0.8)),
        |p: &[f64]| pinball_loss(p, &t, &y, 0.8),
        [1.2, 0.1]
    );
}

#[test]
fn min_by_and_max_by_with_partial_and_total_cmp() {
    check_modes!(deviation_range {}, deviation_range, samples(6));
}

#[test]
fn chunks_exact_dot_with_remainder() {
    // 11 + 11: two chunks of four and a remainder of three on each side.
    let x: Vec<f64> = (0..22).map(|i| (0.3 * i as f64).cos()).collect();
    check_modes!(dot_unrolled {}, dot_unrolled, x);
    // The gradient of a·b is (b, a), written out.
    let (_, g) = gradient_with::<4>(dot_unrolled {}, &x);
    for i in 0..11 {
        assert_eq!(g[i], x[11 + i]);
        assert_eq!(g[11 + i], x[i]);
    }
}

#[test]
fn interpolation_through_try_into_windows() {
    let ys = [0.3, -0.2, 1.1, 0.9, 2.0];
    for t in [0.2, 1.2, 2.7, 3.5] {
        check_modes!(
            bind(interpolate {}, (Wrt, t)),
            |y: &[f64]| interpolate(y, t),
            ys
        );
    }
}

#[test]
fn ring_buffer_filter_with_cycle() {
    check_modes!(ring_filter {}, ring_filter, samples(8));
}

#[test]
fn periodic_weights_with_cycle() {
    check_modes!(periodic_weighted {}, periodic_weighted, samples(7));
    // Independent of the chain: d/dw₀ = Σ sin(s at even positions), d/dw₁ the odd ones.
    let x = samples(7);
    let (_, g) = gradient_with::<4>(periodic_weighted {}, &x);
    let even: f64 = [2, 4, 6].iter().map(|&i| x[i].sin()).sum();
    let odd: f64 = [3, 5].iter().map(|&i| x[i].sin()).sum();
    assert_close(g[0], even, 1e-15, "d/dw0");
    assert_close(g[1], odd, 1e-15, "d/dw1");
}

#[test]
fn sparse_polynomial_with_map_or() {
    // Four coefficients of six powers: `get` is `None` for the last two.
    for x in [0.7, -1.3] {
        check_modes!(
            bind(sparse_poly {}, (Wrt, x)),
            |c: &[f64]| sparse_poly(c, x),
            [0.5, -1.0, 2.0, 0.25]
        );
        let (_, g) = gradient_with::<4>(bind(sparse_poly {}, (Wrt, x)), &[0.5, -1.0, 2.0, 0.25]);
        assert_eq!(g, [1.0, x, x.powi(2), x.powi(3)]);
    }
}

#[test]
fn option_map_and_then_and_find() {
    check_modes!(
        first_positive_log {},
        first_positive_log,
        [-0.5, -0.1, 0.8, 2.0]
    );
    // No positive sample: `None` all the way, a constant.
    let (v, g) = gradient_with::<4>(first_positive_log {}, &[-0.5, -0.1]);
    assert_eq!((v, g), (0.0, vec![0.0, 0.0]));
}

#[test]
fn option_combinators_on_a_helpers_result() {
    check_modes!(flight_time {}, flight_time, [3.0, 2.0]);
    // Written out, with s = √(v² + 4·4.905·h): the first root (s − v)/(−9.81) squared, the
    // square root of the second (v + s)/9.81, and h (the third root does not exist).
    let (v, h) = (3.0f64, 2.0f64);
    let s = (v * v + 4.0 * 4.905 * h).sqrt();
    let (ds_dv, ds_dh) = (v / s, 2.0 * 4.905 / s);
    let t_up = (s - v) / -9.81;
    let t_dn = (v + s) / 9.81;
    let (_, g) = gradient_with::<4>(flight_time {}, &[v, h]);
    let want_v = 2.0 * t_up * (ds_dv - 1.0) / -9.81 + 0.5 / t_dn.sqrt() * (1.0 + ds_dv) / 9.81;
    let want_h = 2.0 * t_up * ds_dh / -9.81 + 0.5 / t_dn.sqrt() * ds_dh / 9.81 + 1.0;
    assert_close(g[0], want_v, 1e-12, "d/dv");
    assert_close(g[1], want_h, 1e-12, "d/dh");
}

#[test]
fn result_methods_on_a_helpers_result() {
    check_modes!(period_misfit {}, period_misfit, [1.1, 0.3]);
    // Written out: with c = 2π/√9.81, T(l, θ) = c·√l·(1 + θ²/16).
    let (l, th) = (1.1f64, 0.3f64);
    let c = 2.0 * std::f64::consts::PI / 9.81f64.sqrt();
    let a = 1.0 + th * th / 16.0;
    let t = |l: f64| c * l.sqrt() * a;
    let dt_dl = |l: f64| c * 0.5 / l.sqrt() * a;
    let dt_dth = |l: f64| c * l.sqrt() * th / 8.0;
    let (_, g) = gradient_with::<4>(period_misfit {}, &[l, th]);
    let want_l = 2.0 * (t(l) - 2.0) * dt_dl(l)
        + dt_dl(l + 1.0) * t(l + 2.0)
        + t(l + 1.0) * dt_dl(l + 2.0)
        + c * 0.5 / l.sqrt();
    let want_th = 2.0 * (t(l) - 2.0) * dt_dth(l)
        + dt_dth(l + 1.0) * t(l + 2.0)
        + t(l + 1.0) * dt_dth(l + 2.0)
        + 1.0;
    assert_close(g[0], want_l, 1e-12, "d/dl");
    assert_close(g[1], want_th, 1e-12, "d/dtheta");
}

#[test]
fn argmax_and_running_best_through_option_combinators() {
    check_modes!(at_argmax {}, at_argmax, samples(6));
    check_modes!(running_best {}, running_best, samples(6));
    // Written out: the maximum m gives m² + m.
    let x = samples(6);
    let k = (0..6).max_by(|&i, &j| x[i].total_cmp(&x[j])).unwrap();
    let (_, g) = gradient_with::<4>(running_best {}, &x);
    for i in 0..6 {
        let want = if i == k { 2.0 * x[k] + 1.0 } else { 0.0 };
        assert_eq!(g[i], want);
    }
}

#[test]
fn recurrence_with_destructuring_assignment() {
    check_modes!(recurrence {}, recurrence, [0.3, 0.7, 0.9]);
}

#[test]
fn arrays_through_iter_copied() {
    check_modes!(array_norm {}, array_norm, [0.4, -1.2, 0.8]);
}

#[test]
fn flat_map_over_pairs_rows_and_features() {
    check_modes!(pair_energy {}, pair_energy, samples(5));
    // Written out: ∂/∂xₖ Σ_{i<j} (xᵢ - xⱼ)² = 2 Σ_j (xₖ - xⱼ).
    let x = samples(5);
    let (_, g) = gradient_with::<4>(pair_energy {}, &x);
    for k in 0..5 {
        let want: f64 = (0..5).map(|j| 2.0 * (x[k] - x[j])).sum();
        assert_close(g[k], want, 1e-14, &format!("d/dx{k}"));
    }
    check_modes!(flattened {}, flattened, samples(7));
}

#[test]
fn skip_while_drops_the_warmup() {
    let x = [-0.5, -0.2, 0.3, -0.7, 1.4, 0.2];
    check_modes!(after_warmup {}, after_warmup, x);
    // Written out: Σ v² from index 2 on, Σ sin v from index 4 on.
    let (_, g) = gradient_with::<4>(after_warmup {}, &x);
    let want = [
        0.0,
        0.0,
        2.0 * x[2],
        2.0 * x[3],
        2.0 * x[4] + x[4].cos(),
        2.0 * x[5] + x[5].cos(),
    ];
    assert_eq!(g, want);
    // Everything skipped: a constant zero. Nothing skipped: every sample counts.
    let (v, g) = gradient_with::<4>(after_warmup {}, &[-0.5, -0.2]);
    assert_eq!((v, g), (0.0, vec![0.0, 0.0]));
    check_modes!(after_warmup {}, after_warmup, [1.5, -0.2]);
}

#[test]
fn array_parameter_through_iter_copied() {
    let p = [0.3, -1.2, 2.0];
    let r = length3(p);
    // One direction per axis: ∂|p|/∂pₖ = pₖ / |p|.
    for k in 0..3 {
        let mut dp = [0.0; 3];
        dp[k] = 1.0;
        let out = length3_frule(Dual::new(p, dp));
        assert_eq!(out.primal.to_bits(), r.to_bits());
        assert_close(out.tangent, p[k] / r, 1e-15, "one direction");
    }
    // A batch of the three axes in one pass.
    let mut seeds = [Batch([0.0; 3]); 3];
    for (k, s) in seeds.iter_mut().enumerate() {
        s.0[k] = 1.0;
    }
    let out = <length3 as Frule<_, Batch<f64, 3>>>::frule(&length3 {}, (Dual::new(p, seeds),));
    assert_eq!(out.primal.to_bits(), r.to_bits());
    for k in 0..3 {
        assert_close(out.tangent.0[k], p[k] / r, 1e-15, "batch");
    }
    // Second order: uᵀ∇²|p| v = (u·v - (u·p)(v·p)/|p|²) / |p| for u = e₀, v = e₁ and e₀.
    for (j, want) in [
        (1, -p[0] * p[1] / (r * r * r)),
        (0, (1.0 - p[0] * p[0] / (r * r)) / r),
    ] {
        let seed = |k: usize| fwdad::Hyper {
            d1: if k == 0 { 1.0 } else { 0.0 },
            d2: if k == j { 1.0 } else { 0.0 },
            d12: 0.0,
        };
        let out = <length3 as Frule<_, fwdad::Hyper<f64, f64>>>::frule(
            &length3 {},
            (Dual::new(p, [seed(0), seed(1), seed(2)]),),
        );
        assert_eq!(out.primal.to_bits(), r.to_bits());
        assert_close(out.tangent.d12, want, 1e-14, "second order");
    }
}

#[test]
fn last_and_extend_from_chains() {
    check_modes!(last_and_extend {}, last_and_extend, [0.4, -1.2, 0.8, 1.5]);
}

#[test]
fn writes_through_a_mut_element_passed_on_by_map() {
    check_modes!(
        softplus_features {},
        softplus_features,
        [0.4, -1.2, 0.8, 1.5]
    );
}

#[test]
fn const_parameter_only_in_the_result() {
    check_modes!(cosine_energy {}, cosine_energy, [0.4, -1.2, 0.8, 1.5]);
    // Called from outside a rule, `N` named as in the plain call.
    let x = [0.3, 1.1, -0.7];
    let (p, t) = (&x[..], &[1.0, 0.0, 0.0][..]);
    let out = leading_cosines_frule::<3>(Dual::new(p, t), Dual::new(2.0, 0.0));
    assert_eq!(out.primal, leading_cosines::<3>(&x, 2.0));
    assert_close(out.tangent[0], -2.0 * x[0].sin(), 1e-15, "d c0 / d x0");
    assert_eq!(&out.tangent[1..], &[0.0, 0.0]);
}

/// Log-sum-exp over terms gathered in a `Vec` first and consumed by `for l in logs`, as
/// puruspe's Gauss–Legendre incomplete gamma does.
#[derive_frule]
fn log_sum_exp_owned(z: &[f64]) -> f64 {
    let mut logs = Vec::with_capacity(z.len());
    for &zi in z {
        logs.push(zi);
    }
    let m = logs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut s = 0.0;
    for l in logs {
        s += (l - m).exp();
    }
    m + s.ln()
}

#[test]
fn for_loop_consuming_an_owned_vec() {
    // ∂/∂z_i log Σ e^(z_j) = softmax_i.
    let z = [0.3, -1.2, 2.0, 0.7];
    let (v, g) = gradient(log_sum_exp_owned {}, &z);
    assert_eq!(v, log_sum_exp_owned(&z));
    let total: f64 = z.iter().map(|zi| zi.exp()).sum();
    for (i, gi) in g.iter().enumerate() {
        assert_close(*gi, z[i].exp() / total, 1e-14, "softmax");
    }
    check_modes!(log_sum_exp_owned {}, |x: &[f64]| log_sum_exp_owned(x), z);
}

/// A Poisson-type log-likelihood over the positive observations (`filter_map`), up to
/// the first sentinel (`map_while`), as a statistician writes it.
#[derive_frule]
fn positive_loglik(x: &[f64]) -> f64 {
    let mu = x[0];
    x[1..]
        .iter()
        .map_while(|&v| if v < 100.0 { Some(v * mu) } else { None })
        .filter_map(|v| if v > 0.0 { Some(v.ln() - v) } else { None })
        .sum()
}

#[test]
fn filter_map_and_map_while() {
    // Σ over kept v of ln(v μ) − v μ, for the items before the sentinel 100 that are
    // positive: d/dμ = Σ (1/μ − v), d/dv = 1/v − μ for each kept v, 0 otherwise.
    let x = [1.3, 0.4, -2.0, 1.7, -0.3, 2.2, 150.0, 0.9];
    let mu = x[0];
    let kept = [1usize, 3, 5];
    let (y, g) = gradient(positive_loglik {}, &x);
    assert_eq!(y.to_bits(), positive_loglik(&x).to_bits());
    let want_mu: f64 = kept.iter().map(|&i| 1.0 / mu - x[i]).sum();
    assert_close(g[0], want_mu, 1e-14, "d/dmu");
    for i in 1..x.len() {
        let want = if kept.contains(&i) {
            1.0 / x[i] - mu
        } else {
            0.0
        };
        assert_close(g[i], want, 1e-14, &format!("d/dx{i}"));
    }
    check_modes!(positive_loglik {}, |x: &[f64]| positive_loglik(x), x);
}

/// Sum of squares over a ragged matrix by `flatten`, and the argmax-weighted peak by
/// `enumerate().max_by(..)` on pairs, as users write them.
#[allow(clippy::useless_vec)] // a ragged matrix, as users build one
#[derive_frule]
fn ragged_energy(x: &[f64]) -> f64 {
    let m = vec![x[..2].to_vec(), x[2..].to_vec()];
    let e: f64 = m.iter().flatten().map(|v| v * v).sum();
    let (i, v) = x
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .unwrap();
    e + *v * (i + 1) as f64
}

/// Two statistics gathered at once by `unzip`.
#[derive_frule]
fn unzipped(x: &[f64]) -> f64 {
    let (s, c): (Vec<f64>, Vec<f64>) = x.iter().map(|v| (v.sin(), v.cos())).unzip();
    s.iter().sum::<f64>() * c.iter().sum::<f64>()
}

#[test]
fn flatten_pairs_and_unzip() {
    let x = [0.4, -1.1, 2.3, 0.9, 1.5];
    // Σ x² + 3·x[2] (the maximum, at index 2): 2x + 3 e₂.
    let (y, g) = gradient(ragged_energy {}, &x);
    assert_eq!(y.to_bits(), ragged_energy(&x).to_bits());
    for i in 0..x.len() {
        let want = 2.0 * x[i] + if i == 2 { 3.0 } else { 0.0 };
        assert_close(g[i], want, 1e-14, &format!("ragged d/dx{i}"));
    }
    check_modes!(ragged_energy {}, |x: &[f64]| ragged_energy(x), x);
    // (Σ sin)(Σ cos): cos xᵢ Σ cos − sin xᵢ Σ sin.
    let (ss, sc): (f64, f64) = (
        x.iter().map(|v| v.sin()).sum(),
        x.iter().map(|v| v.cos()).sum(),
    );
    let (_, g) = gradient(unzipped {}, &x);
    for i in 0..x.len() {
        assert_close(g[i], x[i].cos() * sc - x[i].sin() * ss, 1e-14, "unzip");
    }
    check_modes!(unzipped {}, |x: &[f64]| unzipped(x), x);
}
