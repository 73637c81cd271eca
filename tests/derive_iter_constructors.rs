//! Iterators built by the free functions of `std::iter` (`zip`, `once`, `repeat`,
//! `repeat_n`), `Vec::append`, and sorting a sub-slice in place, as data and ML code writes
//! them: a neuron's weighted sum over `iter::zip`, a bias feature prepended with
//! `iter::once`, padding with `iter::repeat(0.0).take(n)`, mini-batches merged with
//! `append`, a reference reading kept first while the rest is sorted. Each function is
//! differentiated unmodified and checked against central finite differences of the plain
//! function in one direction, batched and at second order (`check_modes!`), primals bit
//! for bit, and against derivatives written out.
// Written as users write them (`repeat(0.0).take(n)` predates `repeat_n`).
#![allow(clippy::manual_repeat_n)]

use fwdad::drivers::gradient_with;
use fwdad::prelude::*;
use std::iter::once;

mod common;
use common::modes::assert_close;

/// One tanh neuron on a flat parameter vector `[w0, w1, w2, x0, x1, x2]`.
#[derive_frule]
fn neuron(p: &[f64]) -> f64 {
    let (w, x) = p.split_at(3);
    let z: f64 = std::iter::zip(w, x).map(|(wi, xi)| wi * xi).sum();
    z.tanh()
}

/// The same neuron with `zip` imported, as is usual.
#[derive_frule]
fn neuron_imported_zip(p: &[f64]) -> f64 {
    use std::iter::zip;
    let (w, x) = p.split_at(3);
    zip(w, x).map(|(wi, xi)| wi * xi).sum::<f64>().tanh()
}

#[test]
fn zip_function_then_map() {
    let p = [0.3, -0.2, 0.5, 1.0, 0.4, -0.7];
    check_modes!(neuron {}, neuron, p);
    check_modes!(neuron_imported_zip {}, neuron_imported_zip, p);
    let (_, g) = gradient_with::<4>(neuron {}, &p);
    let z: f64 = (0..3).map(|i| p[i] * p[i + 3]).sum();
    let s = 1.0 - z.tanh().powi(2);
    for i in 0..3 {
        assert_close(g[i], s * p[i + 3], 1e-15, "d/dw");
        assert_close(g[i + 3], s * p[i], 1e-15, "d/dx");
    }
}

/// Linear model with the bias as a leading constant feature: `[b, w0, w1]` against the
/// features `[1, x0, x1]`, built with `iter::once(1.0).chain(..)`.
#[derive_frule]
fn with_bias(w: &[f64]) -> f64 {
    let x = [0.5, -1.5];
    let features: Vec<f64> = std::iter::once(1.0).chain(x.iter().copied()).collect();
    let y: f64 = features.iter().zip(w).map(|(f, wi)| f * wi).sum();
    (y - 0.25).powi(2)
}

#[test]
fn once_chained_with_a_slice() {
    let w = [0.1, 0.8, -0.3];
    check_modes!(with_bias {}, with_bias, w);
    let (_, g) = gradient_with::<4>(with_bias {}, &w);
    let y = w[0] + 0.5 * w[1] - 1.5 * w[2];
    let r = 2.0 * (y - 0.25);
    let want = [r, r * 0.5, -r * 1.5];
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-15, "d/dw");
    }
}

/// A signal zero-padded to a length of eight, then smoothed by a three-tap filter;
/// the taps' scale comes in through `iter::repeat`.
#[derive_frule]
fn padded_energy(x: &[f64]) -> f64 {
    let pad = 8 - x.len();
    let padded: Vec<f64> = x
        .iter()
        .copied()
        .chain(std::iter::repeat(0.0).take(pad))
        .collect();
    let gain = x[0].exp();
    let scaled: Vec<f64> = padded
        .iter()
        .zip(std::iter::repeat(gain))
        .map(|(v, g)| v * g)
        .collect();
    let mut e = 0.0;
    for w in scaled.windows(3) {
        let s = 0.25 * w[0] + 0.5 * w[1] + 0.25 * w[2];
        e += s * s;
    }
    e + std::iter::repeat_n(x[1], 3).sum::<f64>()
}

#[test]
fn repeat_take_and_repeat_n() {
    let x = [0.2, -0.5, 0.9, 0.4, -0.1];
    check_modes!(padded_energy {}, padded_energy, x);
}

