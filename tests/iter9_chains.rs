//! Iterator chains as statistics, signal-processing and ML code writes them (twelfth
//! session): a `filter` after `copied()`/`cloned()`; `take`, `enumerate` and `rev` after a
//! `filter` (or `filter_map`, `map` after a `filter`), in any order with `skip` and
//! `step_by`, before `map`, `sum`, `fold`, `collect` and the searches; `find_map`,
//! `filter_map` with a differentiated result, `max_by`/`min_by` with `total_cmp` and
//! `partial_cmp().unwrap()`, `position` then indexing, `last` and `nth` of a chain. Each
//! function is annotated as written and checked in one direction, in batches of 1 to 16
//! lanes and at second order against central differences (`check_widths!`), primals bit
//! for bit against the plain function; a few also against closed forms written out.
#![allow(
    clippy::needless_range_loop,
    clippy::iter_skip_next,
    clippy::iter_nth_zero,
    clippy::unnecessary_filter_map,
    clippy::filter_map_identity,
    clippy::manual_find_map,
    clippy::manual_filter_map,
    clippy::double_ended_iterator_last,
    clippy::filter_map_bool_then
)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// 1. `filter` after `copied()` / `cloned()`.

/// The energy of a ReLU layer's active units: the squares of the positive
/// pre-activations.
#[derive_frule]
fn relu_energy(z: &[f64]) -> f64 {
    z.iter()
        .copied()
        .filter(|v| *v > 0.0)
        .map(|v| v * v)
        .sum::<f64>()
}

/// A hinge loss over margins: only those under one count.
#[derive_frule]
fn hinge_loss(margins: &[f64]) -> f64 {
    margins
        .iter()
        .cloned()
        .filter(|m| *m < 1.0)
        .map(|m| 1.0 - m)
        .sum::<f64>()
}

/// The mean log of the finite, positive readings of a sensor.
#[derive_frule]
fn mean_log_valid(x: &[f64]) -> f64 {
    let logs: Vec<f64> = x
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(f64::ln)
        .collect();
    logs.iter().sum::<f64>() / logs.len() as f64
}

// ---------------------------------------------------------------------------------------
// 2. Counted adaptors after an element-wise stage.

/// The log of the second and third positive samples (the first is a warm-up).
#[derive_frule]
fn after_warmup(x: &[f64]) -> f64 {
    x.iter()
        .filter(|v| **v > 0.0)
        .skip(1)
        .take(2)
        .map(|v| v.ln())
        .sum::<f64>()
}

/// The product of the first three samples above a threshold.
#[derive_frule]
fn first_three_above(x: &[f64]) -> f64 {
    let t = 0.1;
    x.iter().filter(|v| **v > t).take(3).fold(1.0, |a, v| a * v)
}

/// A discounted return over the valid rewards, from the first one: `Σ γᵗ rₜ`.
#[derive_frule]
fn discounted_return(rewards: &[f64]) -> f64 {
    let gamma: f64 = 0.9;
    rewards
        .iter()
        .filter(|r| r.is_finite())
        .enumerate()
        .map(|(t, r)| gamma.powi(t as i32) * r)
        .sum::<f64>()
}

/// Horner's rule over the positive coefficients, highest first: the chain read back to
/// front after the `filter`.
#[derive_frule]
fn horner_positive(c: &[f64]) -> f64 {
    let x = 0.7;
    c.iter()
        .filter(|v| **v > 0.0)
        .rev()
        .fold(0.0, |acc, v| acc * x + v)
}

/// Every other valid sample, squared (decimation after dropping invalid ones).
#[derive_frule]
fn decimated_power(x: &[f64]) -> f64 {
    x.iter()
        .filter(|v| v.abs() < 10.0)
        .step_by(2)
        .map(|v| v * v)
        .sum::<f64>()
}

/// A weighted moving sum over the last four positive samples, newest weighted most:
/// `rev` after `filter`, then `take` and `enumerate`.
#[derive_frule]
fn recent_weighted(x: &[f64]) -> f64 {
    x.iter()
        .copied()
        .filter(|v| *v > 0.0)
        .rev()
        .take(4)
        .enumerate()
        .map(|(k, v)| v / (k as f64 + 1.0))
        .sum::<f64>()
}

