//! Seventh hunt for wrong primals and derivatives.
//!
//! Found:
//! - A wrong primal (and derivative): `skip(n)` and `step_by(k)` after a `map` whose closure
//!   has effects (a Markov chain advanced by `|_| { x = rho * x + e; x }`, burnt in by
//!   `.skip(10)` and thinned by `.step_by(3)`; draws from a generator of the user's,
//!   `|_| rng.uniform()`, a tally through a `&mut` parameter, `|v| { *total += v; v * v }`):
//!   `std` runs the closure on every item it skips, the rule's index
//!   model (`elem(k + n)`, `elem(k · step)`) never called it there, so the state advanced
//!   fewer times (`chain_mean`: 0.574 against `std`'s 0.790). Such a `map` is now an
//!   element-wise stage followed by a counted `skip`/`step_by` stage, which also makes
//!   `filter(..).skip(n)` and `filter(..).step_by(k)` compile.
//!
//! The other functions are guards that passed, written as users write them: in-place
//! recurrences reading what they just wrote (`x[i] = x[i - 1] * a + x[i]`, a tridiagonal
//! solve), buffers read after they were mutated, `split_at_mut`, `chunks_exact` with its
//! remainder, `windows`, `iter().rev().enumerate()` against `iter().enumerate().rev()`,
//! `scan`, early `return`s from loops, shadowing, `match` guards reading active values,
//! casts between integers and floats, `f64::EPSILON` tests, `min`/`max`/`clamp` at ties,
//! `abs` at 0, `powi`/`powf` of negative bases and of 0, `hypot`, `atan2` on the axes, a
//! struct's array field written through `&mut`, stateful `FnMut` closures and `move`
//! closures returned as `impl FnMut`, sorting with comparators, loop-invariant roots of
//! accumulators read inside their loop, left by `break` or `return`, blanket impls over
//! traits of the user's beside an inherent method of the same name, generic constructors
//! and imported, renamed types; each against central differences or closed forms in one
//! direction, every batch width and second order, primals bit for bit.
#![allow(
    clippy::needless_range_loop,
    clippy::let_and_return,
    clippy::assign_op_pattern,
    clippy::manual_memcpy,
    clippy::ptr_arg,
    clippy::useless_vec,
    clippy::float_cmp,
    clippy::shadow_unrelated,
    clippy::comparison_chain,
    clippy::manual_is_multiple_of,
    clippy::never_loop
)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;
use std::cmp::Ordering;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::{check_in_place, same};

/// Bit-for-bit primal of one direction against the plain function.
fn primal_of(
    rule: impl Copy + fwdad::drivers::SliceRule<f64, Output = Dual<f64, f64>>,
    x: &[f64],
) -> f64 {
    let e = vec![0.0; x.len()];
    let (v, _): (f64, f64) = jvp(rule, x, &e);
    v
}

// ---------------------------------------------------------------------------------------
// In-place recurrences.

/// An exponential moving average in place, each element reading the one just written.
#[derive_frule]
fn ema_in_place(x: &mut [f64]) {
    let a = 0.6;
    for i in 1..x.len() {
        x[i] = x[i - 1] * a + x[i];
    }
}

fn ema_in_place_rule(v: &mut [f64], dv: &mut [f64]) {
    ema_in_place_frule(Dual::new(v, dv));
}

/// The same with the factor differentiated, summed with weights.
#[derive_frule]
fn ema_weighted(p: &[f64]) -> f64 {
    let a = p[0];
    let mut x = p[1..].to_vec();
    for i in 1..x.len() {
        x[i] = x[i - 1] * a + x[i];
    }
    let mut s = 0.0;
    for (k, v) in x.iter().enumerate() {
        s += (k as f64 + 1.0) * v;
    }
    s
}

/// Thomas' algorithm for a tridiagonal system (sub `a`, diagonal `b`, super `c`), in
/// place on copies: forward sweep, then back substitution reading the element just
/// solved. `p = [b0, .., b4, d0, .., d4]`, the off-diagonals constant.
#[derive_frule]
fn thomas(p: &[f64]) -> f64 {
    let n = p.len() / 2;
    let a = vec![-1.0; n];
    let mut b = p[..n].to_vec();
    let c = vec![-1.0; n];
    let mut d = p[n..].to_vec();
    for i in 1..n {
        let w = a[i] / b[i - 1];
        b[i] = b[i] - w * c[i - 1];
        d[i] = d[i] - w * d[i - 1];
    }
    let mut x = vec![0.0; n];
    x[n - 1] = d[n - 1] / b[n - 1];
    for i in (0..n - 1).rev() {
        x[i] = (d[i] - c[i] * x[i + 1]) / b[i];
    }
    x.iter()
        .enumerate()
        .map(|(i, v)| v * (i as f64 + 0.5))
        .sum()
}

/// A normalised copy, then both the copy and the original read.
#[derive_frule]
fn normalised_then_read(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let n = v.iter().map(|a| a * a).sum::<f64>().sqrt();
    for a in v.iter_mut() {
        *a /= n;
    }
    let first = v[0];
    v[0] = v[1] * 2.0;
    v[1] += first;
    v[0] * x[0] + v[1] * x[1] + v[2] * v[2] + first
}

#[test]
fn in_place_recurrences() {
    check_in_place(
        ema_in_place_rule,
        ema_in_place,
        &[0.5, -1.0, 2.0, 0.25, 1.5],
    );
    let p = [0.7, 0.5, -1.0, 2.0, 0.25, 1.5];
    check_widths!(bind(ema_weighted {}, (Wrt,)), ema_weighted, p);
    let p = [4.0, 3.5, 4.5, 3.0, 5.0, 1.0, -0.5, 2.0, 0.25, 1.5];
    check_widths!(bind(thomas {}, (Wrt,)), thomas, p);
    let x = [0.6, -1.2, 0.9, 2.0];
    check_widths!(
        bind(normalised_then_read {}, (Wrt,)),
        normalised_then_read,
        x
    );
}

// ---------------------------------------------------------------------------------------
// Buffers split and walked.

/// One symplectic Euler step of pendula, the state split into angles and momenta.
#[derive_frule]
fn symplectic_step(state: &mut [f64], dt: f64) {
    let n = state.len() / 2;
    let (q, p) = state.split_at_mut(n);
    for i in 0..n {
        p[i] -= dt * q[i].sin();
    }
    for i in 0..n {
        q[i] += dt * p[i];
    }
}

#[derive_frule]
fn pendula_energy(s: &[f64]) -> f64 {
    let mut state = s.to_vec();
    for _ in 0..4 {
        symplectic_step(&mut state, 0.1);
    }
    let n = state.len() / 2;
    let mut e = 0.0;
    for i in 0..n {
        e += 0.5 * state[n + i] * state[n + i] - state[i].cos();
    }
    e
}

/// Pairs multiplied, the odd element out squared.
#[derive_frule]
fn pairs_and_tail(x: &[f64]) -> f64 {
    let chunks = x.chunks_exact(2);
    let tail: f64 = chunks.remainder().iter().map(|r| r * r).sum();
    let mut e = 0.0;
    for c in chunks {
        e += c[0] * c[1];
    }
    e + tail
}

/// Total variation and curvature of a path.
#[derive_frule]
fn path_roughness(x: &[f64]) -> f64 {
    let tv: f64 = x.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
    let curv: f64 = x
        .windows(3)
        .map(|w| (w[0] - 2.0 * w[1] + w[2]).powi(2))
        .sum();
    tv + 0.5 * curv
}

