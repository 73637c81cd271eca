//! Sixth hunt for wrong primals and derivatives.
//!
//! Found:
//! - A wrong primal (and derivative): `v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(Equal))`
//!   with NaNs among the values (a comparator that is no total order, a common way to
//!   "handle" NaN) sorted the finite values into another order than `std`'s: the rule's
//!   merge sort makes other comparisons than `std`'s insertion sort (`[3, NaN, 1]` stays as
//!   it is in `std`, the rule gave `[1, 3, NaN]`). Up to 20 elements the rule now sorts by
//!   insertion, as `std` does, for `sort_by` and `sort_unstable_by`. Fuzz case 62.
//!
//! The other functions are guards that passed: the fixed-size drivers at 1, 5, 9, 13, 17
//! and 35 inputs (past their one-pass limits, M ≠ N), at NaN, infinite and signed-zero
//! inputs and kinks (`sqrt` at 0, against one direction at a time, NaN identical), Jacobian
//! entries of bodies passing overlapping parts of their argument on; lists of closures
//! with `move` captures reassigned or shadowed after the list, rebuilt per iteration,
//! walked twice, shadowed by an inner list; `Option` fields taken, replaced and flattened
//! by `&mut self` methods; `BTreeMap`s of `Vec`s filled by `entry().or_default().push()`
//! and read by `range`; `max_by`/`min_by` ties and NaN, `f64::max`/`min` folds over NaN,
//! signed zeros through `max`, `min` and `clamp`; loops every path of which `continue`s or
//! `break`s; aliasing index writes and swaps in place; type aliases renamed by `use`,
//! imported by a glob and shadowed, and a module's alias shadowing the file's; `&mut self`
//! state; a `T: Float` function at `f64`; a constant struct: each against central
//! differences or closed forms, primals bit for bit.
#![allow(
    clippy::needless_range_loop,
    clippy::let_and_return,
    clippy::match_single_binding,
    clippy::map_entry,
    clippy::assign_op_pattern,
    clippy::ptr_arg,
    clippy::useless_vec
)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;
use std::cmp::Ordering;
use std::collections::BTreeMap;

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
// Sorting with a comparator that sends NaN to `Equal`.

/// The three largest readings weighted, NaN readings (a dropped sensor) compared as equal
/// to everything, as `partial_cmp(..).unwrap_or(Equal)` is often written; NaNs skipped.
#[derive_frule]
fn top_three(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
    let mut s = 0.0;
    let mut w = 1.0;
    for a in v.iter().rev() {
        if !a.is_nan() && w < 8.0 {
            s += w * a;
            w *= 2.0;
        }
    }
    s
}

/// The same, sorted descending by `sort_unstable_by`.
#[derive_frule]
fn top_three_unstable(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_unstable_by(|a, b| b.partial_cmp(a).unwrap_or(Ordering::Equal));
    let mut s = 0.0;
    let mut w = 1.0;
    for a in &v {
        if !a.is_nan() && w < 8.0 {
            s += w * a;
            w *= 2.0;
        }
    }
    s
}

/// The same through a sub-slice and through a struct's field sorted by its method.
#[derive(Differentiable, Clone)]
struct Readings {
    xs: Vec<f64>,
}

#[derive_frule]
impl Readings {
    fn sort(&mut self) {
        self.xs
            .sort_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
    }
}

#[derive_frule]
fn top_three_parts(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v[1..].sort_by(|a, b| b.partial_cmp(a).unwrap_or(Ordering::Equal));
    let mut r = Readings { xs: x.to_vec() };
    r.sort();
    let mut s = 0.0;
    let mut w = 1.0;
    for (a, b) in v.iter().zip(&r.xs) {
        if !a.is_nan() {
            s += w * a;
        }
        if !b.is_nan() {
            s += 0.5 * w * b;
        }
        w *= 1.5;
    }
    s
}

