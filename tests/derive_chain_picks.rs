//! One item picked from an iterator chain written in place: `v.iter().rev().nth(1)`,
//! `.rev().next()`, `.filter(..).next()`, `.skip(k).nth(j)`, as numeric code reads "the
//! second-to-last sample" or "the first value above a threshold". Each function is
//! differentiated unmodified and checked against central differences of the plain
//! function in one direction, batched and at second order (`check_modes!`), primals bit
//! for bit, and against derivatives written out.
// Written as numeric code reads "the second item from the back", "the first one above".
#![allow(clippy::manual_next_back, clippy::filter_next)]

use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// An insulated right end: the last node copies its neighbour, read as the second item
/// from the back.
#[derive_frule]
fn neumann_end(u: &[f64]) -> f64 {
    let inner = *u.iter().rev().nth(1).unwrap();
    let last = u.iter().rev().next().copied().unwrap_or(0.0);
    inner * inner + 0.5 * last
}

/// The first residual above a tolerance, squared (an active-set step).
#[derive_frule]
fn first_violation(r: &[f64]) -> f64 {
    let tol = 0.1;
    match r.iter().map(|x| x * x).filter(|s| *s > tol).next() {
        Some(s) => s.sqrt() * 3.0,
        None => 0.0,
    }
}

/// The `j`-th sample after a burn-in of `k`, of a scaled sequence.
#[derive_frule]
fn after_burn_in(x: &[f64], scale: f64) -> f64 {
    let k = 2;
    x.iter()
        .skip(k)
        .map(|v| v * scale)
        .nth(1)
        .unwrap_or(f64::NAN)
        + x.iter().map(|v| v.exp()).nth(4).unwrap()
}

#[test]
fn nth_and_next_of_a_reversed_chain() {
    let u = [0.3, 1.2, -0.4, 0.9, 0.7];
    check_modes!(neumann_end {}, neumann_end, u);
    // d/du3 = 2 u3, d/du4 = 0.5
    let (v, g) = fwdad::gradient(neumann_end {}, &u);
    assert_eq!(v, 0.9 * 0.9 + 0.35);
    assert_close(g[3], 1.8, 1e-15, "d/du3");
    assert_close(g[4], 0.5, 1e-15, "d/du4");
    assert_eq!(&g[..3], &[0.0, 0.0, 0.0]);
}

#[test]
fn next_of_a_filtered_chain() {
    let r = [0.2, -0.5, 0.9];
    check_modes!(first_violation {}, first_violation, r);
    // the first square above 0.1 is 0.25 = (-0.5)^2: 3 |r1|, derivative 3 sign(r1)
    let (v, g) = fwdad::gradient(first_violation {}, &r);
    assert_eq!(v, 0.25f64.sqrt() * 3.0);
    assert_eq!(g, [0.0, -3.0, 0.0]);
    let (v, g) = fwdad::gradient(first_violation {}, &[0.1, 0.2]);
    assert_eq!((v, g), (0.0, [0.0, 0.0]));
}

#[test]
fn nth_after_skip_and_of_a_map() {
    let x = [0.5, 0.1, -0.3, 0.8, 0.25, 0.6];
    let s = 1.7;
    let d = after_burn_in_frule(Dual::constant(&x[..]), Dual::new(s, 1.0));
    assert_eq!(d.primal.to_bits(), after_burn_in(&x, s).to_bits());
    assert_close(d.tangent, 0.8, 1e-15, "d/dscale");
    let f = |x: &[f64]| after_burn_in(x, s);
    let (v, g) = fwdad::drivers::gradient(
        fwdad::drivers::bind(after_burn_in {}, (fwdad::drivers::Wrt, s)),
        &x,
    );
    assert_eq!(v.to_bits(), f(&x).to_bits());
    let want = [0.0, 0.0, 0.0, s, 0.25f64.exp(), 0.0];
    for k in 0..6 {
        assert_close(g[k], want[k], 1e-15, &format!("d/dx{k}"));
    }
}