/// `filter_map` of the square roots of the positive samples, then `skip` and `take`.
#[derive_frule]
fn roots_window(x: &[f64]) -> f64 {
    x.iter()
        .filter_map(|v| if *v > 0.0 { Some(v.sqrt()) } else { None })
        .skip(1)
        .take(3)
        .fold(0.0, |a, r| a + r * r * r)
}

/// `take` then `skip` then `enumerate`, in a `for` loop, over a mapped filter.
#[derive_frule]
fn loop_after_stages(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (k, v) in x
        .iter()
        .filter(|v| v.is_finite())
        .map(|v| v.sin())
        .take(4)
        .skip(1)
        .enumerate()
    {
        s += (k + 1) as f64 * v;
    }
    s
}

/// The kept samples collected, after `filter` and `take`.
#[derive_frule]
fn clipped_sum_of_squares(x: &[f64]) -> f64 {
    let kept: Vec<f64> = x.iter().copied().filter(|v| *v > -1.0).take(3).collect();
    kept.iter().map(|v| v * v).sum::<f64>()
}

/// `take(0)` after a `filter`: nothing at all, the sum's `-0.0`.
#[derive_frule]
fn take_none(x: &[f64]) -> f64 {
    x[0] + x.iter().filter(|v| **v > 0.0).take(0).sum::<f64>()
}

/// The first two positive samples, weighted by how many samples were read to find them
/// (`take` pulls no item once it has its two: `std` reads three of `X`).
#[derive_frule]
fn read_count_weighted(x: &[f64]) -> f64 {
    let mut read = 0;
    let s: f64 = x
        .iter()
        .inspect(|_| read += 1)
        .filter(|v| **v > 0.0)
        .take(2)
        .sum();
    s * read as f64
}

/// A geometric tail `r + r² + .. + r⁵` by `successors`, its first term skipped, and the
/// Newton iterates of `√a` from the third on, numbered, and the powers of `r` zipped with
/// the parameters.
#[derive_frule]
fn generated_tails(p: &[f64]) -> f64 {
    let (r, a) = (p[0], p[1]);
    let tail: f64 = std::iter::successors(Some(1.0), |q| Some(q * r))
        .skip(1)
        .take(5)
        .sum();
    let newton: f64 = std::iter::successors(Some(a), |x| Some(0.5 * (x + a / x)))
        .skip(2)
        .take(3)
        .enumerate()
        .map(|(k, x)| (k as f64 + 1.0) * x)
        .sum();
    let weighted: f64 = std::iter::successors(Some(1.0), |q| Some(q * r))
        .zip(p.iter())
        .map(|(q, w)| q * w)
        .sum();
    tail + newton + weighted
}

/// Weights paired with the positive samples, and the negative ones with the weights read
/// back to front (`zip` after `filter`).
#[derive_frule]
fn weighted_by_sign(p: &[f64]) -> f64 {
    let (x, w) = p.split_at(5);
    let mut s = 0.0;
    for (v, wk) in x.iter().filter(|v| **v > 0.0).zip(w) {
        s += wk * v;
    }
    s + x
        .iter()
        .copied()
        .filter(|v| *v < 0.0)
        .zip(w.iter().rev())
        .map(|(a, b)| a * b * b)
        .sum::<f64>()
}

/// A Markov chain's states numbered, the burn-in skipped after `enumerate`: `std` runs the
/// `map`'s closure on the skipped items too, so the state advances ten times.
#[derive_frule]
fn numbered_chain(p: &[f64]) -> f64 {
    let mut state = p[0];
    (0..10)
        .map(|_| {
            state = 0.5 * state + p[1];
            state
        })
        .enumerate()
        .skip(2)
        .map(|(k, v)| k as f64 * v)
        .sum()
}

// ---------------------------------------------------------------------------------------
// 3. Searches and extremes.

/// The log of the first positive sample, or zero.
#[derive_frule]
fn first_positive_log(x: &[f64]) -> f64 {
    x.iter()
        .find_map(|v| if *v > 0.0 { Some(v.ln()) } else { None })
        .unwrap_or(0.0)
}

/// The first sample whose square exceeds one, scaled, after a `map`.
#[derive_frule]
fn first_large_square(x: &[f64]) -> f64 {
    let k = x[0];
    x.iter()
        .map(|v| k * v)
        .find_map(|s| {
            let q = s * s;
            (q > 1.0).then_some(q)
        })
        .unwrap_or(-1.0)
}

