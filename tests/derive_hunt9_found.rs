//! Ninth hunt for wrong primals and derivatives.
//!
//! Found:
//! - A wrong primal (and the derivatives through it): a list of closures mapped by a
//!   chain ending in `sum` (`feats.iter().zip(wy).map(|(f, w)| w * f(t)).sum()`) added
//!   from `0.0`, where `std`'s `Sum for f64` starts at `-0.0`. A sum whose terms are all
//!   `-0.0` (weights still zero, features negative) was `+0.0`, and its `atan2` with a
//!   negative `x` was `π` instead of `−π` (`flow_heading`).
//! - A wrong primal and derivative: one name bound to two cursors of pieces in turn (`let
//!   mut it = x.chunks(3);` read by `next()`, then `let mut it = y.windows(3);`). Each
//!   cursor keeps its size in a local named by its method, and the first one's local is
//!   still in scope under its own name: the second cursor's `next()` found it first and
//!   cut chunks where it should cut windows (`header_then_windows`), or chunks where it
//!   should cut exact chunks (`chunks_then_exact`: the short last chunk was read).
//!
//! The other functions are guards that passed, written as users write them, each in one
//! direction, batches of 1 to 16 lanes and second order against central differences or
//! closed forms, primals bit for bit: adaptors whose order changes which items come out
//! (`step_by(2).rev()`, `(0..n).step_by(3).rev()`, `chunks(2).rev()` starting at the short
//! remainder, `enumerate().rev()` against `rev().enumerate()`, a `zip` with a reversed
//! shorter side, `skip`/`take`/`rev` in both orders, `windows(3).rev()`,
//! `chunks_exact(2).rev()`); partial reads of chains written in place (`rev().position`,
//! `rposition`, `windows(2).position`, `chunks(2).nth(1)`, `max_by`/`min_by` at ties,
//! which keep the last and the first, `skip(1).step_by(2).nth(1)`, `map(..).find(..)`,
//! `rev().skip_while(..).next()`, `filter(..).last()`); cursors held in a `let mut`
//! (`windows` advanced twice in one turn of a `loop`/`match`, a slice cursor's rest
//! counted by `len()`, numbered and reversed).
#![allow(
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::float_cmp,
    clippy::let_and_return,
    clippy::type_complexity,
    clippy::while_let_on_iterator,
    clippy::iter_nth_zero,
    clippy::manual_find,
    clippy::iter_skip_next,
    clippy::skip_while_next,
    clippy::double_ended_iterator_last,
    clippy::while_let_loop
)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::same;

// ---------------------------------------------------------------------------------------
// Adaptors whose order changes which items come out.

/// Every other sample from the end of the ones `step_by` keeps: `step_by(2).rev()` yields
/// indices 4, 2, 0 of six, not 5, 3, 1.
#[derive_frule]
pub fn stepped_back(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut w = 1.0;
    for v in x.iter().step_by(2).rev() {
        s += w * v.sin();
        w *= 2.0;
    }
    s
}

/// The same over a range: `(0..n).step_by(3).rev()` from the last index kept.
#[derive_frule]
pub fn range_stepped_back(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for (k, i) in (0..n).step_by(3).rev().enumerate() {
        s += (k as f64 + 1.0) * x[i] * x[i];
    }
    s
}

/// Frames of a signal from the last: `chunks(2).rev()` starts with the short remainder.
#[derive_frule]
pub fn frames_back(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (k, c) in x.chunks(2).rev().enumerate() {
        let e: f64 = c.iter().map(|v| v * v).sum();
        s += (k as f64 + 1.0) * e / c.len() as f64;
    }
    s
}

/// `enumerate().rev()` keeps the indices; `rev().enumerate()` counts from the back.
#[derive_frule]
pub fn indices_both_ways(x: &[f64]) -> f64 {
    let a: f64 = x
        .iter()
        .enumerate()
        .rev()
        .map(|(i, v)| (i as f64 + 0.5) * v)
        .fold(0.0, |acc, t| 0.5 * acc + t);
    let b: f64 = x
        .iter()
        .rev()
        .enumerate()
        .map(|(i, v)| (i as f64 + 0.5) * v * v)
        .fold(0.0, |acc, t| 0.5 * acc + t);
    a + b
}