/// Readings with NaNs at every other place and in runs, of up to 20 elements (where `std`
/// sorts by insertion).
fn readings_with_nans() -> Vec<Vec<f64>> {
    let mut out = vec![
        vec![3.0, f64::NAN, 1.0],
        vec![0.5, 2.0, f64::NAN, -1.0, 4.0],
    ];
    for n in [6usize, 9, 13, 20] {
        for (p, q) in [(3, 1), (4, 2), (5, 0)] {
            out.push(
                (0..n)
                    .map(|i| {
                        if i % p == q {
                            f64::NAN
                        } else {
                            ((i * 7) as f64).cos()
                        }
                    })
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn sort_by_nan_equal() {
    for x in readings_with_nans() {
        let y = top_three(&x);
        let v = primal_of(bind(top_three {}, (Wrt,)), &x);
        assert_eq!(v.to_bits(), y.to_bits(), "{x:?}: {v} vs {y}");
        let (_, g) = gradient(bind(top_three {}, (Wrt,)), &x);
        let want = fd_gradient(&top_three, &x);
        for k in 0..x.len() {
            same(g[k], want[k], 1e-6, &format!("d/dx{k}"));
        }
        let y = top_three_unstable(&x);
        let v = primal_of(bind(top_three_unstable {}, (Wrt,)), &x);
        assert_eq!(v.to_bits(), y.to_bits(), "unstable {x:?}: {v} vs {y}");
        let y = top_three_parts(&x);
        let v = primal_of(bind(top_three_parts {}, (Wrt,)), &x);
        assert_eq!(v.to_bits(), y.to_bits(), "parts {x:?}: {v} vs {y}");
    }
}

/// `max_by` / `min_by` on ties: `std` returns the last maximum and the first minimum.
#[derive_frule]
fn argmax_ties(x: &[f64]) -> f64 {
    let v = [x[0] + 1.0, 2.0 * x[0], x[1]];
    let (imax, _) = v
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .unwrap();
    let (imin, _) = v
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .unwrap();
    let m = v.iter().copied().max_by(|a, b| a.total_cmp(b)).unwrap();
    let z = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (imax as f64) * 10.0 + imin as f64 + m * x[1] + z
}

#[test]
fn max_by_min_by_ties() {
    for x in [[1.0, 2.0], [1.0, 0.5], [1.0, 3.0], [-0.0, 0.0]] {
        let y = argmax_ties(&x);
        let v = primal_of(bind(argmax_ties {}, (Wrt,)), &x);
        assert_eq!(v.to_bits(), y.to_bits(), "{x:?}: {v} vs {y}");
    }
    // At x0 = 1 both first elements are 2: max_by takes the last (2 x0), min_by the first.
    let (_, g) = gradient(bind(argmax_ties {}, (Wrt,)), &[1.0, 0.5]);
    // `f64::max` at a tie splits the tangent (README): (1 + 2) / 2.
    assert_close(g[0], 2.0 * 0.5 + 1.5, 1e-14, "d/dx0 at the tie");
}

/// Signed zeros: max of -0.0 and 0.0, and the reciprocal shows which.
#[derive_frule]
fn zero_signs(x: &[f64]) -> f64 {
    let a = x[0] * 0.0;
    let b = -x[1] * 0.0;
    1.0 / a.max(b) + 1.0 / a.min(b) + 1.0 / f64::max(b, a) + 1.0 / (a.clamp(b, 1.0))
}

#[test]
fn signed_zeros_max_min() {
    for x in [[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]] {
        let y = zero_signs(&x);
        let v = primal_of(bind(zero_signs {}, (Wrt,)), &x);
        assert_eq!(v.to_bits(), y.to_bits(), "{x:?}: {v} vs {y}");
    }
}

// ---------------------------------------------------------------------------------------
// Lists of closures.

/// A `move` closure in a list copies its capture where the list is written.
#[derive_frule]
fn basis_moved(x: &[f64]) -> f64 {
    let mut omega = x[0];
    let basis: Vec<Box<dyn Fn(f64) -> f64>> = vec![
        Box::new(move |t: f64| (omega * t).sin()),
        Box::new(|t: f64| t * t),
    ];
    omega = 3.0 * x[1];
    let mut y = omega;
    for phi in &basis {
        y += phi(x[1]);
    }
    for (k, phi) in basis.iter().enumerate() {
        y += (k as f64 + 1.0) * phi(x[0]);
    }
    y
}

#[test]
fn basis_list_moved_capture() {
    let x = [0.7, 1.3];
    check_widths!(bind(basis_moved {}, (Wrt,)), basis_moved, x);
}

/// A `move` let closure copies its capture where it is written.
#[derive_frule]
fn let_closure_moved(x: &[f64]) -> f64 {
    let mut k = x[0];
    let f = move |t: f64| k * t;
    k = x[1] * 5.0;
    f(x[1]) + k
}

#[test]
fn let_closure_moved_capture() {
    let x = [0.7, 1.3];
    check_widths!(bind(let_closure_moved {}, (Wrt,)), let_closure_moved, x);
}

/// A list built in each iteration, capturing the iteration's value; a `break` inside.
#[derive_frule]
fn basis_in_loop(x: &[f64]) -> f64 {
    let mut y = 0.0;
    for i in 0..x.len() {
        let xi = x[i];
        let fs: [Box<dyn Fn(f64) -> f64>; 3] = [
            Box::new(move |t| xi * t),
            Box::new(move |t| (xi + t).exp()),
            Box::new(|t| t.cos()),
        ];
        for (k, f) in fs.iter().enumerate() {
            if k == i {
                break;
            }
            y += f(0.5 * xi);
        }
        y += fs.len() as f64;
    }
    y
}

#[test]
fn basis_rebuilt_per_iteration() {
    let x = [0.7, 1.3, -0.4, 0.2];
    check_widths!(bind(basis_in_loop {}, (Wrt,)), basis_in_loop, x);
}

// ---------------------------------------------------------------------------------------
// Option methods on fields.

#[derive(Differentiable, Clone)]
struct Smoother {
    last: Option<f64>,
    prev: Option<Option<f64>>,
    alpha: f64,
}

#[derive_frule]
impl Smoother {
    fn step(&mut self, x: f64) -> f64 {
        let y = match self.last.take() {
            Some(l) => self.alpha * x + (1.0 - self.alpha) * l,
            None => x,
        };
        let before = self.last.replace(y);
        assert!(before.is_none());
        let taken: Option<Option<f64>> = self.prev.take();
        let p = taken.flatten().unwrap_or(0.0);
        self.prev = Some(Some(y * p + x));
        y
    }
}

#[derive_frule]
fn smooth_run(x: &[f64]) -> f64 {
    let mut s = Smoother {
        last: None,
        prev: Some(None),
        alpha: x[0],
    };
    let mut acc = 0.0;
    for &v in &x[1..] {
        acc += s.step(v);
    }
    let pr: Option<Option<f64>> = s.prev;
    acc + s.last.unwrap_or(0.0) + pr.flatten().unwrap_or(-1.0)
}

#[test]
fn option_fields_taken_and_replaced() {
    let x = [0.3, 1.0, 2.0, -0.5, 0.25];
    check_widths!(bind(smooth_run {}, (Wrt,)), smooth_run, x);
}

// ---------------------------------------------------------------------------------------
// Maps.

#[derive_frule(inactive(keys))]
fn buckets(x: &[f64], keys: &[i64]) -> f64 {
    let mut m: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for (i, &k) in keys.iter().enumerate() {
        m.entry(k).or_default().push(x[i] * x[i]);
        if k > 1 {
            m.entry(-k).or_default().push(x[i]);
        }
    }
    let mut total = 0.0;
    for (k, vs) in &m {
        let mut w = 1.0;
        for v in vs {
            total += w * (*k as f64) * v;
            w *= 0.5;
        }
    }
    let mut low = 0.0;
    for (_, vs) in m.range(..0) {
        low += vs.iter().sum::<f64>();
    }
    let mut mid = 0.0;
    for (_, vs) in m.range(1..=2) {
        for v in vs {
            mid += v.sin();
        }
    }
    let mut tail = 0.0;
    for (k, vs) in m.range(2..) {
        tail += *k as f64 * vs[0];
    }
    total + low * mid + tail
}

#[test]
fn map_buckets_and_ranges() {
    let keys = [2i64, 1, 3, 2, 0, 3, 1];
    let x = [0.5, -1.0, 0.3, 0.8, 1.1, -0.2, 0.7];
    let plain = |x: &[f64]| buckets(x, &keys);
    check_widths!(bind(buckets {}, (Wrt, Inactive(&keys[..]))), plain, x);
}

// ---------------------------------------------------------------------------------------
// Loops every path of which continues or breaks.

#[derive_frule]
fn all_paths_leave(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    loop {
        if i >= x.len() {
            break;
        }
        i += 1;
        if x[i - 1] > 0.0 {
            s += x[i - 1].sqrt();
            continue;
        } else if x[i - 1] < -1.0 {
            break;
        } else {
            s -= x[i - 1] * s;
            continue;
        }
    }
    for &v in x {
        match v.partial_cmp(&0.0) {
            Some(Ordering::Less) => continue,
            Some(_) => {
                s += v;
                continue;
            }
            None => break,
        }
    }
    s
}

#[test]
fn loops_whose_paths_all_leave() {
    check_widths!(
        bind(all_paths_leave {}, (Wrt,)),
        all_paths_leave,
        [0.5, -0.3, 2.0, -2.0, 1.0]
    );
    check_widths!(
        bind(all_paths_leave {}, (Wrt,)),
        all_paths_leave,
        [0.5, -0.3, 2.0]
    );
}

// ---------------------------------------------------------------------------------------
// Mutation with aliasing indices.

#[derive_frule]
fn alias_updates(v: &mut [f64]) {
    let n = v.len();
    for i in 0..n {
        let j = (i * 3) % n;
        v[i] = v[j] * v[i] + 0.1;
        v.swap(i, j);
    }
    let (a, b) = (v[0], v[1]);
    for i in 2..n {
        v[i - 2] = v[i];
    }
    v[n - 2] = a;
    v[n - 1] = b;
    for c in v.chunks_exact_mut(2) {
        let t = c[0];
        c[0] = c[1] * t;
        c[1] += t;
    }
}

#[test]
fn aliasing_in_place() {
    check_in_place(
        alias_updates_frule_slices,
        alias_updates,
        &[0.3, 1.2, -0.7, 0.9, 1.5],
    );
}

fn alias_updates_frule_slices(v: &mut [f64], dv: &mut [f64]) {
    alias_updates_frule(Dual::new(v, dv));
}

// ---------------------------------------------------------------------------------------
// Cells and statics.

static GAIN: f64 = 1.5;
const OFFSETS: [f64; 3] = [0.1, 0.2, 0.3];

#[derive_frule]
fn cells(x: &[f64]) -> f64 {
    let c = x[0] * x[1] + GAIN;
    let mut r = vec![x[0], x[1]];
    r[0] *= c;
    let s = r.iter().sum::<f64>();
    s + OFFSETS[1] * c + OFFSETS.iter().map(|o| o * x[0]).sum::<f64>()
}

#[test]
fn cells_and_statics() {
    check_widths!(bind(cells {}, (Wrt,)), cells, [0.5, -0.3]);
}

// ---------------------------------------------------------------------------------------
// Arrays mapped.

#[derive_frule]
fn map_of_map(q: &[f64; 3], l: f64) -> [f64; 3] {
    let c = q.map(f64::cos).map(|a| l * a).map(|a| a * a);
    let s = c.map(|a| a.sqrt() + q[0]);
    [c[0] + s[1], c[1] * s[2], c[2] - s[0]]
}

#[derive_frule]
fn map_of_map_sum(x: &[f64]) -> f64 {
    let q = [x[0], x[1], x[2]];
    let r = map_of_map(&q, x[3]);
    r[0] + 2.0 * r[1] + 3.0 * r[2]
}

#[test]
fn array_map_chains() {
    check_widths!(
        bind(map_of_map_sum {}, (Wrt,)),
        map_of_map_sum,
        [0.5, -0.3, 1.2, 0.8]
    );
}

// ---------------------------------------------------------------------------------------
// The drivers at a fixed size, against one direction at a time and `jacobian`.

/// `jacobian_array` against `jvp` per unit direction (NaN and infinities identical) and
/// against `jacobian`'s matrix; values bit for bit.
fn check_jacobian_array<F, const N: usize, const M: usize>(
    f: F,
    plain: impl Fn(&[f64]) -> [f64; M],
    x: [f64; N],
) where
    F: Copy
        + fwdad::drivers::SliceRule<
            fwdad::Batch<f64, N>,
            Output: fwdad::drivers::ArrayOutput<M, fwdad::Batch<f64, N>>,
        > + fwdad::drivers::SliceRule<
            fwdad::Batch<f64, 16>,
            Output: fwdad::drivers::ArrayOutput<M, fwdad::Batch<f64, 16>>,
        > + fwdad::drivers::SliceRule<f64, Output = Dual<[f64; M], [f64; M]>>,
{
    let want = plain(&x);
    let (y, j) = fwdad::drivers::jacobian_array(f, &x);
    for i in 0..M {
        assert_eq!(
            y[i].to_bits(),
            want[i].to_bits(),
            "value {i}: {} vs {}",
            y[i],
            want[i]
        );
    }
    for k in 0..N {
        let mut e = [0.0; N];
        e[k] = 1.0;
        let d = f.eval(&x, &e);
        for i in 0..M {
            assert_eq!(d.primal[i].to_bits(), want[i].to_bits(), "jvp value {i}");
            same(
                j[i][k],
                d.tangent[i],
                1e-13,
                &format!("J[{i}][{k}] against jvp"),
            );
        }
    }
}

/// One chain per arm: the rule's Jacobian entry, with a square root at zero.
#[derive_frule]
fn chain_arms(x: &[f64]) -> [f64; 3] {
    if x[0] >= 0.0 {
        [x[0].sqrt() * x[1], x[2].sin() + x[0] * x[0] + x[0], 1.0]
    } else {
        [x[1], x[1] * x[1], (x[0] / x[2]).ln()]
    }
}

#[test]
fn jacobian_array_of_chains_at_kinks_and_nan() {
    for x in [
        [0.5, 1.5, -0.3],
        [0.0, 1.5, -0.3],
        [0.0, 0.0, 0.0],
        [-0.5, 2.0, 0.0],
        [f64::NAN, 1.0, 2.0],
        [1.0, f64::INFINITY, 2.0],
        [-1.0, 2.0, -0.0],
    ] {
        check_jacobian_array(chain_arms {}, chain_arms, x);
    }
}

/// A residual of 35 inputs and 5 outputs (passes of 16 lanes, the last of 3).
#[derive_frule]
fn wide_residual(x: &[f64]) -> [f64; 5] {
    let mut r = [0.0; 5];
    for i in 0..x.len() {
        r[i % 5] += (i as f64 + 1.0) * x[i] * x[(i * 7) % x.len()];
        if x[i] > 0.9 {
            r[(i + 2) % 5] -= x[i].ln();
        }
    }
    r
}

#[test]
fn jacobian_array_in_chunks_with_nan() {
    let mut x: [f64; 35] = core::array::from_fn(|i| ((i * 13) as f64).sin());
    check_jacobian_array(wide_residual {}, wide_residual, x);
    x[17] = f64::NAN;
    check_jacobian_array(wide_residual {}, wide_residual, x);
    x[17] = -0.0;
    x[3] = 1e300;
    check_jacobian_array(wide_residual {}, wide_residual, x);
}

/// A scalar function of 9 and 13 inputs: `hessian_array` and `hvp_array` in chunks, with
/// `hessian` and central differences.
#[derive_frule]
fn coupled(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        s += (x[i] * x[(i + 3) % n]).sin() + 0.5 * x[i] * x[i] * (i as f64 + 1.0);
    }
    s * x[0] + x[n - 1].exp()
}

fn check_hessian_array<const N: usize>(x: [f64; N]) {
    let y = coupled(&x);
    let (v, g, h) = fwdad::drivers::hessian_array(coupled {}, &x);
    assert_eq!(v.to_bits(), y.to_bits());
    let (v2, g2, h2) = fwdad::drivers::hessian(coupled {}, &x);
    assert_eq!(v2.to_bits(), y.to_bits());
    let fh = fd_hessian(&coupled, &x);
    for i in 0..N {
        same(g[i], g2[i], 1e-13, &format!("gradient {i}"));
        for j in 0..N {
            same(
                h[i][j],
                h2[(i, j)],
                1e-12,
                &format!("H[{i}][{j}] against hessian"),
            );
            if x.iter().all(|a| a.is_finite()) {
                assert_close(h[i][j], fh[i][j], 1e-4, &format!("H[{i}][{j}] against fd"));
            }
        }
        let mut e = [0.0; N];
        e[i] = 1.0;
        e[(i + 1) % N] = -0.5;
        let (v3, g3, hv) = fwdad::drivers::hvp_array(coupled {}, &x, &e);
        assert_eq!(v3.to_bits(), y.to_bits());
        for k in 0..N {
            same(g3[k], g[k], 1e-13, &format!("hvp gradient {k}"));
            let want: f64 = (0..N).map(|m| h[k][m] * e[m]).sum();
            same(hv[k], want, 1e-12, &format!("hvp {k}"));
        }
    }
}

#[test]
fn hessian_and_hvp_arrays_past_one_pass() {
    check_hessian_array::<1>([0.3]);
    check_hessian_array::<5>(core::array::from_fn(|i| (i as f64 * 0.7).cos()));
    check_hessian_array::<9>(core::array::from_fn(|i| (i as f64 * 0.7).cos()));
    check_hessian_array::<13>(core::array::from_fn(|i| (i as f64 * 0.3).sin()));
    check_hessian_array::<17>(core::array::from_fn(|i| (i as f64 * 0.3).sin() - 0.2));
    let mut x: [f64; 9] = core::array::from_fn(|i| (i as f64 * 0.7).cos());
    x[4] = f64::NAN;
    check_hessian_array::<9>(x);
}

// ---------------------------------------------------------------------------------------
// Captures and shadowing.

/// A closure reads the binding it captured, not a later one of the same name.
#[derive_frule]
fn shadowed_capture(x: &[f64]) -> f64 {
    let w = x[0];
    let f = |t: f64| w * t;
    let g = move |t: f64| w + t;
    let w = 5.0 * x[1];
    let basis: Vec<Box<dyn Fn(f64) -> f64>> = vec![Box::new(|t| w * t), Box::new(move |t| t - w)];
    let w = x[0] * x[1];
    let mut s = f(x[1]) + g(w) + w;
    for phi in &basis {
        s += phi(x[0]);
    }
    s
}

#[test]
fn shadowed_names_after_a_closure() {
    check_widths!(
        bind(shadowed_capture {}, (Wrt,)),
        shadowed_capture,
        [0.7, 1.3]
    );
}

/// A list shadowed by another in an inner block; the outer one walked after.
#[derive_frule]
fn shadowed_lists(x: &[f64]) -> f64 {
    let basis: [Box<dyn Fn(f64) -> f64>; 2] = [Box::new(|t| t.sin()), Box::new(|t| t * t)];
    let mut s = 0.0;
    {
        let basis: [Box<dyn Fn(f64) -> f64>; 3] = [
            Box::new(|t| t.exp()),
            Box::new(|t| 2.0 * t),
            Box::new(|t| t.cos()),
        ];
        for phi in &basis {
            s += phi(x[0]);
        }
        s += basis.len() as f64;
    }
    for (k, phi) in basis.iter().enumerate() {
        s += (k as f64 + 1.0) * phi(x[1]);
    }
    s * basis.len() as f64
}

#[test]
fn lists_shadowed_in_a_block() {
    check_widths!(bind(shadowed_lists {}, (Wrt,)), shadowed_lists, [0.7, 1.3]);
}

/// Extremes with NaN sent to `Equal` and NaN skipped by `f64::max`.
#[derive_frule]
fn nan_extremes(x: &[f64]) -> f64 {
    let v: Vec<f64> = x
        .iter()
        .map(|a| if *a > 1.0 { f64::NAN } else { a * a })
        .collect();
    let hi = v
        .iter()
        .copied()
        .max_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal))
        .unwrap();
    let lo = v
        .iter()
        .copied()
        .min_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal))
        .unwrap();
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let n = v.iter().copied().fold(f64::INFINITY, f64::min);
    let r = v.iter().copied().reduce(f64::max).unwrap();
    let c = x[0].clamp(-0.5, 0.5);
    let hi = if hi.is_nan() { 0.0 } else { hi };
    let lo = if lo.is_nan() { 0.0 } else { lo };
    let r = if r.is_nan() { 0.0 } else { r };
    hi + 2.0 * lo + 3.0 * m + 4.0 * n + 5.0 * r + c
}