/// A polynomial with coefficients highest first, by powers of the reversed index.
#[derive_frule]
fn poly_rev(p: &[f64]) -> f64 {
    let t = p[0];
    let c = &p[1..];
    c.iter()
        .rev()
        .enumerate()
        .map(|(k, a)| a * t.powi(k as i32))
        .sum()
}

/// Weights by the original index walked backwards: `enumerate` before `rev`.
#[derive_frule]
fn weighted_backwards(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut decay = 1.0;
    for (i, v) in x.iter().enumerate().rev() {
        s += decay * (i as f64 + 1.0) * v.sin();
        decay *= 0.5;
    }
    let mut t = 0.0;
    for (k, v) in x.iter().rev().enumerate() {
        t += (k as f64 + 1.0) * v * v;
    }
    s + t
}

/// A leaky integrator as a `scan`, its states squared.
#[derive_frule]
fn leaky_energy(p: &[f64]) -> f64 {
    let leak = p[0];
    p[1..]
        .iter()
        .scan(0.0, |acc, &v| {
            *acc = *acc * leak + v;
            Some(*acc)
        })
        .map(|s| s * s)
        .sum()
}

/// Every other element after the first, then every third of the rest.
#[derive_frule]
fn strided(x: &[f64]) -> f64 {
    let a: f64 = x.iter().skip(1).step_by(2).map(|v| v.exp()).sum();
    let b: f64 = x.iter().step_by(3).skip(1).map(|v| v * v).sum();
    let c: f64 = x.iter().rev().skip(1).step_by(2).map(|v| v.cos()).sum();
    a + 2.0 * b + 3.0 * c
}

#[test]
fn buffers_split_and_walked() {
    let s = [0.3, -0.8, 1.1, 0.2, 0.5, -0.4];
    check_widths!(bind(pendula_energy {}, (Wrt,)), pendula_energy, s);
    for x in [vec![0.5, 1.5, -2.0, 0.75, 3.0], vec![0.5, 1.5, -2.0, 0.75]] {
        check_widths!(bind(pairs_and_tail {}, (Wrt,)), pairs_and_tail, x);
    }
    let x = [0.1, 0.5, 0.3, 1.2, 0.8];
    check_widths!(bind(path_roughness {}, (Wrt,)), path_roughness, x);
    // p(t) = 2t³ - t² + 0.5t + 3 at t = 1.3: the first coefficient is t³'s.
    let p = [1.3, 2.0, -1.0, 0.5, 3.0];
    let y = poly_rev(&p);
    let t: f64 = 1.3;
    assert_close(y, 2.0 * t.powi(3) - t * t + 0.5 * t + 3.0, 1e-15, "poly");
    let (_, g) = gradient(bind(poly_rev {}, (Wrt,)), &p);
    assert_close(g[0], 6.0 * t * t - 2.0 * t + 0.5, 1e-14, "dp/dt");
    assert_close(g[1], t.powi(3), 1e-14, "dp/dc0");
    assert_close(g[4], 1.0, 1e-14, "dp/dc3");
    check_widths!(bind(poly_rev {}, (Wrt,)), poly_rev, p);
    let x = [0.4, -1.1, 0.7, 2.0];
    // d/dx3 = 4·cos(x3) (i = 3, decay 1) + 1·2x3 (k = 0).
    let (_, g) = gradient(bind(weighted_backwards {}, (Wrt,)), &x);
    assert_close(g[3], 4.0 * x[3].cos() + 2.0 * x[3], 1e-14, "d/dx3");
    assert_close(g[0], 0.125 * x[0].cos() + 4.0 * 2.0 * x[0], 1e-14, "d/dx0");
    check_widths!(bind(weighted_backwards {}, (Wrt,)), weighted_backwards, x);
    let p = [0.8, 1.0, -0.5, 0.25, 2.0];
    check_widths!(bind(leaky_energy {}, (Wrt,)), leaky_energy, p);
    let x = [0.1, -0.4, 0.6, 1.1, -0.9, 0.3, 0.8];
    check_widths!(bind(strided {}, (Wrt,)), strided, x);
}

// ---------------------------------------------------------------------------------------
// Control flow.

/// The time a sampled signal first crosses `level`, linearly interpolated; the last
/// index when it never does.
#[derive_frule]
fn crossing_time(p: &[f64]) -> f64 {
    let level = p[0];
    let x = &p[1..];
    for i in 1..x.len() {
        if x[i] >= level {
            let t = (level - x[i - 1]) / (x[i] - x[i - 1]);
            return (i - 1) as f64 + t;
        }
    }
    x.len() as f64
}

/// Shadowing in blocks and loops.
#[derive_frule]
fn shadowed(x: &[f64]) -> f64 {
    let y = x[0];
    let y = y * y + x[1];
    let z = {
        let y = y.sin();
        let x = y * 2.0;
        x + y
    };
    let mut acc = 0.0;
    for &y in x {
        let y = y * 0.5;
        acc += y * z;
    }
    let x = acc + y;
    x * x
}

/// A cost by regime, the guards reading the state.
#[derive_frule]
fn regime_cost(p: &[f64]) -> f64 {
    let mut cost = 0.0;
    for (k, &v) in p.iter().enumerate() {
        cost += match k % 3 {
            0 if v > 1.0 => v.ln(),
            0 => v - 1.0,
            n if v * (n as f64) > 1.0 => v * v,
            1 => 2.0 * v,
            _ => (v - cost).exp(),
        };
    }
    cost
}

/// A tuple `match` on comparisons of active values.
#[derive_frule]
fn tuple_guard(x: &[f64]) -> f64 {
    let (a, b) = (x[0], x[1]);
    match (a > b, a * b > 0.5) {
        (true, true) => a * b,
        (true, false) => a - b,
        (false, _) if a + b > 0.0 => (a + b).sqrt(),
        (false, _) => b.exp(),
    }
}

#[test]
fn control_flow() {
    for p in [
        vec![1.0, 0.0, 0.5, 0.9, 1.4, 2.0],
        vec![0.2, 0.5, 0.1, 0.9],
        vec![3.0, 0.5, 0.1, 0.9],
    ] {
        check_widths!(bind(crossing_time {}, (Wrt,)), crossing_time, p);
    }
    // Closed form of the first case: t = (l - x1)/(x2 - x1), crossing between x[2] and x[3].
    let p = [1.0, 0.0, 0.5, 0.9, 1.4, 2.0];
    let (_, g) = gradient(bind(crossing_time {}, (Wrt,)), &p);
    let (l, a, b) = (1.0, 0.9, 1.4);
    assert_close(g[0], 1.0 / (b - a), 1e-14, "d/dlevel");
    assert_close(g[3], (l - b) / ((b - a) * (b - a)), 1e-14, "d/dx[2]");
    assert_close(g[4], -(l - a) / ((b - a) * (b - a)), 1e-14, "d/dx[3]");
    let x = [0.7, -0.3, 1.2];
    check_widths!(bind(shadowed {}, (Wrt,)), shadowed, x);
    for p in [
        vec![1.5, 0.3, 0.9, 0.8, 0.7, 0.2],
        vec![0.5, 1.3, 0.2, 2.0, 0.4, 0.6, 1.1],
    ] {
        check_widths!(bind(regime_cost {}, (Wrt,)), regime_cost, p);
    }
    for x in [[1.5, 0.6], [1.5, 0.2], [0.3, 0.8], [-0.9, 0.2]] {
        check_widths!(bind(tuple_guard {}, (Wrt,)), tuple_guard, x);
    }
}