/// Two slices of different lengths zipped, one reversed: `zip(y.iter().rev())` pairs the
/// first of `x` with the last of `y`.
#[derive_frule]
pub fn zipped_reversed(x: &[f64]) -> f64 {
    let (a, b) = x.split_at(3);
    let mut s = 0.0;
    for (p, q) in a.iter().zip(b.iter().rev()) {
        s += p * q.cos();
    }
    for (p, q) in a.iter().rev().zip(b) {
        s += 0.5 * p * q * q;
    }
    s
}

/// `skip` and `rev` in both orders, and `take` before `rev`.
#[derive_frule]
pub fn skip_take_rev(x: &[f64]) -> f64 {
    let a = x.iter().skip(2).rev().fold(0.0, |acc, v| acc * 0.5 + v);
    let b = x.iter().rev().skip(2).fold(0.0, |acc, v| acc * 0.5 + v * v);
    let c = x
        .iter()
        .take(3)
        .rev()
        .fold(0.0, |acc, v| acc * 0.3 + v.exp());
    a + b + c
}

/// Windows of three from the last, and exact chunks from the last (the remainder left).
#[derive_frule]
pub fn windows_and_exact_back(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut w = 1.0;
    for win in x.windows(3).rev() {
        s += w * (win[0] - 2.0 * win[1] + win[2]).powi(2);
        w *= 0.5;
    }
    for (k, c) in x.chunks_exact(2).rev().enumerate() {
        s += (k as f64 + 1.0) * c[0] * c[1];
    }
    s
}

// ---------------------------------------------------------------------------------------
// Partial reads of chains written in place.

/// The index, counted from the end, of the last sample above a threshold, as a weight.
#[derive_frule]
pub fn last_above(x: &[f64]) -> f64 {
    let k = x.iter().rev().position(|v| *v > 0.5).unwrap_or(0);
    let j = x.iter().rposition(|v| *v > 0.5).unwrap_or(0);
    (k as f64 + 1.0) * x[j] + (j as f64) * x[0]
}

/// The first descent between neighbours, and the second chunk's last element.
#[derive_frule]
pub fn first_descent(x: &[f64]) -> f64 {
    let i = x.windows(2).position(|w| w[1] < w[0]).unwrap_or(0);
    let c = x.chunks(2).nth(1).unwrap();
    x[i] * x[i + 1] + c[c.len() - 1].sin()
}

/// The peak and its place: `max_by` keeps the last of equal maxima, `min_by` the first.
#[derive_frule]
pub fn peak_place(x: &[f64]) -> f64 {
    let (imax, vmax) = x
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    let (imin, vmin) = x
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .unwrap();
    (imax as f64 + 1.0) * vmax + (imin as f64 + 2.0) * vmin.powi(2)
}

/// Partial reads after adaptors: `skip(1).step_by(2).nth(1)`, `map(..).find(..)`,
/// `rev().skip_while(..).next()`, `filter(..).last()`.
#[derive_frule]
pub fn partial_reads(x: &[f64]) -> f64 {
    let a = *x.iter().skip(1).step_by(2).nth(1).unwrap();
    let b = x.iter().map(|v| v.exp()).find(|e| *e > 2.0).unwrap_or(1.0);
    let c = *x.iter().rev().skip_while(|v| **v < 0.0).next().unwrap();
    let d = *x.iter().filter(|v| **v > 0.0).last().unwrap();
    a * b + c.sin() + d * d
}

// ---------------------------------------------------------------------------------------
// Cursors held in a `let mut` and read by `next()`.

/// A window cursor read by `match` inside `loop`, skipping a window after a rise.
#[derive_frule]
pub fn skip_after_rise(x: &[f64]) -> f64 {
    let mut ws = x.windows(2);
    let mut s = 0.0;
    loop {
        match ws.next() {
            Some(w) => {
                if w[1] > w[0] {
                    s += (w[1] - w[0]).sqrt();
                    ws.next();
                } else {
                    s += w[0] * w[1];
                }
            }
            None => break,
        }
    }
    s
}

/// A slice cursor read once, then what is left counted, reversed and numbered.
#[derive_frule]
pub fn cursor_rest(x: &[f64]) -> f64 {
    let mut it = x.iter();
    let g = *it.next().unwrap();
    let n = it.len() as f64;
    let mut s = g * n;
    for (k, v) in it.enumerate() {
        s += (k as f64 + 1.0) * g * v;
    }
    s
}

