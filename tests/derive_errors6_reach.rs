//! Constructs that once gave a confusing first error and now work (errors round 6): a
//! consumer right on an iterator of the user's (`Steps::new(..).sum::<f64>()`, a `fold`
//! on a local), a stateful slice iterator split by `by_ref().take(n)`, and `zip` on an
//! iterator bound by `let`. Each function is written as users write it, differentiated
//! unmodified, and checked in one direction, batched and at second order against central
//! differences of the plain function (primals bit for bit), and against a closed form.
// Written as users write them.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

/// `n` samples of (x + k·h)², k = 1..=n: squares on a grid stepping away from `x`.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Steps {
    x: f64,
    h: f64,
    n: usize,
}

#[derive_frule]
impl Steps {
    pub fn new(x: f64, h: f64, n: usize) -> Self {
        Steps { x, h, n }
    }
}

#[derive_frule]
impl Iterator for Steps {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        self.n -= 1;
        self.x += self.h;
        Some(self.x * self.x)
    }
}

/// Σ_{k=1}^{5} (x + k·h)², summed straight off the iterator.
#[derive_frule]
pub fn squares_ahead(p: &[f64]) -> f64 {
    Steps::new(p[0], p[1], 5).sum::<f64>()
}

/// Σ_k w·(x + k·h)² folded off a local holding the iterator.
#[derive_frule]
pub fn weighted_squares(p: &[f64]) -> f64 {
    let steps = Steps::new(p[0], p[1], 4);
    steps.fold(0.0, |acc, s| acc + p[2] * s)
}

/// A header of three samples averaged, the rest's energy added: one iterator split by
/// `by_ref().take(3)`.
#[derive_frule]
pub fn header_and_body(v: &[f64]) -> f64 {
    let mut it = v.iter();
    let head: f64 = it.by_ref().take(3).sum();
    let body: f64 = it.map(|x| x * x).sum();
    head / 3.0 + body
}

/// The same with items by value and a first sample taken by `next`.
#[derive_frule]
pub fn skip_first_then_take(v: &[f64]) -> f64 {
    let mut it = v.iter().copied();
    let first = it.next().unwrap_or(0.0);
    let mid: f64 = it.by_ref().take(2).map(|x| x.sin()).sum();
    let rest: f64 = it.sum();
    first * mid + rest
}

/// A dot product through `zip` on an iterator bound by `let`.
#[derive_frule]
pub fn dot_through_local(x: &[f64]) -> f64 {
    let (a, c) = x.split_at(x.len() / 2);
    let b = a.iter();
    let mut s = 0.0;
    for (p, q) in b.zip(c) {
        s += p * q;
    }
    s
}

/// A weighted dot product through a chain with a closure bound by `let` and read once,
/// later, by `zip`.
#[derive_frule]
pub fn weighted_dot(x: &[f64]) -> f64 {
    let (a, c) = x.split_at(x.len() / 2);
    let w = x[0].exp();
    let scaled = a.iter().map(|v| w * v.sin());
    let mut s = 0.0;
    for (p, q) in scaled.zip(c) {
        s += p * q;
    }
    s
}

/// Softmax's normaliser through a bound chain consumed by `sum`.
#[derive_frule]
pub fn log_sum_exp(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let shifted = x.iter().map(|v| (v - m).exp());
    m + shifted.sum::<f64>().ln()
}

#[test]
fn sum_on_a_user_iterator_in_every_mode() {
    let p = [0.4, 0.3];
    check_modes!(squares_ahead {}, squares_ahead, p);
    // d/dx Σ (x + k h)² = 2 Σ (x + k h); d/dh = 2 Σ k (x + k h).
    let (_, g) = fwdad::drivers::gradient(squares_ahead {}, &p);
    let dx: f64 = (1..=5).map(|k| 2.0 * (p[0] + k as f64 * p[1])).sum();
    let dh: f64 = (1..=5)
        .map(|k| 2.0 * k as f64 * (p[0] + k as f64 * p[1]))
        .sum();
    assert_close(g[0], dx, 1e-12, "d/dx closed form");
    assert_close(g[1], dh, 1e-12, "d/dh closed form");
}