// ---------------------------------------------------------------------------------------
// Casts and float queries.

/// A table looked up with linear interpolation, the cell from a cast.
#[derive_frule]
fn table_lookup(x: &[f64]) -> f64 {
    const TABLE: [f64; 6] = [0.0, 0.8, 1.5, 1.9, 2.1, 2.2];
    let mut s = 0.0;
    for &v in x {
        let u = (v * 5.0).clamp(0.0, 4.999);
        let i = u as usize;
        let f = u - i as f64;
        s += TABLE[i] * (1.0 - f) + TABLE[i + 1] * f;
    }
    s
}

/// Quantisation to 16 levels through an integer, and an `f32` round trip.
#[derive_frule]
fn quantised(x: &[f64]) -> f64 {
    let q = (x[0] * 16.0).round() as i32;
    let lv = q as f64 / 16.0;
    let y = (x[1] as f32 * 2.0f32) as f64;
    let n = x.len() as u32;
    lv * x[1] + y * x[0] + f64::from(n) * x[2] + (x[2] as i64) as f64
}

/// The logarithmic mean, its removable singularity tested against the machine epsilon.
#[derive_frule]
fn log_mean(x: &[f64]) -> f64 {
    let (a, b) = (x[0], x[1]);
    if (a - b).abs() < f64::EPSILON * a.abs().max(b.abs()) {
        a
    } else {
        (a - b) / (a.ln() - b.ln())
    }
}

/// `sin(x)/x` with its limit at 0, and `ln(1 + x)/x`.
#[derive_frule]
fn sinc_like(x: &[f64]) -> f64 {
    let s = if x[0].abs() < f64::EPSILON {
        1.0
    } else {
        x[0].sin() / x[0]
    };
    let l = if x[1].abs() <= f64::EPSILON {
        1.0 - 0.5 * x[1]
    } else {
        x[1].ln_1p() / x[1]
    };
    s * l
}

#[test]
fn casts_and_float_queries() {
    let x = [0.13, 0.52, 0.77, 0.91];
    check_widths!(bind(table_lookup {}, (Wrt,)), table_lookup, x);
    let (_, g) = gradient(bind(table_lookup {}, (Wrt,)), &x);
    // cell i = ⌊5v⌋, slope 5·(T[i+1] − T[i])
    let table = [0.0, 0.8, 1.5, 1.9, 2.1, 2.2];
    for k in 0..4 {
        let i = (x[k] * 5.0) as usize;
        assert_close(g[k], 5.0 * (table[i + 1] - table[i]), 1e-13, "slope");
    }
    let x = [0.3, 1.7, 2.5];
    let y = quantised(&x);
    assert_eq!(
        primal_of(bind(quantised {}, (Wrt,)), &x).to_bits(),
        y.to_bits()
    );
    let (_, g) = gradient(bind(quantised {}, (Wrt,)), &x);
    let lv = (0.3f64 * 16.0).round() / 16.0;
    let yy = (1.7f64 as f32 * 2.0f32) as f64;
    assert_close(g[0], yy, 1e-15, "d/dx0");
    assert_close(g[1], lv + 2.0 * x[0], 1e-6, "d/dx1");
    assert_close(g[2], 3.0, 1e-15, "d/dx2");
    for x in [[2.0, 0.5], [0.7, 1.9]] {
        check_widths!(bind(log_mean {}, (Wrt,)), log_mean, x);
    }
    let x = [0.4, 0.3];
    check_widths!(bind(sinc_like {}, (Wrt,)), sinc_like, x);
    // At 0 the limits are the branches written: 1 and 1 - x/2.
    let (v, g) = gradient(bind(sinc_like {}, (Wrt,)), &[0.0, 0.0]);
    assert_eq!(v, 1.0);
    assert_eq!(g, [0.0, -0.5]);
}

// ---------------------------------------------------------------------------------------
// Kinks, ties and awkward bases.

/// A Huber loss of residuals, with a plain `abs` term.
#[derive_frule]
fn huber(x: &[f64]) -> f64 {
    let delta = 1.0;
    let mut s = 0.0;
    for &r in x {
        let a = r.abs();
        s += if a <= delta {
            0.5 * r * r
        } else {
            delta * (a - 0.5 * delta)
        };
        s += 0.1 * a;
    }
    s
}

/// Odd and fractional powers of signed values, as a signed power law writes them.
#[derive_frule]
fn signed_powers(x: &[f64]) -> f64 {
    let a = x[0].powi(3) + x[0].powi(-2);
    let b = x[1].powf(3.0);
    let c = x[1].abs().powf(1.5) * x[1].signum();
    let d = x[2].max(0.0).powf(2.5);
    let e = x[2].max(0.0).powf(x[0] * x[0] + 1.0);
    a + b + c + d + e
}

/// Distances and bearings on the axes.
#[derive_frule]
fn bearing(x: &[f64]) -> f64 {
    let r = x[0].hypot(x[1]);
    let th = x[1].atan2(x[0]);
    let phi = f64::atan2(x[1] * x[1], x[0]);
    r * th + phi + x[0].hypot(3.0)
}

/// Saturations: clamp, min and max at ties.
#[derive_frule]
fn saturate(x: &[f64]) -> f64 {
    let a = x[0].clamp(-1.0, 1.0);
    let b = x[1].max(x[2]);
    let c = x[1].min(x[2]);
    let d = f64::max(x[0], 0.0);
    a * 3.0 + b * 5.0 + c * 7.0 + d
}