/// A slice cursor read once, then the rest reversed.
#[derive_frule]
pub fn cursor_rest_reversed(x: &[f64]) -> f64 {
    let mut it = x.iter();
    let g = *it.next().unwrap();
    let mut s = 0.0;
    for v in it.rev() {
        s = 0.5 * s + g * v;
    }
    s
}

#[test]
fn step_by_then_rev() {
    check_widths!(
        stepped_back {},
        stepped_back,
        [0.3, -0.2, 0.8, 0.1, -0.5, 0.4]
    );
    // By hand: items 4, 2, 0 weighted 1, 2, 4.
    let x = [0.3, -0.2, 0.8, 0.1, -0.5, 0.4];
    assert_eq!(
        stepped_back(&x),
        x[4].sin() + 2.0 * x[2].sin() + 4.0 * x[0].sin()
    );
    let (_, g) = gradient(stepped_back {}, &x[..]);
    assert_eq!(g[5], 0.0);
    assert_close(g[4], x[4].cos(), 1e-15, "d/dx4");
}

#[test]
fn range_step_by_then_rev() {
    // 0..8 step 3 keeps 0, 3, 6; reversed: 6, 3, 0.
    let x = [0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 1.2, 0.7];
    check_widths!(range_stepped_back {}, range_stepped_back, x);
    let (_, g) = gradient(range_stepped_back {}, &x[..]);
    assert_close(g[6], 2.0 * x[6], 1e-15, "d/dx6");
    assert_close(g[0], 6.0 * x[0], 1e-15, "d/dx0");
    assert_eq!(g[7], 0.0);
}

#[test]
fn chunks_then_rev() {
    let x = [0.3, -0.2, 0.8, 0.1, -0.5];
    check_widths!(frames_back {}, frames_back, x);
    let (_, g) = gradient(frames_back {}, &x[..]);
    // The remainder [x4] comes first, weight 1, length 1.
    assert_close(g[4], 2.0 * x[4], 1e-15, "d/dx4");
}

#[test]
fn enumerate_and_rev_orders() {
    check_widths!(
        indices_both_ways {},
        indices_both_ways,
        [0.3, -0.2, 0.8, 0.1, -0.5]
    );
}

#[test]
fn zip_with_a_reversed_side() {
    check_widths!(
        zipped_reversed {},
        zipped_reversed,
        [0.3, -0.2, 0.8, 0.1, -0.5, 0.9, 1.4]
    );
}

#[test]
fn skip_take_and_rev() {
    check_widths!(
        skip_take_rev {},
        skip_take_rev,
        [0.3, -0.2, 0.8, 0.1, -0.5, 0.9]
    );
}

#[test]
fn windows_and_exact_chunks_back() {
    check_widths!(
        windows_and_exact_back {},
        windows_and_exact_back,
        [0.3, -0.2, 0.8, 0.1, -0.5, 0.9, 1.4]
    );
}

#[test]
fn positions_from_the_back() {
    check_widths!(last_above {}, last_above, [0.9, -0.2, 0.8, 0.1, -0.5, 0.3]);
}

#[test]
fn descent_and_nth_chunk() {
    check_widths!(first_descent {}, first_descent, [0.1, 0.4, 0.8, 0.3, -0.5]);
}