/// The sum of the square roots of the positive samples (`filter_map` with a
/// differentiated result).
#[derive_frule]
fn sum_sqrt_positive(x: &[f64]) -> f64 {
    x.iter()
        .filter_map(|v| if *v > 0.0 { Some(v.sqrt()) } else { None })
        .sum::<f64>()
}

/// The largest logit, by `total_cmp`, minus the smallest, by `partial_cmp`.
#[derive_frule]
fn logit_range(z: &[f64]) -> f64 {
    let hi = *z.iter().max_by(|a, b| a.total_cmp(b)).unwrap();
    let lo = z
        .iter()
        .copied()
        .min_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    hi - lo
}

/// The largest of the positive samples, through `copied().filter(..).max_by(..)`.
#[derive_frule]
fn max_positive(x: &[f64]) -> f64 {
    x.iter()
        .copied()
        .filter(|v| *v > 0.0)
        .max_by(|a, b| a.total_cmp(b))
        .unwrap_or(0.0)
}

/// A peak picker: the index of the largest sample, then its neighbours' parabola vertex.
#[derive_frule]
fn parabolic_peak(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let i = x.iter().position(|v| *v == m).unwrap();
    let i = i.clamp(1, x.len() - 2);
    let (a, b, c) = (x[i - 1], x[i], x[i + 1]);
    b - 0.25 * (a - c) * (a - c) / (a - 2.0 * b + c)
}

/// The last positive sample, and the second square.
#[derive_frule]
fn last_and_nth(x: &[f64]) -> f64 {
    let last = *x.iter().filter(|v| **v > 0.0).last().unwrap();
    let second_square = x.iter().map(|v| v * v).nth(1).unwrap();
    let second_positive = *x.iter().filter(|v| **v > 0.0).nth(1).unwrap();
    last * second_square + second_positive
}

/// Twice the largest logit, found by its index (`enumerate().max_by(..)` on the pairs).
#[derive_frule]
fn argmax_logit(z: &[f64]) -> f64 {
    let i = z
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, _)| i)
        .unwrap();
    z[i] * 2.0
}

/// The sample nearest a differentiated target (`min_by` on a key written in the closure).
#[derive_frule]
fn nearest_sample(p: &[f64]) -> f64 {
    let q = p[0];
    p[1..]
        .iter()
        .copied()
        .min_by(|a, b| (a - q).abs().partial_cmp(&(b - q).abs()).unwrap())
        .unwrap()
}

/// The exponential of the last positive sample, found by `rposition`.
#[derive_frule]
fn last_positive_exp(x: &[f64]) -> f64 {
    let k = x.iter().rposition(|v| *v > 0.0).unwrap_or(0);
    x[k].exp()
}

/// The sum of the samples before the first negative one.
#[derive_frule]
fn sum_before_negative(x: &[f64]) -> f64 {
    match x.iter().position(|v| *v < 0.0) {
        Some(k) => x[..k].iter().sum::<f64>(),
        None => 0.0,
    }
}

/// `last` of a `map`, `nth` of a reversed filter, the largest step by `fold`.
#[derive_frule]
fn last_nth_fold(x: &[f64]) -> f64 {
    let a = x.iter().map(|v| v.sin()).last().unwrap_or(0.0);
    let b = *x.iter().rev().filter(|v| **v > 0.0).nth(1).unwrap();
    let c = x
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::NEG_INFINITY, f64::max);
    a * b + c
}

/// The log-likelihood of the first two positive readings (`filter_map` with `then`, then
/// `take`) and the largest finite one.
#[derive_frule]
fn two_logs_and_max(x: &[f64]) -> f64 {
    let l = x
        .iter()
        .filter_map(|v| (*v > 0.0).then(|| v.ln()))
        .take(2)
        .sum::<f64>();
    let m = x
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    l + m
}

/// Pairwise products of the full chunks, and a weighted sum of the positive samples.
#[derive_frule]
fn chunks_and_weights(x: &[f64]) -> f64 {
    let w = [0.5, 1.5, -0.25, 2.0, 1.0, 0.75, -1.0, 0.3, 0.6];
    let pairs = x
        .chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| c[0] * c[1])
        .sum::<f64>();
    let weighted = x
        .iter()
        .zip(w.iter())
        .filter(|(a, _)| **a > 0.0)
        .map(|(a, b)| a * b)
        .sum::<f64>();
    pairs + weighted
}