#[test]
fn kinks_ties_and_bases() {
    let x = [0.3, -0.7, 2.0, -1.5];
    check_widths!(bind(huber {}, (Wrt,)), huber, x);
    // abs'(0) = 0: at r = 0 the derivative is 0.5·2·0 + 0.1·0.
    let (v, g) = gradient(bind(huber {}, (Wrt,)), &[0.0, -0.0, 1.0]);
    assert_eq!(v.to_bits(), huber(&[0.0, -0.0, 1.0]).to_bits());
    assert_eq!(g[0], 0.0);
    assert_eq!(g[1], 0.0);
    assert_close(
        g[2],
        1.0 + 0.1,
        1e-15,
        "at the Huber kink, the quadratic arm",
    );
    for x in [[-1.3, -0.8, 0.7], [0.9, -2.0, 1.2]] {
        check_widths!(bind(signed_powers {}, (Wrt,)), signed_powers, x);
    }
    // A negative third argument: its max is 0, whose powers are flat.
    let x = [-1.3, -0.8, -0.7];
    let (v, g) = gradient(bind(signed_powers {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), signed_powers(&x).to_bits());
    let want0 = 3.0 * x[0] * x[0] - 2.0 * x[0].powi(-3);
    let want1 = 3.0 * x[1] * x[1] + 1.5 * x[1].abs().sqrt();
    assert_close(g[0], want0, 1e-13, "d/dx0");
    assert_close(g[1], want1, 1e-13, "d/dx1");
    assert_eq!(g[2], 0.0);
    let (_, _, h) = hessian(bind(signed_powers {}, (Wrt,)), &x);
    assert_close(h[(0, 0)], 6.0 * x[0] + 6.0 * x[0].powi(-4), 1e-12, "h00");
    assert_eq!(h[(2, 2)], 0.0);
    assert_eq!(h[(0, 2)], 0.0);
    for x in [[1.2, 0.7], [-1.2, 0.7], [-1.2, -0.7], [0.5, -2.0]] {
        check_widths!(bind(bearing {}, (Wrt,)), bearing, x);
    }
    // On the negative axis: atan2(±0, x<0) = ±π, its derivative -y/r² = 0 and x/r² in y.
    for y0 in [0.0, -0.0] {
        let x = [-2.0, y0];
        let (v, g) = gradient(bind(bearing {}, (Wrt,)), &x);
        assert_eq!(v.to_bits(), bearing(&x).to_bits());
        let th = y0.atan2(-2.0);
        // r·θ: ∂/∂x = θ·(x/r) + r·(-y/r²) = -θ; ∂/∂y = θ·(y/r) + r·(x/r²) = -1; φ: (0, 0).
        assert_close(
            g[0],
            -th + (-2.0 / 13f64.sqrt()),
            1e-14,
            "on the axis: d/dx",
        );
        assert_close(g[1], -1.0, 1e-14, "on the axis: d/dy");
    }
    for x in [[0.4, 0.3, 1.2], [-2.0, 1.5, -0.5]] {
        check_widths!(bind(saturate {}, (Wrt,)), saturate, x);
    }
    // Ties: every mode the same as one direction.
    for x in [[1.0, 0.5, 0.5], [-1.0, 2.0, 2.0], [0.0, -0.0, 0.0]] {
        let y = saturate(&x);
        let mut one = vec![];
        for k in 0..3 {
            let mut e = [0.0; 3];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp(bind(saturate {}, (Wrt,)), &x, &e);
            assert_eq!(v.to_bits(), y.to_bits());
            one.push(d);
        }
        let (_, g1) = fwdad::drivers::gradient_with::<1>(bind(saturate {}, (Wrt,)), &x);
        let (_, g8) = fwdad::drivers::gradient_with::<8>(bind(saturate {}, (Wrt,)), &x);
        let (_, g2, _) = fwdad::drivers::hessian_with::<2>(bind(saturate {}, (Wrt,)), &x);
        for k in 0..3 {
            same(g1[k], one[k], 0.0, "1 lane at a tie");
            same(g8[k], one[k], 0.0, "8 lanes at a tie");
            same(g2[k], one[k], 0.0, "second order at a tie");
        }
        // max and min at a tie split their tangents: 5·½ + 7·½ on each of x1 and x2.
        if x[1] == x[2] {
            assert_close(one[1], 6.0, 1e-15, "tie d/dx1");
            assert_close(one[2], 6.0, 1e-15, "tie d/dx2");
        }
    }
}

// ---------------------------------------------------------------------------------------
// A struct's array field written through `&mut`.

#[derive(Differentiable, Clone, Debug)]
struct Body {
    pos: [f64; 2],
    vel: [f64; 2],
    mass: f64,
}

#[derive_frule]
fn kick(b: &mut Body, f: [f64; 2], dt: f64) {
    for k in 0..2 {
        b.vel[k] += dt * f[k] / b.mass;
    }
}

#[derive_frule]
fn drift(b: &mut Body, dt: f64) {
    let v = b.vel;
    let p = &mut b.pos;
    p[0] += dt * v[0];
    p[1] += dt * v[1];
}

#[derive_frule]
fn orbit_end(p: &[f64]) -> f64 {
    let mut b = Body {
        pos: [p[0], 0.0],
        vel: [0.0, p[1]],
        mass: p[2],
    };
    for _ in 0..5 {
        let r2 = b.pos[0] * b.pos[0] + b.pos[1] * b.pos[1];
        let r3 = r2 * r2.sqrt();
        let f = [-b.mass * b.pos[0] / r3, -b.mass * b.pos[1] / r3];
        kick(&mut b, f, 0.05);
        drift(&mut b, 0.05);
        // The position read right after it is written, the velocity damped in place.
        b.vel[0] *= 1.0 - 0.01 * b.pos[0].abs();
    }
    b.pos[0] * b.vel[1] - b.pos[1] * b.vel[0]
}

#[test]
fn struct_array_field_through_mut() {
    let p = [1.0, 0.9, 1.3];
    check_widths!(bind(orbit_end {}, (Wrt,)), orbit_end, p);
}

// ---------------------------------------------------------------------------------------
// Stateful closures.

/// Successive differences by a closure holding the last value; the last value read after.
#[derive_frule]
fn jerk_energy(x: &[f64]) -> f64 {
    let mut prev = x[0];
    let mut diff = |v: f64| {
        let d = v - prev;
        prev = v;
        d
    };
    let mut e = 0.0;
    for &v in &x[1..] {
        let d = diff(v);
        e += d * d;
    }
    e + prev
}

/// A trapezoid integrator returned as `impl FnMut`, the last sample kept with a flag.
#[derive_frule]
fn integrator(dt: f64) -> impl FnMut(f64) -> f64 {
    let mut acc = 0.0;
    let mut last = 0.0;
    let mut started = false;
    move |v| {
        if started {
            acc += 0.5 * dt * (last + v);
        }
        last = v;
        started = true;
        acc
    }
}

#[derive_frule]
fn integrated(p: &[f64]) -> f64 {
    let mut int = integrator(p[0]);
    let mut area = 0.0;
    for &v in &p[1..] {
        area = int(v.sin());
    }
    area
}

/// A counter and a maximum kept by one closure, both read after the loop.
#[derive_frule]
fn peak_tracker(x: &[f64]) -> f64 {
    let mut n = 0;
    let mut peak = f64::NEG_INFINITY;
    let mut see = |v: f64| {
        n += 1;
        if v > peak {
            peak = v;
        }
        peak * n as f64
    };
    let mut s = 0.0;
    for &v in x {
        s += see(v * v);
    }
    s + peak / n as f64
}

#[test]
fn stateful_closures() {
    let x = [0.4, 1.0, -0.3, 0.8, 1.5];
    check_widths!(bind(jerk_energy {}, (Wrt,)), jerk_energy, x);
    let p = [0.1, 0.3, 0.9, 1.4, 0.2];
    check_widths!(bind(integrated {}, (Wrt,)), integrated, p);
    // Closed form: dt/2 · Σ (sin vᵢ + sin vᵢ₊₁); ∂/∂dt is that over dt.
    let (v, g) = gradient(bind(integrated {}, (Wrt,)), &p);
    let s: Vec<f64> = p[1..].iter().map(|v| v.sin()).collect();
    let sum: f64 = s.windows(2).map(|w| w[0] + w[1]).sum();
    assert_close(g[0], 0.5 * sum, 1e-14, "d/dt");
    assert_close(v, 0.5 * p[0] * sum, 1e-14, "value");
    let x = [0.4, 1.0, -0.3, 0.8, 1.5];
    check_widths!(bind(peak_tracker {}, (Wrt,)), peak_tracker, x);
}

// ---------------------------------------------------------------------------------------
// Sorting with comparators.

/// The median.
#[derive_frule]
fn median(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 0 {
        (v[n / 2 - 1] + v[n / 2]) * 0.5
    } else {
        v[n / 2]
    }
}

/// Points sorted by distance from an active centre, the three nearest weighted.
#[derive_frule]
fn nearest_three(p: &[f64]) -> f64 {
    let c = p[0];
    let mut pts: Vec<(f64, f64)> = p[1..].chunks(2).map(|q| (q[0], q[1])).collect();
    pts.sort_by(|a, b| {
        let da = (a.0 - c).powi(2) + a.1 * a.1;
        let db = (b.0 - c).powi(2) + b.1 * b.1;
        da.total_cmp(&db)
    });
    pts.iter()
        .take(3)
        .enumerate()
        .map(|(k, q)| (3 - k) as f64 * (q.0 - c).hypot(q.1))
        .sum()
}

/// Magnitudes descending.
#[derive_frule]
fn by_magnitude(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.iter().map(|a| a * 1.5).collect();
    v.sort_by(|a, b| b.abs().total_cmp(&a.abs()));
    let mut s = 0.0;
    for (k, a) in v.iter().enumerate() {
        s += a / (k as f64 + 1.0);
    }
    s
}

#[derive(Differentiable, Clone, Debug)]
struct Sample {
    t: f64,
    y: f64,
}

/// Samples sorted by time, then integrated by trapezoids.
#[derive_frule]
fn sorted_trapezoid(p: &[f64]) -> f64 {
    let mut s: Vec<Sample> = p
        .chunks_exact(2)
        .map(|c| Sample { t: c[0], y: c[1] })
        .collect();
    s.sort_by(|a, b| a.t.partial_cmp(&b.t).unwrap_or(Ordering::Equal));
    let mut area = 0.0;
    for w in s.windows(2) {
        area += 0.5 * (w[1].t - w[0].t) * (w[0].y + w[1].y);
    }
    area
}

#[test]
fn sorting_with_comparators() {
    for x in [vec![0.3, -1.0, 2.0, 0.7, 1.1], vec![0.3, -1.0, 2.0, 0.7]] {
        check_widths!(bind(median {}, (Wrt,)), median, x);
    }
    let p = [0.2, 1.0, 0.3, -0.5, 0.8, 2.0, -0.1, 0.4, 0.2, -1.5, 1.0];
    check_widths!(bind(nearest_three {}, (Wrt,)), nearest_three, p);
    let x = [0.3, -1.0, 2.0, 0.7, -1.1];
    check_widths!(bind(by_magnitude {}, (Wrt,)), by_magnitude, x);
    let p = [0.5, 1.0, 0.1, 2.0, 0.9, -1.0, 0.3, 0.5];
    check_widths!(bind(sorted_trapezoid {}, (Wrt,)), sorted_trapezoid, p);
}

// ---------------------------------------------------------------------------------------
// Accumulators with loop-invariant roots.

/// A softmax-weighted running statistic: the sum read inside its loop.
#[derive_frule]
fn running_softmax(v: &[f64]) -> f64 {
    let mut mx = v[0];
    for &a in v {
        mx = mx.max(a);
    }
    let mut s = 0.0;
    let mut c = 0.0;
    for i in 0..v.len() {
        s += (v[i] - mx).exp();
        c += s * v[i];
    }
    c / s
}

/// A sum left by `break` once it passes a bound, then logged.
#[derive_frule]
fn capped_sum(p: &[f64]) -> f64 {
    let mu = p[0];
    let mut s = 0.0;
    for i in 1..p.len() {
        s += ((p[i] - mu) * 2.0).exp();
        if s > 3.0 {
            break;
        }
    }
    s.ln()
}

/// A sum returned from inside its loop.
#[derive_frule]
fn early_return_sum(p: &[f64]) -> f64 {
    let mu = p[0];
    let sigma = p[1];
    let mut s = 0.0;
    for i in 2..p.len() {
        let z = (p[i] - mu) / sigma;
        s += z * z;
        if p[i] < 0.0 {
            return s.sqrt();
        }
    }
    s
}

/// A per-row sum reset in the outer loop, its shift the row's mean.
#[derive_frule]
fn row_logsumexp(x: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut s = 0.0;
    for r in 0..x.len() / 3 {
        let row = &x[3 * r..3 * r + 3];
        let m = (row[0] + row[1] + row[2]) / 3.0;
        s = 0.0;
        for j in 0..3 {
            s += (row[j] - m).exp();
        }
        total += s.ln() + m;
    }
    total + s
}

/// A sum whose invariant root is reassigned in the loop (a running baseline).
#[derive_frule]
fn moving_baseline(p: &[f64]) -> f64 {
    let mut base = p[0];
    let mut s = 0.0;
    for i in 1..p.len() {
        s += (p[i] - base).powi(2);
        base = 0.5 * (base + p[i]);
    }
    s
}

/// The variance about the mean, each term scaled by an active factor: a second sum over
/// the same roots and a product of two accumulators.
#[derive_frule]
fn two_accumulators(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let k = x[0].exp();
    let mut s2 = 0.0;
    let mut s4 = 0.0;
    for i in 0..x.len() {
        let d = x[i] - mean;
        s2 += k * d * d;
        s4 += d * d * d * d / k;
    }
    s4 / (s2 * s2)
}

#[test]
fn accumulators_with_invariant_roots() {
    let v = [0.3, -1.2, 2.5, 0.7, 2.4];
    check_widths!(bind(running_softmax {}, (Wrt,)), running_softmax, v);
    for p in [vec![0.5, 0.1, 0.9, 0.2, 1.5, 0.3], vec![0.5, 0.1, 0.2, 0.3]] {
        check_widths!(bind(capped_sum {}, (Wrt,)), capped_sum, p);
    }
    for p in [
        vec![0.5, 1.5, 0.1, 0.9, -0.2, 1.5],
        vec![0.5, 1.5, 0.1, 0.9, 0.2, 1.5],
    ] {
        check_widths!(bind(early_return_sum {}, (Wrt,)), early_return_sum, p);
    }
    let x = [0.3, -1.2, 2.5, 0.7, 2.4, 0.1, -0.5, 0.9, 1.3];
    check_widths!(bind(row_logsumexp {}, (Wrt,)), row_logsumexp, x);
    let p = [0.2, 1.0, -0.5, 0.8, 1.6, 0.1];
    check_widths!(bind(moving_baseline {}, (Wrt,)), moving_baseline, p);
    let x = [0.3, -1.2, 2.5, 0.7, 2.4, 0.1];
    check_widths!(bind(two_accumulators {}, (Wrt,)), two_accumulators, x);
}

// ---------------------------------------------------------------------------------------
// Traits, blanket impls and generic constructors.

#[derive_frule]
trait Planar {
    fn xy(&self) -> [f64; 2];
}

#[derive_frule]
trait Polar {
    fn radius(&self) -> f64;
    fn angle(&self) -> f64;
}

#[derive_frule]
impl<T: Planar> Polar for T {
    fn radius(&self) -> f64 {
        let [x, y] = self.xy();
        x.hypot(y)
    }
    fn angle(&self) -> f64 {
        let [x, y] = self.xy();
        y.atan2(x)
    }
}

#[derive(Differentiable, Clone, Copy, Debug)]
struct Joint {
    len: f64,
    theta: f64,
}

#[derive_frule]
impl Planar for Joint {
    fn xy(&self) -> [f64; 2] {
        [self.len * self.theta.cos(), self.len * self.theta.sin()]
    }
}

#[derive(Differentiable, Clone, Copy, Debug)]
struct Offset {
    dx: f64,
    dy: f64,
}

/// The offset's own length, named like the blanket impl's method (inherent methods come
/// first in Rust's method resolution).
#[derive_frule]
impl Offset {
    fn radius(&self) -> f64 {
        self.dx.hypot(self.dy)
    }
}

#[derive_frule]
impl Planar for Offset {
    fn xy(&self) -> [f64; 2] {
        [self.dx + 1.0, self.dy]
    }
}

/// The angle difference of two planar things, through the blanket impl.
#[derive_frule]
fn relative_polar<A: Planar, B: Planar>(a: &A, b: &B) -> f64 {
    (a.angle() - b.angle()) * a.radius() / b.radius()
}

#[derive_frule]
fn two_frames(p: &[f64]) -> f64 {
    let j = Joint {
        len: p[0],
        theta: p[1],
    };
    let o = Offset { dx: p[2], dy: p[3] };
    relative_polar(&j, &o) + j.radius() * o.angle() + o.radius()
}

/// A fixed-size polynomial with a generic constructor from its roots.
#[derive(Differentiable, Clone, Copy, Debug)]
struct Poly<const N: usize> {
    c: [f64; N],
}

#[derive_frule]
impl<const N: usize> Poly<N> {
    fn zero() -> Self {
        Poly { c: [0.0; N] }
    }
    /// `∏ (t − rᵢ)` for the first N − 1 roots (the leading coefficient last).
    fn from_roots(r: &[f64]) -> Self {
        let mut p = Self::zero();
        p.c[0] = 1.0;
        for (k, &root) in r.iter().enumerate().take(N - 1) {
            for i in (1..=k + 1).rev() {
                p.c[i] = p.c[i - 1] - root * p.c[i];
            }
            p.c[0] = -root * p.c[0];
        }
        p
    }
    fn eval(&self, t: f64) -> f64 {
        let mut y = 0.0;
        for k in (0..N).rev() {
            y = y * t + self.c[k];
        }
        y
    }
}

#[derive_frule]
fn root_poly(p: &[f64]) -> f64 {
    let q = Poly::<4>::from_roots(&p[1..]);
    q.eval(p[0])
}

#[test]
fn traits_blanket_impls_and_constructors() {
    let p = [1.3, 0.4, 0.2, -0.7];
    check_widths!(bind(two_frames {}, (Wrt,)), two_frames, p);
    // ∏ (t − rᵢ): ∂/∂rᵢ = −∏_{j≠i} (t − rⱼ), ∂/∂t = Σ_i ∏_{j≠i}.
    let p = [1.3, 0.4, -0.2, 2.0];
    let y = root_poly(&p);
    let d: Vec<f64> = p[1..].iter().map(|r| p[0] - r).collect();
    assert_close(y, d[0] * d[1] * d[2], 1e-14, "value");
    let (_, g) = gradient(bind(root_poly {}, (Wrt,)), &p);
    assert_close(g[0], d[1] * d[2] + d[0] * d[2] + d[0] * d[1], 1e-13, "d/dt");
    assert_close(g[1], -d[1] * d[2], 1e-13, "d/dr0");
    check_widths!(bind(root_poly {}, (Wrt,)), root_poly, p);
}

// ---------------------------------------------------------------------------------------
// Types imported from modules, renamed and re-exported.

mod geom {
    pub mod vec2 {
        use fwdad::prelude::*;

        #[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
        pub struct V2 {
            pub x: f64,
            pub y: f64,
        }

        #[derive_frule]
        impl V2 {
            pub fn new(x: f64, y: f64) -> Self {
                V2 { x, y }
            }
            pub fn dot(self, o: V2) -> f64 {
                self.x * o.x + self.y * o.y
            }
            pub fn perp(self) -> V2 {
                V2 {
                    x: -self.y,
                    y: self.x,
                }
            }
        }

        #[derive_frule]
        impl std::ops::Sub for V2 {
            type Output = V2;
            fn sub(self, o: V2) -> V2 {
                V2 {
                    x: self.x - o.x,
                    y: self.y - o.y,
                }
            }
        }
    }
    pub use vec2::V2;
}

mod polygon {
    use crate::geom::V2 as P;
    use fwdad::prelude::*;

    /// The shoelace area of a polygon given as flat coordinates.
    #[derive_frule]
    pub fn area(c: &[f64]) -> f64 {
        let n = c.len() / 2;
        let pts: Vec<P> = (0..n).map(|i| P::new(c[2 * i], c[2 * i + 1])).collect();
        let mut a = 0.0;
        for i in 0..n {
            let p = pts[i];
            let q = pts[(i + 1) % n];
            a += p.perp().dot(q);
        }
        0.5 * a
    }

    /// The distance of a point from a segment, with a struct pattern of the renamed type.
    #[derive_frule]
    pub fn seg_dist(c: &[f64]) -> f64 {
        let a = P { x: c[0], y: c[1] };
        let b = P::new(c[2], c[3]);
        let p = P { x: c[4], y: 0.5 };
        let d = b - a;
        let t = ((p - a).dot(d) / d.dot(d)).clamp(0.0, 1.0);
        let P { x, y } = p - P::new(a.x + t * d.x, a.y + t * d.y);
        x.hypot(y)
    }
}

#[test]
fn imported_and_renamed_types() {
    // A unit square scaled by (1 + s): ∂A/∂(its coordinates) in closed form.
    let c = [0.0, 0.0, 1.2, 0.0, 1.3, 0.9, -0.1, 1.1];
    let area = polygon::area(&c);
    let (v, g) = gradient(polygon::area {}, &c[..]);
    assert_eq!(v.to_bits(), area.to_bits());
    // ∂A/∂xᵢ = (y_{i+1} − y_{i−1})/2, ∂A/∂yᵢ = (x_{i−1} − x_{i+1})/2.
    let n = 4;
    for i in 0..n {
        let (nx, ny) = (c[2 * ((i + 1) % n)], c[2 * ((i + 1) % n) + 1]);
        let (px, py) = (c[2 * ((i + n - 1) % n)], c[2 * ((i + n - 1) % n) + 1]);
        assert_close(g[2 * i], 0.5 * (ny - py), 1e-15, "dA/dx");
        assert_close(g[2 * i + 1], 0.5 * (px - nx), 1e-15, "dA/dy");
    }
    check_widths!(polygon::area {}, polygon::area, c);
    for c in [
        [0.0, 0.0, 2.0, 0.2, 0.7],
        [0.0, 0.0, 2.0, 0.2, -0.7],
        [0.0, 0.0, 2.0, 0.2, 2.9],
    ] {
        check_widths!(polygon::seg_dist {}, polygon::seg_dist, c);
    }
}

// ---------------------------------------------------------------------------------------
// More closures and iterative solvers.

/// Two filters from one constructor, interleaved: each keeps its own state.
#[derive_frule]
fn smoother(alpha: f64) -> impl FnMut(f64) -> f64 {
    let mut y = 0.0;
    let mut first = true;
    move |x| {
        if first {
            y = x;
            first = false;
        } else {
            y += alpha * (x - y);
        }
        y
    }
}

#[derive_frule]
fn two_filters(p: &[f64]) -> f64 {
    let mut fast = smoother(p[0]);
    let mut slow = smoother(p[1]);
    let mut cross = 0.0;
    for &x in &p[2..] {
        let f = fast(x);
        let s = slow(x);
        cross += (f - s) * (f - s);
    }
    cross + fast(0.0) - slow(0.0)
}

/// A callback taking `FnMut`, its captured state read after it returns.
#[derive_frule]
fn for_each_pair<F: FnMut(f64, f64)>(x: &[f64], mut f: F) {
    for w in x.windows(2) {
        f(w[0], w[1]);
    }
}

#[derive_frule]
fn path_length(x: &[f64]) -> f64 {
    let mut len = 0.0;
    let mut longest = 0.0;
    for_each_pair(x, |a, b| {
        let d = (1.0 + (b - a) * (b - a)).sqrt();
        len += d;
        if d > longest {
            longest = d;
        }
    });
    len + longest
}

/// Newton's square root, stopped at the machine epsilon.
#[derive_frule]
fn newton_sqrt(a: f64) -> f64 {
    let mut x = if a > 1.0 { a } else { 1.0 };
    loop {
        let nx = 0.5 * (x + a / x);
        if (nx - x).abs() <= f64::EPSILON * nx {
            return nx;
        }
        x = nx;
    }
}

#[derive_frule]
fn newton_roots(p: &[f64]) -> f64 {
    p.iter().map(|&a| newton_sqrt(a) * a).sum()
}

/// Smoothstep by float range patterns and a guard.
#[derive_frule]
fn smoothstep_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        s += match v {
            t if t < 0.0 => 0.0,
            0.0..=1.0 => v * v * (3.0 - 2.0 * v),
            _ => 1.0 + 0.1 * (v - 1.0),
        };
    }
    s
}

