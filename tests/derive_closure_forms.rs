//! `return` and `?` inside closures, locals bound to functions, and closures calling closures
//! bound with `let`, as users write them:
//! an ML engineer's guarded log in an iterator chain, a finance helper's `?`-heavy pricing
//! closures bound with `let`, a pipeline picking its activation by name. Inlined closures
//! leave their own body, not the function; a closure passed to a function of the user's
//! uses `?` without its return type written. Each function is differentiated unmodified
//! and checked against central finite differences of the plain function in one direction,
//! batched and at second order (`check_modes!`), primals bit for bit, and against
//! derivatives written out.
// Written as users write them (`return` at the end of a closure's branch).
#![allow(clippy::needless_return)]

use fwdad::drivers::gradient_with;
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

// ---------------------------------------------------------------------------------------
// `return` in a closure given to an iterator adaptor

/// Sum of log-activations with a floor: non-positive activations contribute nothing.
#[derive_frule]
fn log_evidence(x: &[f64]) -> f64 {
    x.iter()
        .map(|v| {
            if *v <= 0.0 {
                return 0.0;
            }
            v.ln()
        })
        .sum()
}

#[test]
fn return_in_map_closure_leaves_the_closure() {
    let x = [0.5, -1.0, 2.0, 3.5];
    check_modes!(log_evidence {}, log_evidence, x);
    let (v, g) = gradient_with::<4>(log_evidence {}, &x);
    assert_eq!(v.to_bits(), log_evidence(&x).to_bits());
    let want = [1.0 / 0.5, 0.0, 1.0 / 2.0, 1.0 / 3.5];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-15, "d/dx");
    }
}

/// Huber-style loss over residuals, the clipping written with an early `return` in a
/// closure bound with `let` and called in a `for` loop.
#[derive_frule]
fn clipped_loss(r: &[f64]) -> f64 {
    let delta = 1.0;
    let huber = |e: f64| {
        if e.abs() > delta {
            return delta * (e.abs() - 0.5 * delta);
        }
        0.5 * e * e
    };
    let mut total = 0.0;
    for e in r {
        total += huber(*e);
    }
    total / r.len() as f64
}

#[test]
fn return_in_let_closure_called_in_a_loop() {
    let r = [0.3, -2.5, 1.7, -0.4];
    check_modes!(clipped_loss {}, clipped_loss, r);
    let (_, g) = gradient_with::<4>(clipped_loss {}, &r);
    // ½e² below the threshold (derivative e), |e| − ½ above (derivative sign(e)), over n.
    let want = [0.3 / 4.0, -1.0 / 4.0, 1.0 / 4.0, -0.4 / 4.0];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-15, "d/dr");
    }
}

/// First-crossing time of a threshold on a coarse grid, per parameter, from a closure
/// that returns from inside its own loop; the closure is called from another closure
/// that also returns early (both leave only themselves).
#[derive_frule]
fn crossing_cost(p: &[f64]) -> f64 {
    let (rate, level) = (p[0], p[1]);
    let crossing = |scale: f64| {
        for k in 1..50 {
            let t = 0.1 * k as f64;
            if scale * (rate * t).exp() > level {
                return t + (level - scale) / (scale * rate * 50.0);
            }
        }
        5.0
    };
    let cost = |s: f64| {
        if s <= 0.0 {
            return 0.0;
        }
        let t = crossing(s);
        t * t
    };
    let mut total = 0.0;
    for s in [0.5, 1.0, -1.0, 1.5] {
        total += cost(s);
    }
    total
}

#[test]
fn return_from_a_loop_inside_nested_inlined_closures() {
    let p = [0.9, 2.2];
    check_modes!(crossing_cost {}, crossing_cost, p);
    // Written out: on the grid the crossing index is fixed near p, so each cost is
    // (tₖ + (L − s)/(50 s r))², tₖ the first grid time with s e^{r tₖ} > L.
    let (r, l) = (p[0], p[1]);
    let mut dr = 0.0;
    let mut dl = 0.0;
    for s in [0.5f64, 1.0, 1.5] {
        let k = (1..50)
            .find(|k| s * (r * 0.1 * *k as f64).exp() > l)
            .unwrap();
        let t = 0.1 * k as f64 + (l - s) / (s * r * 50.0);
        dr += 2.0 * t * (-(l - s) / (s * r * r * 50.0));
        dl += 2.0 * t / (s * r * 50.0);
    }
    let (_, g) = gradient_with::<4>(crossing_cost {}, &p);
    assert_close(g[0], dr, 1e-14, "d/dr");
    assert_close(g[1], dl, 1e-14, "d/dL");
}