// ---------------------------------------------------------------------------------------
// 5. A function taking an iterator of constant samples (a `sum()` without its type there
//    added the iterator's type parameter's zeros).

/// The energy of a stream of samples through a differentiated gain.
#[derive_frule]
fn stream_energy(gain: f64, samples: impl Iterator<Item = f64>) -> f64 {
    samples.map(|s| (gain * s).powi(2)).sum()
}

/// The mean of a stream, offset by a differentiated bias.
#[derive_frule]
fn biased_mean<I: Iterator<Item = f64>>(bias: f64, it: I) -> f64 {
    let mut n = 0.0;
    let mut s = 0.0;
    for v in it {
        s += v + bias;
        n += 1.0;
    }
    s / n
}

// ---------------------------------------------------------------------------------------

/// Every mode at `x`.
macro_rules! check {
    ($f:ident, $x:expr) => {
        check_widths!(bind($f {}, (Wrt,)), $f, $x)
    };
}

const X: [f64; 9] = [0.8, -0.3, 1.7, 0.4, -1.1, 2.3, 0.6, -0.2, 1.3];

#[test]
fn filter_after_copied_and_cloned() {
    check!(relu_energy, X);
    check!(hinge_loss, X);
    check!(
        mean_log_valid,
        [0.5, f64::NAN, 2.0, -1.0, 3.0, f64::INFINITY, 0.25]
    );
    // The closed forms: ∂/∂zᵢ of Σ max(z, 0)² is 2 zᵢ on the positive ones.
    let (v, g) = fwdad::drivers::gradient(bind(relu_energy {}, (Wrt,)), &X);
    let want: f64 = X.iter().filter(|v| **v > 0.0).map(|v| v * v).sum();
    assert_eq!(v.to_bits(), want.to_bits());
    for (gi, xi) in g.iter().zip(X) {
        assert_eq!(*gi, if xi > 0.0 { 2.0 * xi } else { 0.0 });
    }
    let (_, g) = fwdad::drivers::gradient(bind(hinge_loss {}, (Wrt,)), &X);
    for (gi, xi) in g.iter().zip(X) {
        assert_eq!(*gi, if xi < 1.0 { -1.0 } else { 0.0 });
    }
}

#[test]
fn counted_adaptors_after_filter() {
    check!(after_warmup, X);
    check!(first_three_above, X);
    check!(
        discounted_return,
        [1.0, f64::NAN, 0.5, -0.25, f64::INFINITY, 2.0]
    );
    check!(horner_positive, X);
    check!(
        decimated_power,
        [0.3, 11.0, -0.7, 1.9, -12.0, 0.4, 2.2, 0.9]
    );
    check!(recent_weighted, X);
    check!(roots_window, X);
    check!(
        loop_after_stages,
        [0.5, f64::NAN, -1.2, 0.9, f64::NAN, 2.1, 0.3, 1.1]
    );
    check!(clipped_sum_of_squares, X);
    check!(take_none, X);
    check!(numbered_chain, [0.3, -0.8]);
    check!(read_count_weighted, X);
    check!(generated_tails, [0.6, 2.0]);
    check!(
        weighted_by_sign,
        [0.8, -0.3, 1.7, -1.1, 0.4, 0.5, 1.5, -0.25, 2.0]
    );
    check!(weighted_by_sign, [-0.8, 0.3, 1.7, -1.1, 0.4, 0.5, 1.5]);
    // Closed form at the first point: 0.8·0.5 + 1.7·1.5 + 0.4·(-0.25) + (-0.3)·2² + (-1.1)·(-0.25)².
    let p = [0.8, -0.3, 1.7, -1.1, 0.4, 0.5, 1.5, -0.25, 2.0];
    let (_, g) = fwdad::drivers::gradient(bind(weighted_by_sign {}, (Wrt,)), &p);
    let want = [
        0.5,
        4.0,
        1.5,
        0.0625,
        -0.25,
        0.8,
        1.7,
        0.4 + 2.0 * -1.1 * -0.25,
        2.0 * -0.3 * 2.0,
    ];
    for k in 0..9 {
        assert_close(g[k], want[k], 1e-15, &format!("weighted_by_sign d/dp{k}"));
    }
    let (v, _) = fwdad::drivers::gradient(bind(read_count_weighted {}, (Wrt,)), &X);
    assert_eq!(v, (0.8 + 1.7) * 3.0);
    // Closed forms: after_warmup = ln 1.7 + ln 0.4, first_three_above = 0.8 · 1.7 · 0.4.
    let (_, g) = fwdad::drivers::gradient(bind(after_warmup {}, (Wrt,)), &X);
    let mut want = [0.0; 9];
    want[2] = 1.0 / 1.7;
    want[3] = 1.0 / 0.4;
    for k in 0..9 {
        assert_close(g[k], want[k], 1e-15, &format!("after_warmup d/dx{k}"));
    }
    let (_, g) = fwdad::drivers::gradient(bind(first_three_above {}, (Wrt,)), &X);
    let mut want = [0.0; 9];
    want[0] = 1.7 * 0.4;
    want[2] = 0.8 * 0.4;
    want[3] = 0.8 * 1.7;
    for k in 0..9 {
        assert_close(g[k], want[k], 1e-15, &format!("first_three_above d/dx{k}"));
    }
    // The discounted return's gradient: γᵗ on the t-th finite reward.
    let r = [1.0, f64::NAN, 0.5, -0.25, f64::INFINITY, 2.0];
    let (_, g) = fwdad::drivers::gradient(bind(discounted_return {}, (Wrt,)), &r);
    let want = [1.0, 0.0, 0.9, 0.81, 0.0, 0.729];
    for k in [0, 2, 3, 5] {
        assert_close(g[k], want[k], 1e-15, &format!("discounted_return d/dr{k}"));
    }
    let (v, _) = fwdad::drivers::gradient(bind(take_none {}, (Wrt,)), &X);
    assert_eq!(v.to_bits(), (X[0] + -0.0).to_bits());
}