/// Two mini-batches merged with `append`, then the mean squared value.
#[derive_frule]
fn merged_batches(x: &[f64]) -> f64 {
    let mut batch: Vec<f64> = x[..2].to_vec();
    let mut next: Vec<f64> = x[2..].iter().map(|v| 2.0 * v).collect();
    batch.append(&mut next);
    assert!(next.is_empty());
    batch.iter().map(|v| v * v).sum::<f64>() / batch.len() as f64
}

#[test]
fn vec_append() {
    let x = [0.5, -1.0, 0.25, 2.0];
    check_modes!(merged_batches {}, merged_batches, x);
    let (_, g) = gradient_with::<4>(merged_batches {}, &x);
    // (x0² + x1² + 4x2² + 4x3²) / 4
    let want = [x[0] / 2.0, x[1] / 2.0, 2.0 * x[2], 2.0 * x[3]];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-15, "d/dx");
    }
}

/// Readings whose first is a reference: the rest sorted in place, the median of the rest
/// taken relative to the reference.
#[derive_frule]
fn relative_median(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v[1..].sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len() - 1;
    let m = v[1 + n / 2];
    let mut top = v.clone();
    top[..=2].sort_unstable_by(|a, b| b.total_cmp(a));
    (m - v[0]) / v[0] + 0.1 * top[0]
}

#[test]
fn sorting_a_sub_slice() {
    let x = [2.0, 5.0, 1.0, 4.0, 3.0, 0.5];
    check_modes!(relative_median {}, relative_median, x);
    let (v, g) = gradient_with::<4>(relative_median {}, &x);
    // The rest sorted: [0.5, 1, 3, 4, 5]; its median is 3 (x4). top[..=2] of
    // [2, 0.5, 1, ..] sorted descending puts x0 = 2 first.
    assert_eq!(v.to_bits(), ((3.0 - 2.0) / 2.0 + 0.1 * 2.0f64).to_bits());
    let want = [-3.0 / 4.0 + 0.1, 0.0, 0.0, 0.0, 0.5, 0.0];
    for k in 0..6 {
        assert_close(g[k], want[k], 1e-15, "d/dx");
    }
}

/// Products of paired readings after the leading negative ones are skipped.
#[derive_frule]
fn sum_after_negatives(x: &[f64]) -> f64 {
    std::iter::zip(x, x)
        .skip_while(|p| *p.0 < 0.0)
        .map(|p| p.0 * p.1)
        .sum()
}

#[test]
fn skip_while_after_zip_function() {
    let x = [-1.0, -0.5, 2.0, -3.0, 1.5];
    check_modes!(sum_after_negatives {}, sum_after_negatives, x);
    let (_, g) = gradient_with::<4>(sum_after_negatives {}, &x);
    let want = [0.0, 0.0, 4.0, -6.0, 3.0];
    for k in 0..5 {
        assert_close(g[k], want[k], 1e-15, "d/dx");
    }
}

/// A closed polygon's perimeter: the first vertex appended by `once` imported at the top of
/// the file (`use std::iter::once;`), the sides by `windows(2)`.
#[derive_frule]
fn perimeter(xy: &[f64]) -> f64 {
    let n = xy.len() / 2;
    let pts: Vec<[f64; 2]> = (0..n).map(|i| [xy[2 * i], xy[2 * i + 1]]).collect();
    let closed: Vec<[f64; 2]> = pts.iter().copied().chain(once(pts[0])).collect();
    closed
        .windows(2)
        .map(|w| ((w[1][0] - w[0][0]).powi(2) + (w[1][1] - w[0][1]).powi(2)).sqrt())
        .sum()
}

#[test]
fn bare_once_chained_closes_a_polygon() {
    let xy = [0.0, 0.0, 2.0, 0.1, 2.2, 1.5, 0.9, 2.4, -0.3, 1.2];
    check_modes!(perimeter {}, perimeter, xy);
    // The derivative with respect to vertex 0 is the sum of the unit vectors from its
    // neighbours (vertices 1 and 4) to it.
    let (_, g) = fwdad::gradient(perimeter {}, &xy[..]);
    let unit = |a: usize, b: usize| {
        let (dx, dy) = (xy[2 * a] - xy[2 * b], xy[2 * a + 1] - xy[2 * b + 1]);
        let r = (dx * dx + dy * dy).sqrt();
        (dx / r, dy / r)
    };
    let (u1, u4) = (unit(0, 1), unit(0, 4));
    assert_close(g[0], u1.0 + u4.0, 1e-14, "d/dx0");
    assert_close(g[1], u1.1 + u4.1, 1e-14, "d/dy0");
}