#[test]
fn extremes_with_nan() {
    for x in [
        vec![0.5, 1.5, -0.3, 0.2],
        vec![1.5, 0.5, -0.3, 0.9],
        vec![0.1, 0.6, 2.0, -0.8, 3.0, 0.3],
        vec![1.5, 2.5, 0.7],
    ] {
        let y = nan_extremes(&x);
        let v = primal_of(bind(nan_extremes {}, (Wrt,)), &x);
        assert_eq!(v.to_bits(), y.to_bits(), "{x:?}: {v} vs {y}");
        let (_, g) = gradient(bind(nan_extremes {}, (Wrt,)), &x);
        let want = fd_gradient(&nan_extremes, &x);
        for k in 0..x.len() {
            same(g[k], want[k], 1e-6, &format!("{x:?}: d/dx{k}"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Type aliases renamed, globbed and shadowed: each function computes in the precision
// rustc gives the name.

type Single = f32;

mod prec {
    /// Shadowed wherever it is imported (by `globbed`'s own `Real`).
    #[allow(dead_code)]
    pub type Real = f32;
    pub type Wide = f64;
}

mod renamed {
    use super::prec::Wide as Real;
    use fwdad::prelude::*;

    /// `Real` is `f64` here (`Wide` renamed).
    #[derive_frule]
    pub fn third(x: f64) -> f64 {
        let a = x as Real;
        let b: Real = a / 3.0 + 0.1;
        b as f64 * x
    }
}

mod globbed {
    use super::prec::*;
    use fwdad::prelude::*;

    /// The module's own `Real` (`f64`) shadows the glob's `f32`.
    type Real = f64;

    #[derive_frule]
    pub fn third(x: f64) -> f64 {
        let a = x as Real;
        let b: Real = a / 3.0 + 0.1;
        let w: Wide = b * 0.7;
        w as f64 * x
    }
}

mod shadows_file {
    use fwdad::prelude::*;

    /// The file's `Single` is `f32`; this module's is `f64`.
    type Single = f64;

    #[derive_frule]
    pub fn third(x: f64) -> f64 {
        let a = x as Single;
        let b: Single = a / 3.0 + 0.1;
        b as f64 * x
    }
}

/// The file's `Single` (`f32`).
#[derive_frule]
fn third_single(x: f64) -> f64 {
    let a = x as Single;
    let b: Single = a / 3.0 + 0.1;
    b as f64 * x
}

#[test]
fn aliases_renamed_globbed_shadowed() {
    type Case = (&'static str, fn(f64) -> f64, fn(f64) -> (f64, f64));
    let cases: [Case; 4] = [
        ("renamed", renamed::third, |x| {
            derivative(renamed::third {}, x)
        }),
        ("globbed", globbed::third, |x| {
            derivative(globbed::third {}, x)
        }),
        ("shadows_file", shadows_file::third, |x| {
            derivative(shadows_file::third {}, x)
        }),
        ("single", third_single, |x| derivative(third_single {}, x)),
    ];
    for (name, plain, rule) in cases {
        for x in [0.7, 1.3, -2.9] {
            let (v, d) = rule(x);
            let y = plain(x);
            assert_eq!(v.to_bits(), y.to_bits(), "{name} at {x}: {v} vs {y}");
            // k (x²/3 + 0.1 x), k = 0.7 where the result is scaled.
            let k = if name == "globbed" { 0.7 } else { 1.0 };
            let tol = if name == "single" { 1e-6 } else { 1e-14 };
            assert_close(d, k * (2.0 * x / 3.0 + 0.1), tol, &format!("{name} at {x}"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Generic code at f64, `&mut self` state, constant structs.

#[derive(Differentiable, Clone)]
struct Filter {
    gain: f64,
    state: [f64; 2],
    steps: usize,
}

#[derive_frule]
impl Filter {
    /// A second-order section; the state shifts, the count grows.
    fn push(&mut self, u: f64) -> f64 {
        let y = self.gain * u + 0.5 * self.state[0] - 0.25 * self.state[1];
        self.state.swap(0, 1);
        self.state[0] = y;
        self.steps += 1;
        y
    }

    fn reset_to(&mut self, v: f64) -> f64 {
        let old = std::mem::replace(&mut self.state, [v, v]);
        old[0] + old[1]
    }
}

#[derive_frule]
fn filtered(x: &[f64]) -> f64 {
    let mut f = Filter {
        gain: x[0],
        state: [0.0, x[1]],
        steps: 0,
    };
    let mut s = 0.0;
    for &u in &x[1..] {
        s += f.push(u) * (f.steps as f64);
    }
    let old = f.reset_to(x[2] * 0.5);
    s + old + f.push(1.0) + f.state[1]
}

#[test]
fn mut_self_state() {
    check_widths!(bind(filtered {}, (Wrt,)), filtered, [0.8, 0.3, -1.2, 0.6]);
}

/// A generic smooth maximum, instantiated at `f64` from a derived body.
#[derive_frule]
fn soft_max<T: num_traits::Float>(v: &[T], k: T) -> T {
    let m = v.iter().copied().fold(T::neg_infinity(), T::max);
    let s = v
        .iter()
        .fold(T::zero(), |acc, &a| acc + ((a - m) * k).exp());
    m + s.ln() / k
}

#[derive_frule(inactive(k))]
fn soft_max_at(x: &[f64], k: f64) -> f64 {
    soft_max(x, k) + soft_max(&x[1..], 2.0 * k)
}

#[test]
fn generic_float_at_f64() {
    let x = [0.3, -0.7, 1.1, 1.1];
    let plain = |x: &[f64]| soft_max_at(x, 3.0);
    check_widths!(bind(soft_max_at {}, (Wrt, Inactive(3.0))), plain, x);
}

/// A struct passed as a constant: its fields read, a method called.
#[derive(Differentiable, Clone)]
struct Spring {
    k: f64,
    rest: f64,
    n: usize,
}

#[derive_frule]
impl Spring {
    fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d * self.n as f64
    }
}

#[derive_frule]
fn springs(x: &[f64], s: &Spring) -> f64 {
    let mut e = 0.0;
    for i in 1..x.len() {
        e += s.energy(x[i] - x[i - 1]) + s.k * x[i];
    }
    e
}

#[derive_frule]
fn springs_fixed(x: &[f64]) -> f64 {
    let s = Spring {
        k: 2.5,
        rest: 0.4,
        n: 3,
    };
    springs(x, &s)
}

#[test]
fn constant_struct() {
    let s = Spring {
        k: 2.5,
        rest: 0.4,
        n: 3,
    };
    let x = [0.1, 0.9, 1.2, 2.0];
    let plain = |x: &[f64]| springs(x, &s);
    check_widths!(bind(springs_fixed {}, (Wrt,)), plain, x);
    // The entry with the struct a constant, one direction per input.
    let want = fd_gradient(&plain, &x);
    for k in 0..x.len() {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        let d = springs_frule(Dual::new(&x[..], &e[..]), Dual::constant(&s));
        assert_eq!(d.primal.to_bits(), plain(&x).to_bits());
        assert_close(d.tangent, want[k], 1e-6, "constant struct");
    }
}

// ---------------------------------------------------------------------------------------
// Jacobian entries of bodies that pass parts of their argument on.

#[derive_frule]
fn pair_chain(a: &[f64], b: &[f64]) -> [f64; 2] {
    [a[0] * b[1] + a[1].sin(), b[0] / a[0] - a[1] * a[1]]
}

#[derive_frule]
fn scalar_chain(p: f64, q: f64, r: f64) -> [f64; 2] {
    [p * q - r, (p + r).exp() * q]
}

/// Overlapping sub-slices of one argument.
#[derive_frule]
fn passes_overlapping(x: &[f64]) -> [f64; 2] {
    pair_chain(&x[1..], &x[..3])
}

/// Elements in another order, one twice.
#[derive_frule]
fn passes_elements(x: &[f64]) -> [f64; 2] {
    scalar_chain(x[2], x[0], x[2])
}

/// A tail and a head, the same element read through both.
#[derive_frule]
fn passes_tail_head(x: &[f64]) -> [f64; 2] {
    pair_chain(&x[2..], &x[1..])
}

#[test]
fn jacobian_entries_of_parts_passed_on() {
    for x in [[0.5, 1.5, -0.3, 0.8], [2.0, -1.0, 0.25, 1.0]] {
        check_jacobian_array(passes_overlapping {}, passes_overlapping, x);
        check_jacobian_array(passes_elements {}, passes_elements, x);
        check_jacobian_array(passes_tail_head {}, passes_tail_head, x);
        for (name, plain, (y, j)) in [
            (
                "overlapping",
                passes_overlapping as fn(&[f64]) -> [f64; 2],
                fwdad::drivers::jacobian(passes_overlapping {}, &x),
            ),
            (
                "elements",
                passes_elements,
                fwdad::drivers::jacobian(passes_elements {}, &x),
            ),
            (
                "tail_head",
                passes_tail_head,
                fwdad::drivers::jacobian(passes_tail_head {}, &x),
            ),
        ] {
            let want = plain(&x);
            for i in 0..2 {
                assert_eq!(y[i].to_bits(), want[i].to_bits(), "{name}: value {i}");
                let gi = fd_gradient(&|x: &[f64]| plain(x)[i], &x);
                for k in 0..4 {
                    assert_close(j[(i, k)], gi[k], 1e-6, &format!("{name}: J[{i}][{k}]"));
                }
            }
        }
    }
}