// ---------------------------------------------------------------------------------------
// `?` in closures bound with `let` (a pricing desk's helpers)

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PricingError {
    NegativeMaturity,
    NonPositiveSpot,
}

/// Forward price with discounting, each step a fallible closure: `[spot, rate, maturity,
/// dividend yield]`; an invalid input falls back to the spot.
#[derive_frule]
fn forward_price(p: &[f64]) -> f64 {
    let (spot, rate, t, q) = (p[0], p[1], p[2], p[3]);
    let discount = |r: f64| -> Result<f64, PricingError> {
        if t < 0.0 {
            return Err(PricingError::NegativeMaturity);
        }
        Ok((-r * t).exp())
    };
    let forward = |s: f64| -> Result<f64, PricingError> {
        if s <= 0.0 {
            return Err(PricingError::NonPositiveSpot);
        }
        let df_r = discount(rate)?;
        let df_q = discount(q)?;
        Ok(s * df_q / df_r)
    };
    forward(spot).unwrap_or(spot)
}

#[test]
fn question_mark_in_let_closures() {
    let p = [100.0, 0.03, 2.0, 0.01];
    check_modes!(forward_price {}, forward_price, p);
    let (v, g) = gradient_with::<4>(forward_price {}, &p);
    // F = S e^{(r − q) t}: ∂F/∂S = e^{(r−q)t}, ∂F/∂r = t F, ∂F/∂t = (r − q) F, ∂F/∂q = −t F.
    let (s, r, t, q) = (p[0], p[1], p[2], p[3]);
    let f = s * ((r - q) * t).exp();
    assert_close(v, f, 1e-14, "F");
    let want = [f / s, t * f, (r - q) * f, -t * f];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-13, "dF");
    }
    // The error path: a negative maturity falls back to the spot (derivative 1 in S).
    let bad = [100.0, 0.03, -1.0, 0.01];
    let (v, g) = gradient_with::<4>(forward_price {}, &bad);
    assert_eq!(v.to_bits(), 100.0f64.to_bits());
    assert_eq!(g, vec![1.0, 0.0, 0.0, 0.0]);
}

/// Mean of square roots of the valid quotes, `?` on `Option` inside a `filter_map`
/// closure (a quote at or below zero is skipped).
#[derive_frule]
fn mean_root_quote(x: &[f64]) -> f64 {
    let kept: Vec<f64> = x
        .iter()
        .filter_map(|v| {
            let q = if *v > 0.0 { Some(*v) } else { None };
            let root = q?.sqrt();
            Some(root)
        })
        .collect();
    kept.iter().sum::<f64>() / kept.len() as f64
}

#[test]
fn question_mark_in_filter_map_closure() {
    let x = [4.0, -1.0, 2.25, 0.5];
    check_modes!(mean_root_quote {}, mean_root_quote, x);
    let (_, g) = gradient_with::<4>(mean_root_quote {}, &x);
    let want = [
        0.5 / 4.0f64.sqrt() / 3.0,
        0.0,
        0.5 / 2.25f64.sqrt() / 3.0,
        0.5 / 0.5f64.sqrt() / 3.0,
    ];
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-15, "d/dx");
    }
}

// ---------------------------------------------------------------------------------------
// `?` in a closure passed to a function, its return type not written

/// The mean of a fallible objective at two points: `None` when it fails at either.
#[derive_frule]
fn first_value<F: Fn(f64) -> Option<f64>>(f: F, a: f64, b: f64) -> Option<f64> {
    let fa = f(a)?;
    let fb = f(b)?;
    Some(0.5 * (fa + fb))
}

