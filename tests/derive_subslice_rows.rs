//! Rows of a flat parameter collected into a `Vec<&[f64]>`, as ML data code writes it: a
//! loader splitting a flat batch into samples with `chunks(..).collect()`, handed to a
//! per-row loss taking `&[&[f64]]`, pushed one by one, and read back in loops. Each
//! function is differentiated unmodified and checked against central finite differences
//! of the plain function in one direction, batched and at second order (`check_modes!`),
//! primals bit for bit, and against derivatives written out.

use fwdad::drivers::gradient_with;
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// The sum of the rows' Euclidean norms.
#[derive_frule]
fn rows_norm(rows: &[&[f64]]) -> f64 {
    rows.iter()
        .map(|r| r.iter().map(|v| v * v).sum::<f64>().sqrt())
        .sum()
}

/// A flat batch of three-feature samples, split into rows for the loss.
#[derive_frule]
fn batch_norms(x: &[f64]) -> f64 {
    let rows: Vec<&[f64]> = x.chunks(3).collect();
    rows_norm(&rows)
}

#[test]
fn chunks_collected_and_passed_on() {
    let x = [0.3, -1.2, 0.8, 2.0, 0.5, -0.4, 1.1];
    check_modes!(batch_norms {}, batch_norms, x);
    let (v, g) = gradient_with::<4>(batch_norms {}, &x);
    // Rows [x0 x1 x2], [x3 x4 x5], [x6]: ∂‖r‖/∂rᵢ = rᵢ / ‖r‖.
    let n1 = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
    let n2 = (x[3] * x[3] + x[4] * x[4] + x[5] * x[5]).sqrt();
    assert_close(v, n1 + n2 + x[6].abs(), 1e-15, "value");
    let want = [
        x[0] / n1,
        x[1] / n1,
        x[2] / n1,
        x[3] / n2,
        x[4] / n2,
        x[5] / n2,
        1.0,
    ];
    for k in 0..7 {
        assert_close(g[k], want[k], 1e-15, "d/dx");
    }
}

/// Pairs of (prediction, target) pushed as rows one by one, then a squared error read
/// back by index in a loop, and overlapping windows collected for a smoothness penalty.
#[derive_frule]
fn paired_loss(x: &[f64]) -> f64 {
    let mut pairs = Vec::with_capacity(x.len() / 2);
    for p in x.chunks_exact(2) {
        pairs.push(p);
    }
    let mut loss = 0.0;
    for p in &pairs {
        let e = p[0] - p[1];
        loss += e * e;
    }
    let windows: Vec<&[f64]> = x.windows(3).collect();
    let mut rough = 0.0;
    for w in windows.iter() {
        let d2 = w[0] - 2.0 * w[1] + w[2];
        rough += d2 * d2;
    }
    loss / pairs.len() as f64 + 0.1 * rough
}

#[test]
fn rows_pushed_and_windows_collected() {
    let x = [0.9, 1.0, 0.2, -0.1, 1.5, 1.2];
    check_modes!(paired_loss {}, paired_loss, x);
}