/// Polynomials at 0: powers of 0 by `powi` of a loop index.
#[derive_frule]
fn series_at(p: &[f64]) -> f64 {
    let t = p[0];
    let mut s = 0.0;
    for (k, c) in p[1..].iter().enumerate() {
        s += c * t.powi(k as i32);
    }
    s + t.powf(2.0) + t.powi(3)
}

#[test]
fn closures_and_solvers() {
    let p = [0.6, 0.1, 1.0, 0.4, -0.3, 0.8];
    check_widths!(bind(two_filters {}, (Wrt,)), two_filters, p);
    let x = [0.1, 0.9, 0.4, 1.6, 1.2];
    check_widths!(bind(path_length {}, (Wrt,)), path_length, x);
    // d(a·√a)/da = 1.5·√a.
    let p = [0.3, 2.0, 7.5, 1.7];
    let (v, g) = gradient(bind(newton_roots {}, (Wrt,)), &p);
    assert_eq!(v.to_bits(), newton_roots(&p).to_bits());
    for k in 0..p.len() {
        assert_close(g[k], 1.5 * p[k].sqrt(), 1e-12, "d(a√a)/da");
    }
    check_widths!(bind(newton_roots {}, (Wrt,)), newton_roots, p);
    let x = [-0.5, 0.3, 0.7, 1.4];
    check_widths!(bind(smoothstep_sum {}, (Wrt,)), smoothstep_sum, x);
    // At t = 0: ∂/∂t = c₁, ∂²/∂t² = 2c₂ + 2 (t^2 by powf).
    let p = [0.0, 0.5, -1.5, 2.0, 0.25];
    check_widths!(bind(series_at {}, (Wrt,)), series_at, p);
    let (_, g, h) = hessian(bind(series_at {}, (Wrt,)), &p);
    assert_eq!(g[0], -1.5);
    assert_eq!(h[(0, 0)], 2.0 * 2.0 + 2.0);
    assert_eq!(h[(0, 2)], 1.0);
    let p = [0.0, 2.0, -1.0, 0.5, 3.0];
    check_widths!(bind(poly_rev {}, (Wrt,)), poly_rev, p);
}

