//! Walls users hit in ordinary numeric code, each annotated as written: float methods that
//! had no rule (`round_ties_even`, `midpoint`, the deprecated `abs_sub`), ... Each is
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
