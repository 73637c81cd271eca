//! `Option` and `Result` combinators taking values, as fallback logic is written: `or`
//! (a fallback model), `and` (a check that gates a value), `xor` (exactly one source),
//! `zip` (two measurements combined), on helpers' results, typed locals and parameters,
//! and `Result::or`/`and`. Checked in one direction, batched and at second order against
//! central differences of the plain functions (primals bit for bit), and against the
//! branch's closed form.
// Written as users write them.
#![allow(clippy::unnecessary_lazy_evaluations)]

use fwdad::drivers::{bind, gradient, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// √x where it is real.
#[derive_frule]
pub fn sqrt_pos(x: f64) -> Option<f64> {
    if x > 0.0 {
        Some(x.sqrt())
    } else {
        None
    }
}

/// ln x, or an error naming the bad input.
#[derive_frule]
pub fn ln_checked(x: f64) -> Result<f64, &'static str> {
    if x > 0.0 {
        Ok(x.ln())
    } else {
        Err("not positive")
    }
}

/// The primary model if it applies, else the fallback (`or`), gated products (`and`),
/// a value from exactly one of two sources (`xor`), and two readings combined (`zip`).
#[derive_frule]
pub fn blended(p: &[f64]) -> f64 {
    let a = sqrt_pos(p[0]).or(sqrt_pos(p[1]));
    let b = sqrt_pos(p[1]).zip(sqrt_pos(p[2])).map(|(u, v)| u * v);
    let c = sqrt_pos(-p[0]).and(Some(p[2] * 2.0)).unwrap_or(0.5 * p[2]);
    let e = sqrt_pos(-1.0).xor(Some(p[0] * p[1])).unwrap_or(0.0);
    a.unwrap_or(0.0) + b.unwrap_or(0.0) + c + e
}

/// The same on typed locals, with the fallbacks taken.
#[derive_frule]
pub fn fallbacks(p: &[f64]) -> f64 {
    let first: Option<f64> = sqrt_pos(-p[0]);
    let second: Option<f64> = sqrt_pos(p[1]);
    let either = first.or(second).unwrap_or(0.0);
    let both: Option<f64> = first.zip(second).map(|(u, v)| u + v);
    let one = first.xor(second).unwrap_or(-1.0);
    let gated = second.and(Some(p[0] * p[0])).unwrap_or(0.0);
    either + both.unwrap_or(p[1]) + one * p[0] + gated
}

/// `Result::or` and `Result::and`.
#[derive_frule]
pub fn log_fallback(p: &[f64]) -> f64 {
    let l = ln_checked(p[0] - 5.0).or(ln_checked(p[1])).unwrap_or(0.0);
    let m = ln_checked(p[1]).and(ln_checked(p[0])).unwrap_or(0.0);
    l + m * p[1]
}

#[test]
fn value_combinators_in_every_mode() {
    check_modes!(blended {}, blended, [0.7, 1.3, 2.2]);
    check_modes!(blended {}, blended, [-0.7, 1.3, 2.2]);
}

#[test]
fn value_combinators_match_the_taken_branches() {
    // p₀ > 0: a = √p₀, b = √(p₁p₂), c = p₂/2, e = p₀p₁.
    let p = [0.7, 1.3, 2.2];
    let (_, g) = gradient(bind(blended {}, (Wrt,)), &p);
    assert_close(g[0], 0.5 / p[0].sqrt() + p[1], 1e-15, "d/dp0");
    assert_close(g[1], 0.5 * (p[2] / p[1]).sqrt() + p[0], 1e-15, "d/dp1");
    assert_close(g[2], 0.5 * (p[1] / p[2]).sqrt() + 0.5, 1e-15, "d/dp2");
    // p₀ < 0: a = √p₁ (the fallback), c = 2p₂ (gated through), e = p₀p₁.
    let p = [-0.7, 1.3, 2.2];
    let (_, g) = gradient(bind(blended {}, (Wrt,)), &p);
    assert_close(g[0], p[1], 1e-15, "d/dp0");
    assert_close(
        g[1],
        0.5 / p[1].sqrt() + 0.5 * (p[2] / p[1]).sqrt() + p[0],
        1e-15,
        "d/dp1",
    );
    assert_close(g[2], 0.5 * (p[1] / p[2]).sqrt() + 2.0, 1e-15, "d/dp2");
}

#[test]
fn combinators_on_typed_locals_in_every_mode() {
    check_modes!(fallbacks {}, fallbacks, [0.7, 1.3]);
    check_modes!(fallbacks {}, fallbacks, [-0.7, 1.3]);
    check_modes!(fallbacks {}, fallbacks, [-0.7, -1.3]);
}

#[test]
fn result_or_and_and_in_every_mode() {
    check_modes!(log_fallback {}, log_fallback, [2.0, 1.5]);
    check_modes!(log_fallback {}, log_fallback, [6.5, 1.5]);
}