#[test]
fn max_and_min_at_ties() {
    // Equal maxima at 1 and 3, equal minima at 0 and 4.
    let x = [-0.5, 0.8, 0.1, 0.8, -0.5];
    let y = peak_place(&x);
    assert_eq!(y, 4.0 * 0.8 + 2.0 * 0.25);
    let (v, g) = gradient(peak_place {}, &x[..]);
    assert_eq!(v.to_bits(), y.to_bits());
    let (v1, _): (f64, f64) = jvp(peak_place {}, &x[..], &[1.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(v1.to_bits(), y.to_bits());
    // The derivative flows to the element chosen: index 3 and index 0.
    assert_eq!(g[3], 4.0);
    assert_eq!(g[1], 0.0);
    assert_eq!(g[0], 2.0 * 2.0 * -0.5);
    assert_eq!(g[4], 0.0);
    check_widths!(peak_place {}, peak_place, [-0.5, 0.8, 0.1, 0.7, -0.4]);
}

#[test]
fn partial_reads_of_chains() {
    check_widths!(
        partial_reads {},
        partial_reads,
        [0.3, -0.2, 0.8, 0.9, -0.5, 0.4]
    );
}

#[test]
fn window_cursor_advanced_twice() {
    check_widths!(
        skip_after_rise {},
        skip_after_rise,
        [0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 0.7]
    );
}

#[test]
fn slice_cursor_rest() {
    check_widths!(cursor_rest {}, cursor_rest, [0.3, -0.2, 0.8, 0.1]);
    check_widths!(
        cursor_rest_reversed {},
        cursor_rest_reversed,
        [0.3, -0.2, 0.8, 0.1]
    );
}

// ---------------------------------------------------------------------------------------
// One name bound to two cursors in turn.

/// A header read from chunks, then the same name bound to windows over the body: the
/// second `it.next()` must cut windows (overlapping), not chunks.
#[derive_frule]
pub fn header_then_windows(x: &[f64]) -> f64 {
    let mut it = x.chunks(3);
    let head = it.next().unwrap();
    let scale = head[0] + head[1] * head[2];
    let mut it = x[3..].windows(3);
    let mut s = 0.0;
    while let Some(w) = it.next() {
        s += scale * (w[0] - 2.0 * w[1] + w[2]).powi(2);
    }
    s
}

/// Exact chunks after plain chunks under one name: the short last chunk is not read.
#[derive_frule]
pub fn chunks_then_exact(x: &[f64]) -> f64 {
    let mut it = x.chunks(2);
    let a = it.next().unwrap();
    let g = a[0] * a[1];
    let mut it = x.chunks_exact(3);
    let mut s = 0.0;
    while let Some(c) = it.next() {
        s += g * c[0] + c[c.len() - 1].sin();
    }
    s
}

#[test]
fn a_name_bound_to_two_cursors() {
    // Nine samples: a header of three, then seven windows of three over the other six...
    let x = [0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 0.7, 1.1, -0.6];
    let scale = x[0] + x[1] * x[2];
    let want: f64 = x[3..]
        .windows(3)
        .map(|w: &[f64]| scale * (w[0] - 2.0 * w[1] + w[2]).powi(2))
        .fold(0.0, |a, b| a + b);
    assert!((header_then_windows(&x) - want).abs() < 1e-14);
    check_widths!(header_then_windows {}, header_then_windows, x);
    // Seven samples: exact chunks of three are two, the last sample left out.
    let x = [0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 0.7];
    check_widths!(chunks_then_exact {}, chunks_then_exact, x);
    let (_, g) = gradient(chunks_then_exact {}, &x[..]);
    assert_eq!(g[6], 0.0, "the sample past the exact chunks");
}

// ---------------------------------------------------------------------------------------
// A list of closures summed by a chain: the sum starts where `std`'s does.

/// The direction of a flow field written as basis functions with weights, `atan2` of the
/// two components. Before training the `y` weights are zero: every term is `0 · (−…)`,
/// `−0.0`, and `std`'s sum of them is `−0.0` (`Sum for f64` starts at `−0.0`), whose
/// `atan2` with a negative `x` is `−π`, not `π`.
#[derive_frule]
pub fn flow_heading(p: &[f64], wy: &[f64]) -> f64 {
    let s = p[0];
    let feats: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(move |t| -(s * t).exp()),
        Box::new(|t| -1.0 - t * t),
    ];
    let vy: f64 = feats.iter().zip(wy).map(|(f, w)| w * f(p[1])).sum();
    let vx = -p[1] - s * s;
    p[0] * vy.atan2(vx) + vx
}

#[test]
fn closure_list_sum_of_negative_zeros() {
    let wy = [0.0, 0.0];
    let p = [0.7, 0.4];
    let y = flow_heading(&p, &wy);
    let vx = -0.4 - 0.7 * 0.7;
    assert_eq!(y, 0.7 * -std::f64::consts::PI + vx);
    let rule = bind(flow_heading {}, (Wrt, &wy[..]));
    check_widths!(rule, |p: &[f64]| flow_heading(p, &wy), p);
    let (_, g) = gradient(rule, &p[..]);
    // ∂/∂p0 = atan2(−0, vx) + ∂vx/∂p0 = −π − 2 p0.
    assert_close(g[0], -std::f64::consts::PI - 1.4, 1e-14, "d/dp0");
    let wy = [0.3, -0.2];
    check_widths!(
        bind(flow_heading {}, (Wrt, &wy[..])),
        |p: &[f64]| flow_heading(p, &wy),
        p
    );
}
