//! Walls users hit in ordinary numeric code, each annotated as written: float methods that
//! had no rule (`round_ties_even`, `midpoint`, the deprecated `abs_sub`) and float queries
//! (`is_subnormal`, `classify`, `to_bits`), a pooling layer flattened with `flat_map` over
//! rows borrowed twice (`Vec<&[f64]>`, `&Vec<f64>`), ... Each is
//! checked against central differences in every mode (`check_modes!`, primals bit for
//! bit) and against closed forms where there is one.

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;

// ---------------------------------------------------------------------------------------
// Float methods: `round_ties_even`, `midpoint`, `abs_sub`.

/// A quantisation residual on a grid of step `h` (banker's rounding, as an encoder writes
/// it), a midpoint between two readings, and a one-sided excess (C's `fdim`).
#[derive_frule]
#[allow(deprecated, clippy::incompatible_msrv)] // `abs_sub` and `midpoint` as users write them
fn quantised_energy(x: &[f64]) -> f64 {
    let h = 0.25;
    let centre = (x[0] / h).round_ties_even() * h;
    let mid = x[1].midpoint(x[2]);
    let excess = x[2].abs_sub(x[0]);
    let clipped = f64::abs_sub(x[0], x[2]);
    (x[0] - centre).powi(2) + mid * mid.sin() + excess * x[1] + clipped
}

#[test]
#[allow(clippy::incompatible_msrv)]
fn float_methods_without_rules_before() {
    let x = [0.61, 1.3, 2.2];
    check_modes!(quantised_energy {}, quantised_energy, x);
    // Closed form: centre = 0.5 (0.61 / 0.25 = 2.44 rounds to 2), mid = (x1 + x2)/2,
    // excess = x2 - x0 (x2 > x0), clipped = 0.
    let (_, g) = gradient(quantised_energy {}, &x);
    let mid = 0.5 * (x[1] + x[2]);
    let dmid = 0.5 * (mid.sin() + mid * mid.cos());
    assert_close(g[0], 2.0 * (x[0] - 0.5) - x[1], 1e-12, "d/dx0");
    assert_close(g[1], dmid + (x[2] - x[0]), 1e-12, "d/dx1");
    assert_close(g[2], dmid + x[1], 1e-12, "d/dx2");
    // At a tie, 0.625 / 0.25 = 2.5 rounds to 2 (`round` would give 3): the centre is 0.5.
    let x = [0.625, 1.0, 2.0];
    let (v, g) = gradient(quantised_energy {}, &x);
    assert_eq!(v.to_bits(), quantised_energy(&x).to_bits());
    assert_close(g[0], 2.0 * (x[0] - 0.5) - x[1], 1e-12, "d/dx0 at a tie");
}

/// Queries of a float's representation branch on the primal only.
#[derive_frule]
fn guarded_log(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        let tiny = v.is_subnormal() || v.classify() == std::num::FpCategory::Zero;
        let negative = v.to_bits() >> 63 == 1;
        s += if tiny || negative { v } else { v.ln() * v };
    }
    s
}

#[test]
fn float_queries_read_the_primal() {
    let x = [0.5, -1.5, 2.0];
    check_modes!(guarded_log {}, guarded_log, x);
    let (_, g) = gradient(guarded_log {}, &x);
    assert_close(g[0], x[0].ln() + 1.0, 1e-12, "d/dx0");
    assert_close(g[1], 1.0, 1e-12, "d/dx1");
    assert_close(g[2], x[2].ln() + 1.0, 1e-12, "d/dx2");
}

// ---------------------------------------------------------------------------------------
// A pooling layer: `flat_map` over rows borrowed twice.

/// Max-pooling of one channel in windows of `k`.
#[derive_frule]
fn max_pool(ch: &[f64], k: usize) -> Vec<f64> {
    ch.chunks(k)
        .map(|w| w.iter().copied().fold(f64::NEG_INFINITY, f64::max))
        .collect()
}

/// Channels of four as borrowed rows, pooled by two, then a squared readout.
#[derive_frule]
fn pooled_rows(x: &[f64]) -> f64 {
    let chans: Vec<&[f64]> = x.chunks(4).collect();
    let pooled: Vec<f64> = chans.iter().flat_map(|ch| max_pool(ch, 2)).collect();
    pooled.iter().enumerate().map(|(i, v)| (i as f64 + 1.0) * v * v).sum()
}

/// The same with owned channels, each lent by `&ch` (a `&&Vec<f64>`).
#[derive_frule]
fn pooled_owned(x: &[f64]) -> f64 {
    let chans: Vec<Vec<f64>> = x.chunks(4).map(|c| c.iter().map(|v| v.tanh()).collect()).collect();
    let pooled: Vec<f64> = chans.iter().flat_map(|ch| max_pool(&ch, 2)).collect();
    pooled.iter().sum()
}

#[test]
fn flat_map_over_borrowed_rows() {
    // Each window's maximum is unique: x1, x3, x4, x7.
    let x = [0.1, 0.9, -0.4, 0.3, 1.2, 0.2, -0.5, 0.7];
    check_modes!(pooled_rows {}, pooled_rows, x);
    check_modes!(pooled_owned {}, pooled_owned, x);
    // Closed forms: d/dx of sum_k (k + 1) m_k^2 is 2 (k + 1) m_k at each window's maximum;
    // of sum tanh(m_k), 1 - tanh^2 there.
    let (_, g) = gradient(pooled_rows {}, &x);
    let mut want = [0.0; 8];
    for (k, &i) in [1, 3, 4, 7].iter().enumerate() {
        want[i] = 2.0 * (k as f64 + 1.0) * x[i];
    }
    for i in 0..8 {
        assert_close(g[i], want[i], 1e-12, &format!("pooled_rows d/dx{i}"));
    }
    let (_, g) = gradient(pooled_owned {}, &x);
    for i in 0..8 {
        let w = if [1, 3, 4, 7].contains(&i) { 1.0 - x[i].tanh().powi(2) } else { 0.0 };
        assert_close(g[i], w, 1e-12, &format!("pooled_owned d/dx{i}"));
    }
}
