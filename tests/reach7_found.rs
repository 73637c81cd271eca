//! What the tenth session's reach hunt (`tests/reach7_*.rs`) found and fixed, each in its
//! smallest form: a local `VecDeque` of floats (a delay line, a moving-average window:
//! `push_back`, `push_front`, `pop_front`, `pop_back`, `front`, `back`, indexing, `for`),
//! read as the `Vec` of the same elements; `bool::then_some` and `bool::then` on a
//! condition; `min_by` after a `filter_map` over references (the closure's items are
//! values); a `const` array's elements as operands next to a local array's
//! (`err.iter().zip(Q.iter()).map(|(e, q)| q * e * e)`); `into_iter()` of a function's or
//! method's result or of an untyped local, and `zip` of one or of a name an `if let` binds;
//! a pair of borrowed `Vec`s passed to a parameter taking a pair of slices; and a trait
//! method named like an iterator's (`target.position()`) on a parameter bounded by it. Each in every mode against
//! central differences (`check_modes!`, primals bit for bit) and a closed form.
#![allow(clippy::needless_range_loop, clippy::unnecessary_lazy_evaluations)]

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

// ---------------------------------------------------------------------------------------
// Owned sequences into chains and zips; a tuple of borrowed `Vec`s; a method of a
// parameter's trait named like an iterator's.

#[derive_frule]
fn doubled(x: &[f64]) -> Vec<f64> {
    x.iter().map(|v| 2.0 * v).collect()
}

#[derive_frule]
fn squash(v: f64) -> f64 {
    v.tanh()
}

#[derive(Differentiable, Clone, Debug)]
struct Affine {
    w: Vec<f64>,
    bias: Option<Vec<f64>>,
}

#[derive_frule]
impl Affine {
    fn apply(&self, x: &[f64]) -> Vec<f64> {
        let mut y: Vec<f64> = self.w.iter().zip(x).map(|(w, v)| w * v).collect();
        // `zip(b)` of a name an `if let` binds without a written type.
        if let Some(b) = &self.bias {
            for (yi, bi) in y.iter_mut().zip(b) {
                *yi += bi;
            }
        }
        y
    }

    /// `into_iter()` of a method's result, and `zip` of another.
    fn block(&self, x: &[f64]) -> f64 {
        let hidden: Vec<f64> = self.apply(x).into_iter().map(squash).collect();
        let resid: Vec<f64> = x
            .iter()
            .zip(self.apply(&hidden))
            .map(|(a, b)| a + b)
            .collect();
        // `into_iter()` of a function's result, and of a local bound without a type.
        let d = doubled(&resid);
        let e: f64 = doubled(&d).into_iter().map(|v| v * v).sum();
        e + d.into_iter().sum::<f64>()
    }

    /// A state passed as a pair of slices (`(h, c)` of an LSTM step).
    fn step(&self, x: &[f64], (h, c): (&[f64], &[f64])) -> f64 {
        x.iter().zip(h).zip(c).map(|((a, b), c)| a * b + c).sum()
    }
}

#[derive_frule]
fn owned_chains(p: &[f64]) -> f64 {
    let layer = Affine {
        w: vec![p[0], 0.5, -0.3],
        bias: Some(vec![0.1, p[1], -0.2]),
    };
    let h = vec![p[2], 0.4, 0.9];
    let c = vec![0.3, p[3], -0.1];
    layer.block(&[p[2], p[3], 0.7]) + layer.step(&[0.2, p[0], 0.5], (&h, &c))
}

fn owned_chains_plain(p: &[f64]) -> f64 {
    owned_chains(p)
}

#[test]
fn owned_sequences_and_tuples_of_slices() {
    let p = [0.8, -0.3, 0.6, 1.1];
    check_modes!(bind(owned_chains {}, (Wrt,)), owned_chains_plain, p);
}

#[derive_frule]
trait Target {
    fn position(&self) -> [f64; 2];
}

#[derive(Differentiable)]
struct Beacon(f64, f64);

#[derive_frule]
impl Target for Beacon {
    fn position(&self) -> [f64; 2] {
        [self.0, self.1]
    }
}

/// `target.position()` is the trait's method, not `Iterator::position`.
#[derive_frule]
fn miss_distance(x: &[f64], target: &impl Target) -> f64 {
    let [tx, ty] = target.position();
    ((x[0] - tx).powi(2) + (x[1] - ty).powi(2)).sqrt()
}

#[test]
fn bound_parameter_method_named_like_an_iterator_method() {
    let b = Beacon(1.0, 2.0);
    let (v, g) = gradient(bind(miss_distance {}, (Wrt, &b)), &[4.0, 6.0]);
    assert_eq!(v.to_bits(), miss_distance(&[4.0, 6.0], &b).to_bits());
    assert_eq!(v, 5.0);
    assert_close(g[0], 0.6, 1e-15, "d/dx");
    assert_close(g[1], 0.8, 1e-15, "d/dy");
}
