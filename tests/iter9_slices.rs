//! In-place slice methods on differentiated buffers, as signal-processing and simulation
//! code writes them (twelfth session): a delay line shifted by `rotate_right` and
//! `copy_within`, a ring buffer by `rotate_left`, a state vector reordered by `swap` and
//! `reverse`, filled by `fill`, written by `copy_from_slice` and split by `split_at_mut`.
//! The tangents must move with the values: each rule writing the buffer in place is
//! checked against the plain function bit for bit and against central differences of it
//! (`check_in_place`), and the scalar ones in every mode (`check_widths!`).
#![allow(clippy::needless_range_loop, clippy::manual_memcpy)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::{check_in_place, same};

/// A delay line: the oldest sample drops off the end, the newest (scaled) enters at 0.
#[derive_frule]
fn push_delay(line: &mut [f64]) {
    let input = 0.5 * line[0] + line[1];
    line.rotate_right(1);
    line[0] = input;
}

/// A ring buffer advanced by two, the wrapped samples damped.
#[derive_frule]
fn advance_ring(buf: &mut [f64]) {
    buf.rotate_left(2);
    let n = buf.len();
    buf[n - 1] *= 0.5;
    buf[n - 2] *= 0.5;
}

/// An FIR delay line shifted with `copy_within`, then a new sample at the front.
#[derive_frule]
fn shift_in(state: &mut [f64]) {
    let n = state.len();
    let fresh = state[0] * state[n - 1];
    state.copy_within(0..n - 1, 1);
    state[0] = fresh;
}

/// Reorders a state vector: the first and last exchanged, then reversed, then scaled.
#[derive_frule]
fn reorder(s: &mut [f64]) {
    let n = s.len();
    s.swap(0, n - 1);
    s.reverse();
    for v in s.iter_mut() {
        *v *= 1.5;
    }
}

/// The first half reset to the mean of the second, which is then squared in place.
#[derive_frule]
fn reset_half(x: &mut [f64]) {
    let n = x.len();
    let h = n / 2;
    let mean = x[h..].iter().sum::<f64>() / (n - h) as f64;
    x[..h].fill(mean);
    let (_, right) = x.split_at_mut(h);
    for v in right.iter_mut() {
        *v = *v * *v;
    }
}

/// A leapfrog half step on a state `[q.., p..]` split with `split_at_mut`.
#[derive_frule]
fn leapfrog_kick(state: &mut [f64]) {
    let dt = 0.1;
    let n = state.len() / 2;
    let (q, p) = state.split_at_mut(n);
    for i in 0..n {
        p[i] -= dt * q[i].sin();
        q[i] += dt * p[i];
    }
}

/// Copies the second half onto the first with `copy_from_slice` of a local.
#[derive_frule]
fn mirror_tail(x: &mut [f64]) {
    let n = x.len();
    let tail: Vec<f64> = x[n - 2..].iter().map(|v| v.exp()).collect();
    x[..2].copy_from_slice(&tail);
}

/// A ring buffer in a local: the frame rotated, then weighted by position.
#[derive_frule]
fn rotated_weighting(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.rotate_left(1);
    v.rotate_right(3);
    v.copy_within(1..3, 0);
    v.iter()
        .enumerate()
        .map(|(k, a)| (k as f64 + 1.0) * a * a)
        .sum::<f64>()
}

/// A circular convolution by rotating a copy of the signal.
#[derive_frule]
fn circular_conv_at(x: &[f64]) -> f64 {
    let h = [0.5, 0.25, 0.125];
    let mut shifted = x.to_vec();
    let mut y = 0.0;
    for k in 0..h.len() {
        y += h[k] * shifted[0] * shifted[1];
        shifted.rotate_right(1);
    }
    y
}

/// The rule of an in-place function, on a buffer and its tangent.
macro_rules! in_place {
    ($rule:ident) => {
        |v: &mut [f64], dv: &mut [f64]| {
            $rule(Dual::new(v, dv));
        }
    };
}

const V: [f64; 6] = [0.4, -1.3, 2.1, 0.7, -0.6, 1.9];

#[test]
fn rotate_and_copy_within_move_tangents() {
    check_in_place(in_place!(push_delay_frule), push_delay, &V);
    check_in_place(in_place!(advance_ring_frule), advance_ring, &V);
    check_in_place(in_place!(shift_in_frule), shift_in, &V);
    // The tangent of `shift_in` moves with its values: dx ↦ [dfresh, dx0, .., dx(n-2)].
    let (mut v, mut dv) = (V.to_vec(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    shift_in_frule(Dual::new(&mut v[..], &mut dv[..]));
    assert_eq!(dv[1..], [1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(dv[0], 1.0 * V[5] + V[0] * 6.0);
}

#[test]
fn swap_reverse_fill_split() {
    check_in_place(in_place!(reorder_frule), reorder, &V);
    check_in_place(in_place!(reset_half_frule), reset_half, &V);
    check_in_place(in_place!(leapfrog_kick_frule), leapfrog_kick, &V);
    check_in_place(in_place!(mirror_tail_frule), mirror_tail, &V);
}

#[test]
fn rotations_of_a_local() {
    check_widths!(bind(rotated_weighting {}, (Wrt,)), rotated_weighting, V);
    check_widths!(bind(circular_conv_at {}, (Wrt,)), circular_conv_at, V);
}
