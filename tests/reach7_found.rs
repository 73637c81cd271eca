//! What the tenth session's reach hunt (`tests/reach7_*.rs`) found and fixed, each in its
//! smallest form: a local `VecDeque` of floats (a delay line, a moving-average window:
//! `push_back`, `push_front`, `pop_front`, `pop_back`, `front`, `back`, indexing, `for`),
//! read as the `Vec` of the same elements; `bool::then_some` and `bool::then` on a
//! condition; `min_by` after a `filter_map` over references (the closure's items are
//! values); and a `const` array's elements as operands next to a local array's
//! (`err.iter().zip(Q.iter()).map(|(e, q)| q * e * e)`). Each in every mode against
//! central differences (`check_modes!`, primals bit for bit) and a closed form.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::collections::VecDeque;

/// A moving average over a window, as signal code keeps it.
#[derive_frule]
fn moving_average_last(x: &[f64], k: usize) -> f64 {
    let mut window: VecDeque<f64> = VecDeque::with_capacity(k);
    let mut sum = 0.0;
    for &v in x {
        window.push_back(v);
        sum += v;
        if window.len() > k {
            sum -= window.pop_front().unwrap();
        }
    }
    sum / window.len() as f64
}

fn moving_average_last_plain(x: &[f64]) -> f64 {
    moving_average_last(x, 3)
}

#[test]
fn vecdeque_window() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5, 3.0];
    check_modes!(
        bind(moving_average_last {}, (Wrt, 3)),
        moving_average_last_plain,
        x
    );
    // Closed form: the mean of the last three.
    let (v, g) = gradient(bind(moving_average_last {}, (Wrt, 3)), &x);
    assert_eq!(v.to_bits(), moving_average_last(&x, 3).to_bits());
    for k in 0..6 {
        let want = if k >= 3 { 1.0 / 3.0 } else { 0.0 };
        assert_close(g[k], want, 1e-15, "d mean / dx");
    }
}

/// A delay line fed at the front, read by index and through `front`/`back`, shortened at
/// the back; the queue typed by its full path and made from a `vec!`.
#[derive_frule]
fn delay_line(x: &[f64], taps: &[f64]) -> f64 {
    let mut line: std::collections::VecDeque<f64> = VecDeque::from(vec![0.0; taps.len()]);
    let mut out = 0.0;
    for &v in x {
        line.push_front(v * v);
        line.pop_back();
        let mut y = 0.0;
        for (i, h) in taps.iter().enumerate() {
            y += h * line[i];
        }
        out += y + 0.1 * line.front().unwrap() * line.back().unwrap();
    }
    let mut tail = 0.0;
    for s in &line {
        tail += s.sin();
    }
    out + tail
}

fn delay_line_plain(x: &[f64]) -> f64 {
    delay_line(x, &[0.5, 0.3, -0.2])
}

#[test]
fn vecdeque_delay_line() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5];
    check_modes!(
        bind(delay_line {}, (Wrt, &[0.5, 0.3, -0.2][..])),
        delay_line_plain,
        x
    );
}

/// The first root past `eps` of a quadratic, `then_some` on the root and `then` on the
/// other.
#[derive_frule]
fn first_root(p: &[f64]) -> f64 {
    let (b, c) = (p[0], p[1]);
    let disc = b * b - 4.0 * c;
    let s = disc.sqrt();
    let near = (-b - s) / 2.0;
    let far = (-b + s) / 2.0;
    let pick = (near > 1e-9).then_some(near);
    let other = (far > 1e-9 && disc > 0.0).then(|| far * 1.0);
    match (pick, other) {
        (Some(t), _) => t,
        (None, Some(t)) => t,
        _ => f64::INFINITY,
    }
}

fn first_root_plain(p: &[f64]) -> f64 {
    first_root(p)
}

#[test]
fn bool_then_some_and_then() {
    // Both roots positive: the near one. One negative: the far one.
    for p in [[-5.0, 4.0], [1.0, -6.0]] {
        check_modes!(bind(first_root {}, (Wrt,)), first_root_plain, p);
    }
    // Closed form: the far root of t² + t − 6 is 2, with ∂t/∂c = −1/(2t + b) = −1/5.
    let (v, g) = gradient(first_root {}, &[1.0, -6.0]);
    assert_eq!(v, 2.0);
    assert_close(g[1], -0.2, 1e-15, "dt/dc");
}

/// The nearest hit among some candidates (`filter_map` then `min_by`).
#[derive_frule]
fn nearest_positive(xs: &[f64], shift: f64) -> f64 {
    xs.iter()
        .enumerate()
        .filter_map(|(i, x)| {
            let t = x - shift;
            (t > 0.0).then_some((i, t * t))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(_, t)| t)
        .unwrap_or(0.0)
}

#[test]
fn min_by_after_filter_map_of_references() {
    let xs = [0.3, 2.0, 1.1, -0.5];
    let (v, d) = derivative(bind(nearest_positive {}, (&xs[..], Var(0))), 0.8);
    assert_eq!(v.to_bits(), nearest_positive(&xs, 0.8).to_bits());
    // The nearest is 1.1: (1.1 − s)², derivative −2 (1.1 − s).
    assert_close(v, (1.1f64 - 0.8).powi(2), 1e-15, "value");
    assert_close(d, -2.0 * (1.1 - 0.8), 1e-14, "d / d shift");
}

const Q: [f64; 3] = [10.0, 10.0, 1.0];

/// A weighted stage cost with the weights in a `const` array.
#[derive_frule]
fn stage_cost(x: &[f64]) -> f64 {
    let err = [x[0] - 1.0, x[1] + 0.5, x[2].sin()];
    err.iter().zip(Q.iter()).map(|(e, q)| q * e * e).sum()
}

fn stage_cost_plain(x: &[f64]) -> f64 {
    stage_cost(x)
}

#[test]
fn const_array_elements_as_operands() {
    let x = [0.3, 0.2, 0.7];
    check_modes!(bind(stage_cost {}, (Wrt,)), stage_cost_plain, x);
    let (_, g) = gradient(stage_cost {}, &x);
    assert_close(g[0], 20.0 * (x[0] - 1.0), 1e-14, "d/dx0");
    assert_close(g[2], 2.0 * x[2].sin() * x[2].cos(), 1e-14, "d/dx2");
}