// ---------------------------------------------------------------------------------------
// Reversed, zipped and chunked walks; writes through iterators.

/// A causal FIR filter: output k convolves the last taps with the kernel reversed.
#[derive_frule]
fn fir_last(p: &[f64]) -> f64 {
    let h = &p[..3];
    let x = &p[3..];
    let mut out = 0.0;
    for k in 2..x.len() {
        let y: f64 = x[k - 2..=k]
            .iter()
            .zip(h.iter().rev())
            .map(|(a, b)| a * b)
            .sum();
        out += y * y;
    }
    out
}

/// Indices from the back, skipping the first element.
#[derive_frule]
fn back_skip(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate().skip(1).rev() {
        s = s * 0.5 + (i as f64) * v.exp();
    }
    let mut t = 0.0;
    for (k, c) in x.chunks(2).rev().enumerate() {
        t += (k as f64 + 1.0) * c[0] * c[c.len() - 1];
    }
    let u: f64 = x
        .windows(2)
        .rev()
        .enumerate()
        .map(|(k, w)| (k as f64) * (w[0] - w[1]))
        .sum();
    s + t + u
}

/// Suffix sums in place, then the first and last elements nudged through `first_mut` and
/// `last_mut`, the ends swapped.
#[derive_frule]
fn suffix_sums(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let mut acc = 0.0;
    for e in v.iter_mut().rev() {
        acc += *e;
        *e = acc * acc;
    }
    if let Some(f) = v.first_mut() {
        *f *= 0.5;
    }
    *v.last_mut().unwrap() += x[0];
    let n = v.len();
    v.swap(0, n - 1);
    v.iter()
        .enumerate()
        .map(|(i, a)| (i as f64 + 1.0) * a)
        .sum()
}

