//! Sorting with ties: the rule's order of equal elements must be the plain function's.
//! `sort_by` on a key (events sorted by a bucketed time) is stable in `std` and in the rule,
//! so the rule reproduces it exactly, ties and all, beyond `std`'s small-slice insertion
//! sort (64 elements here). `sort_unstable_by` of whole values (`total_cmp`, `partial_cmp`)
//! is reproduced too: elements it calls equal are equal. (`sort_unstable_by` on a key is
//! refused: UI test `sort-unstable-by-key`.) Primals bit for bit, gradients against the
//! closed form of the rank weights and central differences.
use fwdad::drivers::{bind, gradient, gradient_with, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// Payloads of events sorted by a coarse time bucket (many equal keys), weighted by rank.
#[derive_frule]
fn ranked_by_bucket(x: &[f64]) -> f64 {
    let mut events: Vec<(f64, f64)> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| (((i * 7) % 5) as f64, v))
        .collect();
    events.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    events
        .iter()
        .enumerate()
        .map(|(k, e)| (k as f64 + 1.0).ln() * e.1)
        .sum()
}

/// A rank-weighted trimmed mean over every reading taken three times (duplicates), sorted
/// unstably by whole value.
#[derive_frule]
fn trimmed_duplicates(x: &[f64], drop: usize) -> f64 {
    let mut v: Vec<f64> = x
        .iter()
        .chain(x.iter())
        .chain(x.iter())
        .map(|&a| a * a)
        .collect();
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap());
    let kept = &v[drop..v.len() - drop];
    kept.iter()
        .enumerate()
        .map(|(k, a)| a * (1.0 + k as f64))
        .sum::<f64>()
        / kept.len() as f64
}

fn point(n: usize) -> Vec<f64> {
    (0..n).map(|i| (i as f64 * 0.37).sin()).collect()
}

#[test]
fn keyed_stable_sort_with_many_ties_is_reproduced() {
    let x = point(64);
    let (v, g) = gradient(ranked_by_bucket {}, &x[..]);
    assert_eq!(v.to_bits(), ranked_by_bucket(&x).to_bits());
    // Closed form: element i lands at rank k(i) = its position among the stable sort of
    // the buckets; its weight is ln(k + 1).
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by_key(|&i| (i * 7) % 5);
    for (k, &i) in order.iter().enumerate() {
        assert_close(g[i], (k as f64 + 1.0).ln(), 1e-15, &format!("d/dx{i}"));
    }
    let (vb, gb) = gradient_with::<8>(ranked_by_bucket {}, &x[..]);
    assert_eq!(vb.to_bits(), v.to_bits());
    for i in 0..x.len() {
        assert_close(gb[i], g[i], 1e-15, "batch");
    }
}

#[test]
fn whole_value_unstable_sort_with_duplicates_is_reproduced() {
    let x = point(48);
    let (v, g) = gradient(bind(trimmed_duplicates {}, (Wrt, 5)), &x[..]);
    assert_eq!(v.to_bits(), trimmed_duplicates(&x, 5).to_bits());
    let h = 1e-7;
    for i in 0..x.len() {
        let (mut p, mut m) = (x.clone(), x.clone());
        p[i] += h;
        m[i] -= h;
        let fd = (trimmed_duplicates(&p, 5) - trimmed_duplicates(&m, 5)) / (2.0 * h);
        assert_close(g[i], fd, 1e-6, &format!("d/dx{i}"));
    }
}