#[test]
fn fold_on_a_local_user_iterator_in_every_mode() {
    check_modes!(weighted_squares {}, weighted_squares, [0.4, 0.3, 1.7]);
}

#[test]
fn by_ref_take_then_the_rest_in_every_mode() {
    let v = [0.5, -1.2, 0.8, 1.1, 0.3, -0.7];
    check_modes!(header_and_body {}, header_and_body, v);
    // d/dv_k = 1/3 for the header, 2 v_k after it.
    let (y, g) = fwdad::drivers::gradient(header_and_body {}, &v);
    assert_eq!(y.to_bits(), header_and_body(&v).to_bits());
    for k in 0..6 {
        let want = if k < 3 { 1.0 / 3.0 } else { 2.0 * v[k] };
        assert_close(g[k], want, 1e-12, &format!("d/dv{k} closed form"));
    }
    // Shorter than the header: take stops at the end, the rest is empty.
    check_modes!(header_and_body {}, header_and_body, [0.5, -1.2]);
}

#[test]
fn next_then_by_ref_take_then_the_rest_in_every_mode() {
    check_modes!(
        skip_first_then_take {},
        skip_first_then_take,
        [0.9, 0.4, -0.6, 1.3, 0.2]
    );
}

#[test]
fn zip_on_a_let_bound_iterator_in_every_mode() {
    let x = [0.5, -1.2, 0.8, 1.1, 0.3, -0.7];
    check_modes!(dot_through_local {}, dot_through_local, x);
}

#[test]
fn a_let_bound_chain_with_a_closure_in_every_mode() {
    check_modes!(
        weighted_dot {},
        weighted_dot,
        [0.5, -1.2, 0.8, 1.1, 0.3, -0.7]
    );
    let x = [0.5, -1.2, 0.8];
    check_modes!(log_sum_exp {}, log_sum_exp, x);
    // d/dx_k log Σ exp(x_j) = softmax(x)_k.
    let (_, g) = fwdad::drivers::gradient(log_sum_exp {}, &x);
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    for k in 0..3 {
        assert_close(g[k], x[k].exp() / z, 1e-12, &format!("d/dx{k} closed form"));
    }
}

// ---------------------------------------------------------------------------------------
// Library views (feature `nalgebra`)

#[cfg(feature = "nalgebra")]
mod libs {
    use super::*;
    use nalgebra::Matrix3;

    /// Modified Gram-Schmidt on the columns of a 3×3 matrix, each later column borrowed
    /// with an earlier one as `columns_range_pair_mut(j, i)`, both indices computed by the
    /// loops, then projected out.
    #[derive_frule]
    pub fn gram(x: &[f64]) -> f64 {
        let mut q = Matrix3::from_row_slice(x);
        for j in 1..3 {
            for i in 0..j {
                let (mut qj, qi) = q.columns_range_pair_mut(j, i);
                let r = qi.dot(&qj) / qi.norm_squared();
                qj -= qi * r;
            }
        }
        q[(0, 0)] + q[(1, 2)] * q[(2, 1)] + q.column(2).norm()
    }

    /// Neighbouring columns as `(k + 1, k)`, written element by element.
    #[derive_frule]
    pub fn neighbours(x: &[f64]) -> f64 {
        let mut q = Matrix3::from_row_slice(x);
        for k in 0..2 {
            let (mut a, b) = q.columns_range_pair_mut(k + 1, k);
            let r = b.dot(&a) * 0.5;
            for e in 0..3 {
                a[e] -= r * b[e];
            }
        }
        q[(0, 0)] + q[(1, 2)] * q[(2, 1)]
    }

    #[test]
    fn column_pairs_with_computed_indices_in_every_mode() {
        let x = [2.0, 0.5, 0.1, 0.4, 1.5, -0.3, 0.2, -0.1, 1.0];
        check_modes!(gram {}, gram, x);
        check_modes!(neighbours {}, neighbours, x);
    }
}