/// Two halves swapped element by element, then scaled in place.
#[derive_frule]
fn half_swap(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let h = v.len() / 2;
    let (a, b) = v.split_at_mut(h);
    std::mem::swap(&mut a[0], &mut b[0]);
    for (p, q) in a.iter_mut().zip(b.iter()) {
        *p = *p * 2.0 - q;
    }
    b[h - 1] += a[0] * a[h - 1];
    v.iter().map(|t| t.sin()).sum()
}

/// A worklist: intervals split while they are long, lengths of the short ones summed with
/// their midpoints' squares.
#[derive_frule]
fn bisect_all(p: &[f64]) -> f64 {
    let mut stack = vec![(p[0], p[1])];
    let mut total = 0.0;
    while let Some((a, b)) = stack.pop() {
        if b - a > 0.3 {
            let m = 0.5 * (a + b);
            stack.push((a, m));
            stack.push((m, b));
        } else {
            let m = 0.5 * (a + b);
            total += (b - a) * m * m;
        }
    }
    total
}

/// A search for the first pair whose product passes a level, by labelled `break` with a
/// value.
#[derive_frule]
fn first_pair(x: &[f64]) -> f64 {
    let level = x[0];
    let found = 'outer: loop {
        for i in 1..x.len() {
            for j in i + 1..x.len() {
                if x[i] * x[j] > level {
                    break 'outer x[i] * x[j] - level + (i * 10 + j) as f64;
                }
            }
        }
        break -level;
    };
    found * found
}

#[test]
fn reversed_zipped_chunked() {
    let p = [0.5, -0.25, 0.125, 1.0, 0.3, -0.8, 1.2, 0.6];
    check_widths!(bind(fir_last {}, (Wrt,)), fir_last, p);
    for x in [vec![0.4, -1.1, 0.7, 2.0, 0.3], vec![0.4, -1.1, 0.7, 2.0]] {
        check_widths!(bind(back_skip {}, (Wrt,)), back_skip, x);
    }
    let x = [0.4, -1.1, 0.7, 2.0, 0.3];
    check_widths!(bind(suffix_sums {}, (Wrt,)), suffix_sums, x);
    let x = [0.4, -1.1, 0.7, 2.0, 0.3, 0.9];
    check_widths!(bind(half_swap {}, (Wrt,)), half_swap, x);
    let p = [0.1, 1.0];
    check_widths!(bind(bisect_all {}, (Wrt,)), bisect_all, p);
    for x in [vec![0.5, 0.3, 0.9, 1.1], vec![5.0, 0.3, 0.9, 1.1]] {
        check_widths!(bind(first_pair {}, (Wrt,)), first_pair, x);
    }
}