/// Average of a log-barrier at the ends of an interval; an infeasible end gives 0.
#[derive_frule]
fn barrier_average(p: &[f64]) -> f64 {
    let (k, a, b) = (p[0], p[1], p[2]);
    first_value(
        |x| {
            let slack = if k - x > 0.0 { Some(k - x) } else { None };
            let l = slack?.ln();
            Some(-l)
        },
        a,
        b,
    )
    .unwrap_or(0.0)
}

#[test]
fn question_mark_in_passed_closure_without_return_type() {
    let p = [3.0, 0.5, 1.25];
    check_modes!(barrier_average {}, barrier_average, p);
    let (_, g) = gradient_with::<4>(barrier_average {}, &p);
    // −½ [ln(k − a) + ln(k − b)]
    let (k, a, b) = (p[0], p[1], p[2]);
    let want = [
        -0.5 * (1.0 / (k - a) + 1.0 / (k - b)),
        0.5 / (k - a),
        0.5 / (k - b),
    ];
    for i in 0..3 {
        assert_close(g[i], want[i], 1e-15, "d/dp");
    }
}

// ---------------------------------------------------------------------------------------
// Locals bound to functions

#[derive_frule]
fn softplus(x: f64) -> f64 {
    (1.0 + x.exp()).ln()
}

/// A layer whose activation is picked by name, then applied in a chain and by a call.
#[derive_frule]
fn layer_energy(x: &[f64]) -> f64 {
    let act = softplus;
    let squash: fn(f64) -> f64 = f64::tanh;
    let hidden: f64 = x.iter().map(|v| act(2.0 * v)).sum();
    let out = squash(hidden) + act(x[0]);
    debug_assert!(act(0.0) > 0.0, "softplus is positive");
    out
}

#[test]
fn locals_bound_to_functions() {
    let x = [0.1, -0.3, 0.25];
    check_modes!(layer_energy {}, layer_energy, x);
    let (_, g) = gradient_with::<4>(layer_energy {}, &x);
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    let h: f64 = x.iter().map(|v| (1.0 + (2.0 * v).exp()).ln()).sum();
    let sech2 = 1.0 - h.tanh().powi(2);
    let want: Vec<f64> = (0..3)
        .map(|k| sech2 * 2.0 * sig(2.0 * x[k]) + if k == 0 { sig(x[0]) } else { 0.0 })
        .collect();
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-14, "d/dx");
    }
}

// ---------------------------------------------------------------------------------------
// Closures given to a function that call closures bound with `let` outside them

/// Composite Simpson rule on [a, b] with n (even) panels.
#[derive_frule]
fn simpson<F: Fn(f64) -> f64>(f: F, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let mut s = f(a) + f(b);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        s += w * f(a + i as f64 * h);
    }
    s * h / 3.0
}

/// Energy of a damped mode, ∫₀¹ k·g(t)² dt with g(t) = e^{−c t}: the integrand calls the
/// helpers the physicist bound with `let` first (one calls the other).
#[derive_frule]
fn mode_energy(p: &[f64]) -> f64 {
    let (k, c) = (p[0], p[1]);
    let decay = |t: f64| (-c * t).exp();
    let sq = |t: f64| decay(t) * decay(t);
    simpson(|t| k * sq(t), 0.0, 1.0, 64)
}

#[test]
fn passed_closure_calls_let_closures() {
    let p = [2.5, 0.7];
    check_modes!(mode_energy {}, mode_energy, p);
    // Simpson is exact to ~1e-9 here: E = k (1 − e^{−2c}) / (2c).
    let (k, c) = (p[0], p[1]);
    let (v, g) = gradient_with::<4>(mode_energy {}, &p);
    assert_close(v, k * (1.0 - (-2.0 * c).exp()) / (2.0 * c), 1e-8, "E");
    let de_dk = (1.0 - (-2.0 * c).exp()) / (2.0 * c);
    let de_dc =
        k * ((-2.0 * c).exp() * 2.0 * c * 2.0 - 2.0 * (1.0 - (-2.0 * c).exp())) / (4.0 * c * c);
    assert_close(g[0], de_dk, 1e-8, "dE/dk");
    assert_close(g[1], de_dc, 1e-8, "dE/dc");
}