#[test]
fn searches_and_extremes() {
    check!(first_positive_log, X);
    check!(first_positive_log, [-1.0, -0.5, 0.75, 2.0]);
    check!(first_large_square, [0.9, 0.5, 1.4, -2.0]);
    check!(sum_sqrt_positive, X);
    check!(logit_range, X);
    check!(max_positive, X);
    check!(parabolic_peak, [0.1, 0.9, 2.0, 1.4, 0.3]);
    check!(last_and_nth, X);
    check!(argmax_logit, X);
    check!(nearest_sample, [0.9, 0.1, 1.3, -0.4, 0.75, 2.0]);
    check!(last_positive_exp, X);
    check!(sum_before_negative, X);
    check!(sum_before_negative, [0.5, 1.5, 2.5]);
    check!(last_nth_fold, X);
    check!(two_logs_and_max, [-0.5, 0.8, f64::NAN, 1.9, 3.1, -2.0]);
    check!(chunks_and_weights, X);
    // first_positive_log on all negatives: the constant 0.
    let y: [f64; 3] = [-1.0, -2.0, -3.0];
    let (v, g) = fwdad::drivers::gradient(bind(first_positive_log {}, (Wrt,)), &y);
    assert_eq!((v, g), (0.0, [0.0; 3]));
    // logit_range: ∂/∂z of max - min is e_argmax - e_argmin.
    let (_, g) = fwdad::drivers::gradient(bind(logit_range {}, (Wrt,)), &X);
    let mut want = [0.0; 9];
    want[5] = 1.0;
    want[4] = -1.0;
    assert_eq!(g, want);
}

#[test]
fn iterator_parameters_of_constants() {
    let g = 0.7;
    let d = stream_energy_frule(Dual::new(g, 1.0), X.iter().copied());
    assert_eq!(
        d.primal.to_bits(),
        stream_energy(g, X.iter().copied()).to_bits()
    );
    // d/dg Σ (g s)² = 2 g Σ s².
    let want = 2.0 * g * X.iter().map(|s| s * s).sum::<f64>();
    assert_close(d.tangent, want, 1e-14, "d stream_energy / d gain");
    let d = biased_mean_frule(Dual::new(0.25, 1.0), X.iter().map(|v| 2.0 * v));
    assert_eq!(
        d.primal.to_bits(),
        biased_mean(0.25, X.iter().map(|v| 2.0 * v)).to_bits()
    );
    assert_close(d.tangent, 1.0, 1e-15, "d biased_mean / d bias");
}