// ---------------------------------------------------------------------------------------
// `&mut self` on array fields, fields walked together.

#[derive(Differentiable, Clone, Debug)]
struct Cloth {
    pos: [f64; 4],
    vel: [f64; 4],
    k: f64,
}

#[derive_frule]
impl Cloth {
    fn forces(&self) -> [f64; 4] {
        let mut f = [0.0; 4];
        for i in 0..3 {
            let s = self.k * (self.pos[i + 1] - self.pos[i] - 1.0);
            f[i] += s;
            f[i + 1] -= s;
        }
        f
    }

    fn step(&mut self, dt: f64) {
        let f = self.forces();
        for (v, fi) in self.vel.iter_mut().zip(f.iter()) {
            *v += dt * fi;
        }
        for (p, v) in self.pos.iter_mut().zip(self.vel.iter()) {
            *p += dt * v;
        }
        // Pin the first node, reading what was just written.
        self.vel[0] = 0.0;
        self.pos[0] = self.pos[1] - 1.0 - self.vel[1] * dt;
    }

    fn energy(&self) -> f64 {
        let mut e = 0.0;
        for i in 0..3 {
            let s = self.pos[i + 1] - self.pos[i] - 1.0;
            e += 0.5 * self.k * s * s;
        }
        e + 0.5 * self.vel.iter().map(|v| v * v).sum::<f64>()
    }
}

#[derive_frule]
fn cloth_run(p: &[f64]) -> f64 {
    let mut c = Cloth {
        pos: [0.0, p[0], p[1], p[2]],
        vel: [0.0; 4],
        k: p[3],
    };
    for _ in 0..6 {
        c.step(0.05);
    }
    c.energy() + c.pos[3]
}

#[test]
fn array_fields_through_mut_self() {
    let p = [1.1, 2.3, 2.9, 4.0];
    check_widths!(bind(cloth_run {}, (Wrt,)), cloth_run, p);
}

// ---------------------------------------------------------------------------------------
// Chains whose closure keeps state, skipped and stepped.

/// A Markov chain's mean after a burn-in, thinned: the chain advanced by a closure over
/// its state (`std` runs a `map`'s closure on the items `skip` and `step_by` pass over).
#[derive_frule]
fn chain_mean(p: &[f64]) -> f64 {
    let (rho, sigma) = (p[0], p[1]);
    let mut state = p[2];
    let mut k = 0;
    let total: f64 = (0..40)
        .map(|_| {
            k += 1;
            state = rho * state + sigma * ((k as f64) * 0.7).sin();
            state
        })
        .skip(10)
        .step_by(3)
        .sum();
    total / 10.0 + state
}

/// The same with a `for` loop over the chain, the burn-in by `skip` alone.
#[derive_frule]
fn chain_burn_in(p: &[f64]) -> f64 {
    let mut x = p[0];
    let a = p[1];
    let mut sum = 0.0;
    for v in (0..12)
        .map(|i| {
            x = a * x + 0.1 * i as f64;
            x * x
        })
        .skip(4)
    {
        sum += v;
    }
    sum + x
}

/// A generator of the user's whose `&mut self` method draws each sample.
#[derive(Differentiable, Clone, Debug)]
struct Lcg {
    state: u64,
}

#[derive_frule]
impl Lcg {
    fn uniform(&mut self) -> f64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Monte Carlo with a burn-in and thinning, the draws from a generator the closure
/// borrows, a bound closure advancing a random walk.
#[derive_frule]
fn walk_average(p: &[f64]) -> f64 {
    let mut rng = Lcg { state: 7 };
    let mut pos = p[0];
    let step = |_: usize| {
        pos += p[1] * (rng.uniform() - 0.5);
        pos * pos
    };
    let thinned: f64 = (0..30).map(step).skip(5).step_by(4).sum();
    let draws: f64 = (0..10).map(|_| rng.uniform() * p[1]).skip(3).sum();
    thinned + draws
}

/// Positive readings after the first two of them, every second one.
#[derive_frule]
fn filtered_then_skipped(x: &[f64]) -> f64 {
    let a: f64 = x.iter().filter(|v| **v > 0.0).skip(2).map(|v| v * v).sum();
    let b: f64 = x
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .step_by(2)
        .map(|v| v.sin())
        .sum();
    let mut c = 0.0;
    let mut k = 0.0;
    for v in x.iter().filter(|v| **v < 1.0).skip(1) {
        k += 1.0;
        c += k * v;
    }
    a + b + c
}

/// A tally kept through a `&mut` parameter by a chain's closure, past a warm-up.
#[derive_frule]
fn tally_after_warmup(x: &[f64], total: &mut f64) -> f64 {
    x.iter()
        .map(|v| {
            *total += v;
            v * v
        })
        .skip(2)
        .sum()
}

#[derive_frule]
fn tally_run(p: &[f64]) -> f64 {
    let mut t = p[0];
    let s = tally_after_warmup(&p[1..], &mut t);
    s * t
}

fn chain_mean_by_hand(p: &[f64]) -> f64 {
    let (rho, sigma) = (p[0], p[1]);
    let mut state = p[2];
    let mut total = 0.0;
    for k in 1..=40 {
        state = rho * state + sigma * ((k as f64) * 0.7).sin();
        if k > 10 && (k - 11) % 3 == 0 {
            total += state;
        }
    }
    total / 10.0 + state
}

#[test]
fn stateful_map_skipped_and_stepped() {
    let p = [0.8, 0.5, 1.0];
    assert_eq!(chain_mean(&p).to_bits(), chain_mean_by_hand(&p).to_bits());
    check_widths!(bind(chain_mean {}, (Wrt,)), chain_mean, p);
}

#[test]
fn stateful_map_burnt_in_by_a_for_loop() {
    let p = [0.5, 0.9];
    check_widths!(bind(chain_burn_in {}, (Wrt,)), chain_burn_in, p);
}

#[test]
fn tally_through_a_mut_reference_skipped() {
    let p = [0.5, 1.0, -2.0, 0.25, 1.5];
    // s = Σ_{i≥2} xᵢ², t = t₀ + Σ xᵢ: every item tallied, the first two not summed.
    let s = 0.25 * 0.25 + 1.5 * 1.5;
    let t = 0.5 + 1.0 - 2.0 + 0.25 + 1.5;
    assert_eq!(tally_run(&p), s * t);
    check_widths!(bind(tally_run {}, (Wrt,)), tally_run, p);
}

#[test]
fn generator_draws_skipped_and_thinned() {
    let p = [0.3, 0.7];
    check_widths!(bind(walk_average {}, (Wrt,)), walk_average, p);
}

#[test]
fn filter_then_skip_and_step_by() {
    let x = [0.5, -0.2, 1.3, 0.8, -1.0, 0.4, 2.2, 0.1, 0.9];
    check_widths!(
        bind(filtered_then_skipped {}, (Wrt,)),
        filtered_then_skipped,
        x
    );
}
