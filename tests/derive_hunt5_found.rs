//! Fifth hunt for wrong primals and derivatives.
//!
//! Found:
//! - An internal error (`invalid IR after lower: r1 yields 0 values to i14`) where a loop
//!   body or an `if` arm ends in an `if` or `match` none of whose arms reaches its end:
//!   `while i < n { .. if v < 0.0 { continue; } return Some(v); }` (the `while` test's
//!   `else` breaks), `loop { .. match i { 3 => return s, _ => continue } }`, `for` bodies
//!   ending in `if .. { return .. } else { break; }`, an arm `if b { return x } else {
//!   return y }`. The region's end was left yielding nothing to a loop carrying values
//!   (or an `if` with a result); it now ends in `Terminator::Unreachable`. Fuzz case 61.
//!
//! The other functions are guards that passed, around last session's constructs (user
//! iterators nested, resumed, zipped, of pairs, owning a `Vec`, calling `&mut self`
//! methods; a float field wrapped by `%`; integer and float locals from fields; `Option`'s
//! `or`, `and`, `xor`, `zip`, `filter`; closures returning closures; the entry API's
//! closures; `Dual::constant(&struct)`; stateful closures; an `f32` alias in a module;
//! nalgebra views borrowed in reverse order, a row's `iter_mut`, storage halves, ndarray's
//! `multi_slice_mut` reversed and stepped, `DualQr`, values over `T: RealField`) and
//! mutation (Gauss-Seidel sweeps reading updated neighbours, backward differences,
//! `iter_mut().rev()`, `chunks_exact_mut`, `swap`, `sort_by`, `reverse`, `split_at_mut`,
//! `&mut f64` helpers on buffer elements, copies and `mem::swap`/`replace`/`take`, known
//! zeros stored over live tangents, nested arrays and `Vec<Vec<f64>>` written in place, a
//! struct's buffer swapped and sorted by its method): each in every mode (one direction,
//! batches of 1, 2, 4, 8 and 16 lanes, every `GradientPlan`, `gradient`, the Hessian and
//! `hvp`) against central differences or closed forms, primals bit for bit, buffers left
//! as the plain function leaves them; NaN and infinite tangents at singular points
//! identical in every width.
#![allow(
    clippy::needless_range_loop,
    clippy::let_and_return,
    clippy::match_single_binding,
    clippy::map_entry,
    clippy::assign_op_pattern,
    clippy::ptr_arg
)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;
use std::collections::{BTreeMap, HashMap};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::{check_in_place, same};

// ---------------------------------------------------------------------------------------
// Mutation

/// A Gauss-Seidel sweep: each point reads its left neighbour already updated.
#[derive_frule]
fn gauss_seidel(v: &mut [f64]) {
    for i in 1..v.len() - 1 {
        v[i] = 0.5 * (v[i - 1] + v[i + 1]) + 0.1 * v[i] * v[i];
    }
}

#[test]
fn gauss_seidel_in_place() {
    check_in_place(
        |v, dv| {
            gauss_seidel_frule(Dual::new(v, dv));
        },
        gauss_seidel,
        &[0.3, -1.2, 0.8, 2.0, 0.5],
    );
}

/// Backward differences in place, right to left.
#[derive_frule]
fn backward_diff(v: &mut [f64]) {
    for i in (1..v.len()).rev() {
        v[i] -= v[i - 1] * v[i - 1];
    }
}

#[test]
fn backward_differences_in_place() {
    check_in_place(
        |v, dv| {
            backward_diff_frule(Dual::new(v, dv));
        },
        backward_diff,
        &[0.3, -1.2, 0.8, 2.0, 0.5],
    );
}

/// Suffix sums through `iter_mut().rev()`.
#[derive_frule]
fn suffix_sums(v: &mut [f64]) {
    let mut acc = 0.0;
    for x in v.iter_mut().rev() {
        acc += *x * *x;
        *x = acc;
    }
}

#[test]
fn suffix_sums_in_place() {
    check_in_place(
        |v, dv| {
            suffix_sums_frule(Dual::new(v, dv));
        },
        suffix_sums,
        &[0.3, -1.2, 0.8, 2.0, 0.5],
    );
}

/// Rotates each pair of a flat list of 2-vectors by the angle the pair's norm gives.
#[derive_frule]
fn rotate_pairs(v: &mut [f64]) {
    for p in v.chunks_exact_mut(2) {
        let a = (p[0] * p[0] + p[1] * p[1]).sqrt();
        let (s, c) = a.sin_cos();
        let x = p[0];
        p[0] = c * x - s * p[1];
        p[1] = s * x + c * p[1];
    }
}

#[test]
fn chunks_exact_mut_rotations_in_place() {
    check_in_place(
        |v, dv| {
            rotate_pairs_frule(Dual::new(v, dv));
        },
        rotate_pairs,
        &[0.3, -1.2, 0.8, 2.0, 0.5, 0.1],
    );
}

/// Bubble passes with `swap` on the primal order, then squares.
#[derive_frule]
fn bubble(v: &mut [f64]) {
    let n = v.len();
    for i in 0..n {
        for j in 0..n - 1 - i {
            if v[j] > v[j + 1] {
                v.swap(j, j + 1);
            }
        }
    }
    for i in 0..n {
        v[i] = v[i] * (i as f64 + 1.0);
    }
}

#[test]
fn bubble_sort_with_swap_in_place() {
    check_in_place(
        |v, dv| {
            bubble_frule(Dual::new(v, dv));
        },
        bubble,
        &[0.3, -1.2, 0.8, 2.0, 0.5],
    );
}

/// `sort_by` on the values, `reverse`, then a swap of the ends with itself and the other.
#[derive_frule]
fn sort_then_edit(v: &mut [f64]) {
    v.sort_by(|a, b| b.partial_cmp(a).unwrap());
    v.reverse();
    let n = v.len();
    v.swap(0, 0);
    v.swap(0, n - 1);
    v[1] *= v[0];
}

#[test]
fn sort_by_reverse_and_swap_in_place() {
    check_in_place(
        |v, dv| {
            sort_then_edit_frule(Dual::new(v, dv));
        },
        sort_then_edit,
        &[0.3, -1.2, 0.8, 2.0, 0.5],
    );
}

/// Two halves from `split_at_mut`, each written from the other.
#[derive_frule]
fn halves(v: &mut [f64]) {
    let n = v.len() / 2;
    let (a, b) = v.split_at_mut(n);
    for i in 0..n {
        a[i] += b[i] * 0.5;
        b[i] -= a[i] * a[i];
    }
}

#[test]
fn split_at_mut_halves_in_place() {
    check_in_place(
        |v, dv| {
            halves_frule(Dual::new(v, dv));
        },
        halves,
        &[0.3, -1.2, 0.8, 2.0, 0.5, 0.7],
    );
}

/// A helper writing through `&mut f64` twice, called on two elements of one buffer.
#[derive_frule]
fn relax(a: &mut f64, b: f64) {
    *a = 0.5 * (*a + b);
    *a *= *a;
}

#[derive_frule]
fn relax_all(v: &mut [f64]) {
    for i in 1..v.len() {
        let left = v[i - 1];
        relax(&mut v[i], left);
    }
    let last = v[v.len() - 1];
    relax(&mut v[0], last);
}

#[test]
fn a_mut_f64_helper_on_buffer_elements_in_place() {
    check_in_place(
        |v, dv| {
            relax_all_frule(Dual::new(v, dv));
        },
        relax_all,
        &[0.3, -1.2, 0.8, 2.0, 0.5],
    );
}

/// The mutations above, gathered in a function of the point (every mode).
#[derive_frule]
fn mutated(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    gauss_seidel(&mut v);
    backward_diff(&mut v);
    rotate_pairs(&mut v[..4]);
    suffix_sums(&mut v);
    let mut w = x.to_vec();
    sort_then_edit(&mut w);
    halves(&mut w);
    relax_all(&mut w);
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i] * (i as f64 + 0.5) + w[i].sin();
    }
    s
}

#[test]
fn mutations_in_every_mode() {
    check_widths!(
        bind(mutated {}, (Wrt,)),
        |x: &[f64]| mutated(x),
        [0.3, -0.4, 0.8, 0.2, 0.5, -0.1]
    );
}

/// Sorted by the absolute value, then the ends' sum with sizes.
#[derive_frule]
fn sorted_weights(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = x.iter().map(|t| t * t - 0.3 * t).collect();
    v.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    let mut s = 0.0;
    for (i, t) in v.iter().enumerate() {
        s += t * (i * i) as f64;
    }
    s
}

#[test]
fn sort_by_key_of_active_values_in_every_mode() {
    check_widths!(
        bind(sorted_weights {}, (Wrt,)),
        |x: &[f64]| sorted_weights(x),
        [0.3, -0.4, 0.8, 0.2, 0.5, -1.1, 0.9, 1.7, -0.65]
    );
}

// ---------------------------------------------------------------------------------------
// User iterators

/// A phase accumulator: the phase a float field wrapped by `%` on another float field.
#[derive(Clone, Debug, Differentiable)]
pub struct Oscillator {
    phase: f64,
    step: f64,
    period: f64,
    left: usize,
}

#[derive_frule]
impl Iterator for Oscillator {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let mut phase = self.phase;
        phase += self.step;
        phase %= self.period;
        self.phase = phase;
        Some(phase.sin())
    }
}

#[derive_frule]
fn wave_sum(p: &[f64]) -> f64 {
    let osc = Oscillator {
        phase: p[0],
        step: p[1],
        period: p[2],
        left: 12,
    };
    osc.map(|s| s * s).sum::<f64>()
}

#[test]
fn a_float_field_wrapped_by_rem_in_every_mode() {
    check_widths!(
        bind(wave_sum {}, (Wrt,)),
        |x: &[f64]| wave_sum(x),
        [0.35, 0.7, 2.9]
    );
}

/// An iterator whose integer state is copied to a local and read with `%` and `/`, beside
/// a float field read into a local the same way.
#[derive(Clone, Debug, Differentiable)]
pub struct Digits {
    base: u32,
    i: u32,
    scale: f64,
}

#[derive_frule]
impl Iterator for Digits {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        self.i += 1;
        let mut i = self.i;
        let mut scale = self.scale;
        let mut r = 0.0;
        while i > 0 {
            scale /= self.base as f64;
            r += scale * (i % self.base) as f64;
            i /= self.base;
        }
        self.scale *= 1.0 + 1e-3 * r;
        Some(r)
    }
}

#[derive_frule]
fn digit_mean(p: &[f64]) -> f64 {
    let d = Digits {
        base: 3,
        i: 0,
        scale: p[0],
    };
    let mut s = 0.0;
    for (k, u) in d.take(20).enumerate() {
        s += (p[1] * u).cos() * (k as f64 + 1.0);
    }
    s
}

#[test]
fn integer_and_float_locals_from_fields_in_every_mode() {
    check_widths!(
        bind(digit_mean {}, (Wrt,)),
        |x: &[f64]| digit_mean(x),
        [1.3, 0.7]
    );
}

/// `n` evenly spaced points from `a` to `b`.
#[derive(Clone, Debug, Differentiable)]
pub struct Linspace {
    a: f64,
    b: f64,
    n: usize,
    i: usize,
}

#[derive_frule]
impl Linspace {
    pub fn new(a: f64, b: f64, n: usize) -> Self {
        Linspace { a, b, n, i: 0 }
    }
}

#[derive_frule]
impl Iterator for Linspace {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        if self.i >= self.n {
            return None;
        }
        let t = self.a + (self.b - self.a) * self.i as f64 / (self.n - 1) as f64;
        self.i += 1;
        Some(t)
    }
}

/// A double integral over a triangle: the inner grid depends on the outer point, and a
/// grid iterated again after a partial pass.
#[derive_frule]
fn triangle(p: &[f64]) -> f64 {
    let mut s = 0.0;
    for u in Linspace::new(0.0, p[0], 7) {
        for v in Linspace::new(u, p[1], 5) {
            s += (u * v).sin();
        }
    }
    let mut grid = Linspace::new(p[0], p[1], 9);
    let first = grid.next().unwrap();
    let second = grid.next().unwrap();
    for t in grid {
        s += t * first - second;
    }
    s
}

#[test]
fn nested_and_resumed_user_iterators_in_every_mode() {
    check_widths!(
        bind(triangle {}, (Wrt,)),
        |x: &[f64]| triangle(x),
        [0.9, 1.6]
    );
}

/// A user iterator zipped with a slice, and `step_by`/`skip` on one.
#[derive_frule]
fn weighted_grid(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (t, w) in Linspace::new(x[0], x[1], x.len())
        .take(x.len())
        .zip(x.iter())
    {
        s += t * w;
    }
    let tail: f64 = Linspace::new(x[1], x[2], 10).skip(3).map(|t| t.exp()).sum();
    s + tail
}

#[test]
fn a_user_iterator_zipped_and_skipped_in_every_mode() {
    check_widths!(
        bind(weighted_grid {}, (Wrt,)),
        |x: &[f64]| weighted_grid(x),
        [0.2, 0.9, 1.3, -0.4]
    );
}

// ---------------------------------------------------------------------------------------
// Option combinators

#[derive_frule]
fn sqrt_pos(a: f64) -> Option<f64> {
    if a > 0.0 {
        Some(a.sqrt())
    } else {
        None
    }
}

/// `or`, `and`, `xor`, `zip` and `filter` of options that depend on the input.
#[derive_frule]
fn combos(x: &[f64]) -> f64 {
    let a = sqrt_pos(x[0]);
    let b = sqrt_pos(x[1]);
    let c = sqrt_pos(x[2]);
    let o = a.or(b).unwrap_or(x[2]);
    let n = a.and(c).map_or(0.5, |t| t * x[1]);
    let e = a.xor(b).unwrap_or(-1.0) * x[2];
    let bb: Option<f64> = b;
    let z = bb.zip(c).map(|(p, q)| p * q).unwrap_or(x[0] * x[0]);
    let f = c.filter(|t| *t > 0.9).unwrap_or(x[0]);
    o + n + e + z + f
}

#[test]
fn option_combinators_in_every_mode() {
    for x in [
        [0.3, 1.2, 0.8],
        [-0.3, 1.2, 0.8],
        [0.3, -1.2, 1.8],
        [-0.3, -1.2, -0.8],
        [0.3, 1.2, -0.8],
    ] {
        check_widths!(bind(combos {}, (Wrt,)), |x: &[f64]| combos(x), x);
    }
}

// ---------------------------------------------------------------------------------------
// Closures returning closures

#[derive_frule]
fn factories(x: &[f64]) -> f64 {
    let make = |a: f64| move |t: f64| a * t.sin() + x[2];
    let f = make(x[0]);
    let g = make(x[1] * x[1]);
    let mut s = 0.0;
    for i in 0..3 {
        s += f(x[i]) * g(x[i]);
    }
    s + make(x[1])(x[0])
}

#[test]
fn closures_returning_closures_in_every_mode() {
    check_widths!(
        bind(factories {}, (Wrt,)),
        |x: &[f64]| factories(x),
        [0.3, -1.2, 0.8]
    );
}

// ---------------------------------------------------------------------------------------
// Entry closures

#[derive_frule]
fn entries(x: &[f64], keys: &[u8]) -> f64 {
    let mut m: BTreeMap<u8, f64> = BTreeMap::new();
    for (i, &k) in keys.iter().enumerate() {
        m.entry(k)
            .and_modify(|v| *v = *v * x[i] + 1.0)
            .or_insert_with(|| x[i].exp());
    }
    let mut c: HashMap<u8, f64> = HashMap::new();
    for (i, &k) in keys.iter().enumerate() {
        *c.entry(k).or_insert_with(|| m[&k] * 2.0) *= x[i];
    }
    let mut s = 0.0;
    for (k, v) in &m {
        s += v * c[k] * (*k as f64);
    }
    s
}

#[test]
fn and_modify_then_or_insert_with_in_every_mode() {
    let keys = [1u8, 2, 1, 3, 2, 1];
    check_widths!(
        bind(entries {}, (Wrt, &keys[..])),
        |x: &[f64]| entries(x, &keys),
        [0.3, -1.2, 0.8, 0.4, 0.5, -0.7]
    );
}

// ---------------------------------------------------------------------------------------
// Dual::constant of a struct

#[derive(Clone, Debug, Differentiable)]
pub struct Spring {
    k: f64,
    rest: f64,
    n: usize,
}

#[derive_frule]
fn spring_energy(s: &Spring, x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..s.n.min(x.len() - 1) {
        let d = x[i + 1] - x[i] - s.rest;
        e += 0.5 * s.k * d * d;
    }
    e
}

#[test]
fn a_constant_struct_in_every_mode() {
    let s = Spring {
        k: 3.0,
        rest: 0.5,
        n: 3,
    };
    let x = [0.3, -1.2, 0.8, 2.0, 0.5];
    check_widths!(
        bind(spring_energy {}, (&s, Wrt)),
        |x: &[f64]| spring_energy(&s, x),
        x
    );
    let dx = [1.0, 0.0, 0.0, 0.0, 0.0];
    let d = spring_energy_frule(Dual::constant(&s), Dual::new(&x[..], &dx[..]));
    assert_eq!(d.primal.to_bits(), spring_energy(&s, &x).to_bits());
    let g = fd_gradient(&|x: &[f64]| spring_energy(&s, x), &x);
    assert_close(d.tangent, g[0], 1e-6, "constant spring");
}

// ---------------------------------------------------------------------------------------
// Round 2

/// NaN and infinite tangents: one direction against every width and plan, no differences.
macro_rules! check_nan_widths {
    ($rule:expr, $plain:expr, $x:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let y: f64 = plain(x);
        let mut one = Vec::new();
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp($rule, x, &e);
            assert_eq!(v.to_bits(), y.to_bits(), "one direction: primal {v} vs {y}");
            one.push(d);
        }
        let mut modes: Vec<(String, f64, Vec<f64>)> = vec![
            (
                "1 lane".into(),
                fwdad::drivers::gradient_with::<1>($rule, x).0,
                fwdad::drivers::gradient_with::<1>($rule, x).1,
            ),
            (
                "2 lanes".into(),
                fwdad::drivers::gradient_with::<2>($rule, x).0,
                fwdad::drivers::gradient_with::<2>($rule, x).1,
            ),
            (
                "4 lanes".into(),
                fwdad::drivers::gradient_with::<4>($rule, x).0,
                fwdad::drivers::gradient_with::<4>($rule, x).1,
            ),
            (
                "8 lanes".into(),
                fwdad::drivers::gradient_with::<8>($rule, x).0,
                fwdad::drivers::gradient_with::<8>($rule, x).1,
            ),
            (
                "16 lanes".into(),
                fwdad::drivers::gradient_with::<16>($rule, x).0,
                fwdad::drivers::gradient_with::<16>($rule, x).1,
            ),
            (
                "second order".into(),
                fwdad::drivers::hessian_with::<2>($rule, x).0,
                fwdad::drivers::hessian_with::<2>($rule, x).1,
            ),
            (
                "gradient".into(),
                fwdad::drivers::gradient($rule, x).0,
                fwdad::drivers::gradient($rule, x).1,
            ),
        ];
        let mut ws = fwdad::drivers::GradientWorkspace::new();
        for plan in fwdad::drivers::GradientPlan::CANDIDATES {
            let (v, d) = ws.gradient_with_plan($rule, x, plan);
            modes.push((format!("{plan:?}"), v, d.to_vec()));
        }
        for (mode, v, d) in modes {
            assert_eq!(v.to_bits(), y.to_bits(), "{mode}: primal {v} vs {y}");
            for k in 0..x.len() {
                same(
                    d[k],
                    one[k],
                    1e-12,
                    &format!("{mode} against one direction: d/dx{k} ({:?})", one),
                );
            }
        }
        one
    }};
}

/// Kinks and singular points: √0, ln 0, |0|, max ties, 0/0, `powf` at 0, `hypot(0, 0)`.
#[derive_frule]
fn singular(x: &[f64]) -> f64 {
    let a = (x[0] - x[1]).sqrt();
    let b = (x[2] * x[0]).ln();
    let c = (x[1] - x[3]).abs() + x[0].max(x[1]);
    let d = x[3].powf(x[0]) + x[2].hypot(x[3]);
    let e = if a > 0.5 { a * b } else { c * d };
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (x[i] * x[i]).sqrt() + x[i].atan2(x[3]);
    }
    e + s + b * 0.0 + a
}

#[test]
fn singular_points_agree_across_widths() {
    for x in [
        [1.0, 1.0, 0.0, 0.0],
        [2.0, 1.0, 0.5, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [1.0, -1.0, 1.0, -1.0],
        [3.0, 0.5, f64::INFINITY, 1.0],
        [f64::NAN, 0.5, 1.0, 1.0],
    ] {
        check_nan_widths!(bind(singular {}, (Wrt,)), |x: &[f64]| singular(x), x);
    }
}

/// A buffer reset to zero each pass (`acc[j] = 0.0`) then accumulated only on some passes.
#[derive_frule]
fn resets(x: &[f64]) -> f64 {
    let n = x.len();
    let mut acc = vec![0.0; n];
    let mut total = 0.0;
    for pass in 0..4 {
        for j in 0..n {
            acc[j] = 0.0;
        }
        for j in 0..n {
            if (j + pass) % 3 != 0 {
                acc[j] += x[j] * (pass as f64 + 1.0);
            }
            if pass == 2 && j == 1 {
                acc[j] = x[0] * x[2];
            }
        }
        for j in 0..n {
            total += acc[j] * acc[j];
        }
        acc[pass % n] = 0.0;
        total += acc.iter().sum::<f64>();
    }
    total
}

#[test]
fn known_zero_stores_in_every_mode() {
    check_widths!(
        bind(resets {}, (Wrt,)),
        |x: &[f64]| resets(x),
        [0.3, -1.2, 0.8, 2.0, 0.5]
    );
}

/// Copies that must not share tangents with their source.
#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Pt {
    x: f64,
    y: f64,
}

#[derive_frule]
fn copies(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let w = v.clone();
    v[0] *= 3.0;
    let mut a = [x[0], x[1]];
    let b = a;
    a[0] = 0.0;
    a[1] *= a[1];
    let mut p = Pt { x: x[2], y: x[3] };
    let q = p;
    p.x = p.y * 2.0;
    let mut m = x[0];
    let mut n = x[1] * x[1];
    std::mem::swap(&mut m, &mut n);
    let old = std::mem::replace(&mut v[1], x[3]);
    let taken = std::mem::take(&mut a[1]);
    w[0] + v[0] * 2.0 + a[0] + a[1] + b[0] * b[1] + p.x + q.x * q.y + m - n * 0.5
        + old * v[1]
        + taken
}

#[test]
fn copies_and_mem_functions_in_every_mode() {
    check_widths!(
        bind(copies {}, (Wrt,)),
        |x: &[f64]| copies(x),
        [0.3, -1.2, 0.8, 2.0]
    );
}

/// Writes through `iter_mut` adaptors, `last_mut`, `first_mut`, `get_mut`.
#[derive_frule]
fn adaptor_writes(v: &mut [f64], w: &[f64]) {
    for (a, b) in v.iter_mut().zip(w.iter()) {
        *a += b * *a;
    }
    for a in v.iter_mut().skip(1).step_by(2) {
        *a = a.sin();
    }
    let mut prev = 0.0;
    for (i, a) in v.iter_mut().enumerate() {
        *a += prev * i as f64;
        prev = *a;
    }
    if let Some(l) = v.last_mut() {
        *l *= prev;
    }
    if let Some(f) = v.first_mut() {
        *f -= w[0];
    }
    if let Some(g) = v.get_mut(2) {
        *g = g.exp();
    }
}

#[test]
fn adaptor_writes_in_place() {
    let w = [0.4, -0.3, 1.1, 0.7, 2.0];
    check_in_place(
        |v, dv| {
            adaptor_writes_frule(Dual::new(v, dv), Dual::new(&w[..], &[0.0; 5][..]));
        },
        |v| adaptor_writes(v, &w),
        &[0.3, -1.2, 0.8, 2.0, 0.5],
    );
}

#[derive_frule]
fn adaptor_total(x: &[f64]) -> f64 {
    let mut v = x[..5].to_vec();
    adaptor_writes(&mut v, &x[5..]);
    v.iter().map(|t| t * t).sum::<f64>()
}

#[test]
fn adaptor_writes_in_every_mode() {
    check_widths!(
        bind(adaptor_total {}, (Wrt,)),
        |x: &[f64]| adaptor_total(x),
        [0.3, -1.2, 0.8, 0.4, 0.5, 0.4, -0.3, 1.1, 0.7, 0.2]
    );
}

/// A user iterator read partly by `next()` in a counted loop, then to its end.
#[derive_frule]
fn by_ref_parts(p: &[f64]) -> f64 {
    let mut it = Linspace::new(p[0], p[1], 10);
    let mut head = 0.0;
    for _ in 0..3 {
        let t = it.next().unwrap();
        head += t * t;
    }
    let mut rest = 0.0;
    for t in it {
        rest += t.sin();
    }
    head + 10.0 * rest
}

#[test]
fn by_ref_on_a_user_iterator_in_every_mode() {
    check_widths!(
        bind(by_ref_parts {}, (Wrt,)),
        |x: &[f64]| by_ref_parts(x),
        [0.3, 1.7]
    );
}

/// `Option` locals taken and replaced.
#[derive_frule]
fn option_state(x: &[f64]) -> f64 {
    let mut best: Option<f64> = None;
    let mut s = 0.0;
    for &v in x {
        let prev = best.replace(v * v);
        if let Some(p) = prev {
            s += p * v;
        }
    }
    let last = best.take().unwrap_or(0.0);
    s + last + best.unwrap_or(x[0])
}

#[test]
fn option_take_and_replace_in_every_mode() {
    check_widths!(
        bind(option_state {}, (Wrt,)),
        |x: &[f64]| option_state(x),
        [0.3, -1.2, 0.8]
    );
}

mod lowp {
    use fwdad::prelude::*;
    type Real = f32;

    /// Single precision through an alias: literals, casts and constants of `Real`.
    #[derive_frule]
    pub fn damped(x: f64, k: f64) -> f64 {
        let xs = x as Real;
        let c: Real = 0.1;
        let y = (xs * c + Real::EPSILON).sin() * (k as Real) + std::f32::consts::PI as Real;
        let z = Real::from(3u8) * y + 1e-3;
        (z as f64) * x
    }
}

#[derive_frule]
fn use_lowp(p: &[f64]) -> f64 {
    lowp::damped(p[0], p[1]) + p[0] * 0.1
}

#[test]
fn an_f32_alias_in_a_module_bit_for_bit() {
    let x = [0.3, 1.7];
    let y = use_lowp(&x);
    let (v, g) = fwdad::drivers::gradient(bind(use_lowp {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), y.to_bits());
    // ∂/∂x of (3 ((0.1 x + ε) sin k + π) + 1e-3) x + 0.1 x in f32 arithmetic: compare to
    // the f64 formula at f32 precision.
    let (x0, k) = (x[0], x[1]);
    let z = 3.0 * ((0.1 * x0).sin() * k + std::f64::consts::PI) + 1e-3;
    let dx = z + x0 * 3.0 * 0.1 * (0.1 * x0).cos() * k + 0.1;
    assert_close(g[0], dx, 1e-5, "d/dx");
    assert_close(g[1], x0 * 3.0 * (0.1 * x0).sin(), 1e-5, "d/dk");
}

// ---------------------------------------------------------------------------------------
// Library views (features `nalgebra`, `ndarray`)

#[cfg(all(feature = "nalgebra", feature = "ndarray"))]
mod libs {
    use super::*;
    use nalgebra::{Matrix2x3, Matrix3, RealField, SVector, Vector3};
    use ndarray::{s, Array1};

    /// Columns borrowed as `(later, earlier)`: `columns_range_pair_mut(j, i)` with `j > i`.
    #[derive_frule]
    fn reversed_pair(x: &[f64]) -> f64 {
        let mut m = Matrix3::from_row_slice(x);
        for i in 0..2 {
            let (mut cj, ci) = m.columns_range_pair_mut(2, i);
            let r = ci.dot(&cj) * 0.3;
            for k in 0..3 {
                cj[k] -= r * ci[k] + 0.1 * k as f64 * cj[k];
            }
        }
        m[(0, 0)] + 2.0 * m[(1, 2)] - 3.0 * m[(2, 1)] + m[(0, 2)] * m[(2, 2)]
    }

    #[test]
    fn columns_borrowed_in_reverse_order_in_every_mode() {
        check_widths!(
            bind(reversed_pair {}, (Wrt,)),
            |x: &[f64]| reversed_pair(x),
            [2.0, 0.5, 0.1, 0.4, 1.5, -0.3, 0.2, -0.1, 1.0]
        );
    }

    /// A row of a 2×3 matrix (column-major storage) written through its `iter_mut` with
    /// `enumerate`, and the storage split by `as_mut_slice().split_at_mut(3)`.
    #[derive_frule]
    fn row_writes(x: &[f64]) -> f64 {
        let mut m = Matrix2x3::from_row_slice(x);
        for (j, e) in m.row_mut(1).iter_mut().enumerate() {
            *e = *e * (j as f64 + 1.0) + x[j];
        }
        let (a, b) = m.as_mut_slice().split_at_mut(3);
        for i in 0..3 {
            a[i] += b[i] * b[i];
            b[i] -= a[2 - i];
        }
        let mut s = 0.0;
        for i in 0..2 {
            for j in 0..3 {
                s += m[(i, j)] * (1.0 + i as f64 + 3.0 * j as f64);
            }
        }
        s
    }

    #[test]
    fn row_iter_mut_and_storage_halves_in_every_mode() {
        check_widths!(
            bind(row_writes {}, (Wrt,)),
            |x: &[f64]| row_writes(x),
            [2.0, 0.5, 0.1, 0.4, 1.5, -0.3]
        );
    }

    /// `multi_slice_mut` with the later half first and with stepped slices.
    #[derive_frule]
    fn multi_slices(x: &[f64]) -> f64 {
        let mut a = Array1::from_vec(x.to_vec());
        {
            let (mut hi, lo) = a.multi_slice_mut((s![3..], s![..3]));
            for i in 0..3 {
                hi[i] += lo[i] * lo[2 - i];
            }
        }
        {
            let (mut even, mut odd) = a.multi_slice_mut((s![..;2], s![1..;2]));
            for i in 0..3 {
                even[i] *= odd[i];
                odd[i] -= 0.5 * even[i];
            }
        }
        let mut s = 0.0;
        for i in 0..6 {
            s += a[i] * (i as f64 + 1.0);
        }
        s
    }

    #[test]
    fn multi_slice_mut_reversed_and_stepped_in_every_mode() {
        check_widths!(
            bind(multi_slices {}, (Wrt,)),
            |x: &[f64]| multi_slices(x),
            [0.3, -1.2, 0.8, 2.0, 0.5, 0.7]
        );
    }

    /// A constant QR solving for a right-hand side that depends on the point, and an
    /// active matrix's QR beside it.
    #[derive_frule]
    fn qr_solves(x: &[f64]) -> f64 {
        let a = Matrix3::new(4.0, 1.0, 0.5, 1.0, 3.0, -0.5, 0.2, -0.3, 2.5);
        let qr = a.qr();
        let b = Vector3::new(x[0], x[1] * x[1], x[2]);
        let y = qr.solve(&b).expect("invertible");
        let mut c = Vector3::new(x[2], x[0], 1.0);
        qr.solve_mut(&mut c);
        let m = Matrix3::new(x[0] + 3.0, 1.0, 0.5, 1.0, 3.0, x[1], 0.2, -0.3, 2.5);
        let z = m.qr().solve(&b).expect("invertible");
        y.dot(&y) + c[1] * y[2] + z[0] * 2.0 - z[2]
    }

    #[test]
    fn qr_of_constant_and_active_matrices_in_every_mode() {
        check_widths!(
            bind(qr_solves {}, (Wrt,)),
            |x: &[f64]| qr_solves(x),
            [0.3, -1.2, 0.8]
        );
    }

    /// A library value over `T: RealField`: a spring's energy over `SVector<T, 3>`.
    #[derive_frule]
    fn spring3<T: RealField + Copy>(p: &SVector<T, 3>, q: &SVector<T, 3>, k: T) -> T {
        let d = p - q;
        let len = d.norm();
        let rest = T::from_f64(0.75).unwrap();
        k * (len - rest) * (len - rest) / T::from_f64(2.0).unwrap() + d.x * d.y.sin()
    }

    #[derive_frule]
    fn springs(x: &[f64]) -> f64 {
        let p = SVector::<f64, 3>::new(x[0], x[1], x[2]);
        let q = SVector::<f64, 3>::new(x[3], x[4], x[5]);
        spring3(&p, &q, 2.5) + spring3(&q, &p, x[0])
    }

    #[test]
    fn generic_real_field_values_in_every_mode() {
        check_widths!(
            bind(springs {}, (Wrt,)),
            |x: &[f64]| springs(x),
            [0.3, -1.2, 0.8, 2.0, 0.5, 0.7]
        );
    }
}

// ---------------------------------------------------------------------------------------
// Round 3: stateful closures and richer user iterators

#[derive_frule]
fn smoothed(x: &[f64]) -> f64 {
    let w = x[0];
    let mut n = 0.0;
    let mut mean = 0.0;
    let mut m = |v: f64| {
        n += 1.0;
        mean += w * (v - mean) / n;
        mean
    };
    let mut last = 0.0;
    for i in 1..x.len() {
        last = m(x[i] * x[i]);
    }
    let mut count = 0.0;
    let mut tick = |v: f64| {
        count += v;
        count * v
    };
    let a = tick(x[1]);
    let b = tick(x[2]);
    last + a * b + count
}

#[test]
fn stateful_closures_keep_their_state_in_every_mode() {
    check_widths!(
        bind(smoothed {}, (Wrt,)),
        |x: &[f64]| smoothed(x),
        [0.7, 0.3, -1.2, 0.8, 2.0]
    );
}

/// Points along a circle: items are pairs.
#[derive(Clone, Debug, Differentiable)]
pub struct Circle {
    r: f64,
    step: f64,
    k: usize,
    n: usize,
}

#[derive_frule]
impl Circle {
    fn angle(&mut self) -> f64 {
        let a = self.step * self.k as f64;
        self.k += 1;
        a
    }
}

#[derive_frule]
impl Iterator for Circle {
    type Item = (f64, f64);
    fn next(&mut self) -> Option<(f64, f64)> {
        if self.k == self.n {
            return None;
        }
        let a = self.angle();
        Some((self.r * a.cos(), self.r * a.sin()))
    }
}

/// The shoelace area of the polygon the circle's points make.
#[derive_frule]
fn polygon_area(p: &[f64]) -> f64 {
    let pts: Vec<(f64, f64)> = Circle {
        r: p[0],
        step: p[1],
        k: 0,
        n: 7,
    }
    .take(7)
    .collect();
    let mut a = 0.0;
    for i in 0..pts.len() {
        let (x0, y0) = pts[i];
        let (x1, y1) = pts[(i + 1) % pts.len()];
        a += x0 * y1 - x1 * y0;
    }
    let mut s = 0.0;
    for (x, y) in (Circle {
        r: p[0],
        step: p[1],
        k: 2,
        n: 5,
    }) {
        s += x * y;
    }
    0.5 * a + s
}

#[test]
fn an_iterator_of_pairs_calling_a_mut_method_in_every_mode() {
    check_widths!(
        bind(polygon_area {}, (Wrt,)),
        |x: &[f64]| polygon_area(x),
        [1.3, 0.7]
    );
}

/// An iterator over a `Vec` it owns: cumulative sums.
#[derive(Clone, Debug, Differentiable)]
pub struct Cumsum {
    xs: Vec<f64>,
    i: usize,
    acc: f64,
}

#[derive_frule]
impl Iterator for Cumsum {
    type Item = f64;
    fn next(&mut self) -> Option<f64> {
        while self.i < self.xs.len() {
            let v = self.xs[self.i];
            self.i += 1;
            if v < 0.0 {
                continue;
            }
            self.acc += v;
            return Some(self.acc);
        }
        None
    }
}

#[derive_frule]
fn cumsum_energy(x: &[f64]) -> f64 {
    let c = Cumsum {
        xs: x.to_vec(),
        i: 0,
        acc: 0.0,
    };
    let mut e = 0.0;
    for (k, s) in c.enumerate() {
        e += s * s * (k as f64 + 1.0);
    }
    let total: f64 = Cumsum {
        xs: x.iter().map(|v| v * 2.0).collect(),
        i: 1,
        acc: x[0],
    }
    .map(|v| v * v)
    .sum();
    e + total
}

#[test]
fn an_iterator_owning_a_vec_in_every_mode() {
    check_widths!(
        bind(cumsum_energy {}, (Wrt,)),
        |x: &[f64]| cumsum_energy(x),
        [0.7, 0.3, -1.2, 0.8, 2.0]
    );
}

// ---------------------------------------------------------------------------------------
// Loop bodies and arms ending in an `if` or `match` none of whose arms reaches its end

/// The first non-negative entry's square, scanning with `while` (`continue` past the
/// negative ones, `return` at the first other).
#[derive_frule]
fn first_non_negative(xs: &[f64]) -> Option<f64> {
    let mut i = 0;
    while i < xs.len() {
        let v = xs[i];
        i += 1;
        if v < 0.0 {
            continue;
        }
        return Some(v * v);
    }
    None
}

#[derive_frule]
fn first_square(x: &[f64]) -> f64 {
    first_non_negative(x).unwrap_or(-1.0) + x[0]
}

/// A partial sum that stops when it passes a threshold: `loop` with a `match` that
/// returns or continues.
#[derive_frule]
fn partial_until(x: &[f64]) -> f64 {
    let mut i = 0;
    let mut s = 0.0;
    loop {
        s += x[i] * x[i];
        i += 1;
        match i {
            n if n == x.len() => return s,
            _ if s > 2.0 => return s.sqrt(),
            _ => continue,
        }
    }
}

/// A `for` loop whose body ends in an `if` that returns or breaks, and an `if` arm that
/// ends in another such `if`.
#[derive_frule]
fn first_rise(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        s += w[0];
        if w[1] > w[0] {
            return s * w[1];
        } else if s > 3.0 {
            break;
        } else {
            continue;
        }
    }
    let y = if s > 0.0 {
        if x[0] > 1.0 {
            return s.ln();
        } else {
            return s.exp();
        }
    } else {
        s * s
    };
    y + x[1]
}

#[test]
fn loops_whose_bodies_end_in_a_diverging_if_or_match_in_every_mode() {
    for x in [[-0.3, -1.2, 0.8, 2.0], [0.3, -1.2, 0.8, 2.0]] {
        check_widths!(
            bind(first_square {}, (Wrt,)),
            |x: &[f64]| first_square(x),
            x
        );
    }
    // Closed form: the first non-negative entry is x₂ = 0.8 (d/dx₂ = 2·0.8), plus x₀.
    let (v, g) = fwdad::drivers::gradient(bind(first_square {}, (Wrt,)), &[-0.3, -1.2, 0.8, 2.0]);
    assert_eq!(v, 0.8 * 0.8 - 0.3);
    assert_eq!(g, [1.0, 0.0, 1.6, 0.0]);
    for x in [[0.3, -0.2, 0.8, 0.4], [0.3, -1.2, 0.8, 2.0]] {
        check_widths!(
            bind(partial_until {}, (Wrt,)),
            |x: &[f64]| partial_until(x),
            x
        );
    }
    for x in [
        [0.7, 0.5, 0.8, 0.1],
        [1.7, 1.5, 0.8, 0.1],
        [0.7, 0.5, 0.3, 0.1],
        [-1.7, -1.8, -2.2, -2.3],
    ] {
        check_widths!(bind(first_rise {}, (Wrt,)), |x: &[f64]| first_rise(x), x);
    }
}

// ---------------------------------------------------------------------------------------
// Round 4: nested buffers and structs mutated in place

/// Transposes a 3×3 row array in place (`m[i][j]` ↔ `m[j][i]`), then a shear.
#[derive_frule]
fn transpose_shear(m: &mut [[f64; 3]; 3], k: f64) {
    for i in 0..3 {
        for j in (i + 1)..3 {
            let t = m[i][j];
            m[i][j] = m[j][i];
            m[j][i] = t;
        }
    }
    for i in 0..3 {
        m[i][0] += k * m[i][1] * m[i][2];
    }
}

/// Points advanced in place through `iter_mut`, then two swapped.
#[derive_frule]
fn advance(pts: &mut [[f64; 2]], dt: f64) {
    for p in pts.iter_mut() {
        p[0] += p[1] * dt;
        p[1] -= p[0] * dt;
    }
    pts.swap(0, 2);
    let n = pts.len();
    pts[n - 1][0] *= pts[0][1];
}

/// Rows of a `Vec<Vec<f64>>` normalised in place, the last row from the first.
#[derive_frule]
fn normalise_rows(rows: &mut Vec<Vec<f64>>) {
    for r in rows.iter_mut() {
        let s: f64 = r.iter().map(|v| v * v).sum::<f64>().sqrt();
        for v in r.iter_mut() {
            *v /= s;
        }
    }
    let n = rows.len();
    let first = rows[0].clone();
    for (j, v) in rows[n - 1].iter_mut().enumerate() {
        *v += first[j];
    }
}

/// A state struct stepped by a `&mut self` method that swaps and sorts its buffer.
#[derive(Clone, Debug, Differentiable)]
pub struct Swarm {
    xs: Vec<f64>,
    k: f64,
}

#[derive_frule]
impl Swarm {
    fn step(&mut self, dt: f64) {
        let n = self.xs.len();
        for i in 0..n {
            let left = if i > 0 { self.xs[i - 1] } else { 0.0 };
            self.xs[i] += dt * self.k * (left - self.xs[i]);
        }
        self.xs.swap(0, n - 1);
        self.xs.sort_by(|a, b| a.total_cmp(b));
        self.k *= 1.0 + dt;
    }
}

#[derive_frule]
fn nested_buffers(x: &[f64]) -> f64 {
    let mut m = [[x[0], x[1], x[2]], [x[3], x[4], x[5]], [x[6], x[7], x[8]]];
    transpose_shear(&mut m, x[1]);
    let mut pts = vec![[x[0], x[1]], [x[2], x[3]], [x[4], x[5]]];
    advance(&mut pts, 0.1 * x[6]);
    let mut rows = vec![x[..3].to_vec(), x[3..6].to_vec(), x[6..].to_vec()];
    normalise_rows(&mut rows);
    let mut sw = Swarm {
        xs: x[2..7].to_vec(),
        k: x[0],
    };
    for _ in 0..3 {
        sw.step(0.05);
    }
    let mut s = 0.0;
    for i in 0..3 {
        for j in 0..3 {
            s += m[i][j] * (1.0 + i as f64 + 3.0 * j as f64) + rows[i][j] * (j as f64 - i as f64);
        }
        s += pts[i][0] * pts[i][1];
    }
    for (i, v) in sw.xs.iter().enumerate() {
        s += v * (i as f64 + 0.5);
    }
    s + sw.k
}

#[test]
fn nested_buffers_mutated_in_place_in_every_mode() {
    check_widths!(
        bind(nested_buffers {}, (Wrt,)),
        |x: &[f64]| nested_buffers(x),
        [0.3, -1.2, 0.8, 2.0, 0.5, 0.7, -0.4, 1.1, 0.9]
    );
}

#[test]
fn transpose_in_place_leaves_what_the_plain_function_leaves() {
    let m0 = [[0.3, -1.2, 0.8], [2.0, 0.5, 0.7], [-0.4, 1.1, 0.9]];
    let k = 0.7;
    let mut want = m0;
    transpose_shear(&mut want, k);
    for a in 0..3 {
        for b in 0..3 {
            let mut m = m0;
            let mut dm = [[0.0; 3]; 3];
            dm[a][b] = 1.0;
            transpose_shear_frule(Dual::new(&mut m, &mut dm), Dual::new(k, 0.0));
            let h = 1e-6;
            let (mut p, mut q) = (m0, m0);
            p[a][b] += h;
            q[a][b] -= h;
            transpose_shear(&mut p, k);
            transpose_shear(&mut q, k);
            for i in 0..3 {
                for j in 0..3 {
                    assert_eq!(m[i][j].to_bits(), want[i][j].to_bits(), "value ({i}, {j})");
                    assert_close(dm[i][j], (p[i][j] - q[i][j]) / (2.0 * h), 1e-6, "tangent");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Round 5: Vec edits, worklists, rounding and picks

/// A worklist: values halved and pushed back until small, each popped value summed.
#[derive_frule]
fn worklist(x: &[f64]) -> f64 {
    let mut stack = vec![x[0], x[1] * x[2]];
    let mut s = 0.0;
    while let Some(v) = stack.pop() {
        if v.abs() > 0.2 {
            stack.push(v * 0.5);
            stack.insert(0, v.sin() * 0.25);
        }
        s += v * v;
    }
    s
}

/// `insert`, `remove`, `truncate`, `resize`, `extend_from_slice`, `swap_remove`, `pop`,
/// `retain`-free edits keeping values and tangents aligned.
#[derive_frule]
fn vec_edits(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.insert(1, x[0] * x[3]);
    let r = v.remove(3);
    v.extend_from_slice(&x[1..3]);
    let s = v.swap_remove(0);
    v.resize(v.len() + 2, x[2] * 2.0);
    v.truncate(v.len() - 1);
    let last = v.pop().unwrap();
    let mut t = r * s + last;
    for (i, w) in v.iter().enumerate() {
        t += w * (i as f64 + 1.0);
    }
    t
}

/// Picks: maxima with `fold(NEG_INFINITY, f64::max)`, `max_by`, `position`, `rposition`.
#[derive_frule]
fn picks(x: &[f64]) -> f64 {
    let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = x.iter().copied().min_by(|a, b| a.total_cmp(b)).unwrap();
    let p = x.iter().position(|v| *v > 0.5).unwrap_or(0);
    let q = x.iter().rposition(|v| *v < 0.0).unwrap_or(0);
    m * lo + x[p] * x[q] + (p as f64) - (q as f64)
}

/// Rounding and modular arithmetic: `fract`, `rem_euclid`, `%`, `clamp`, `copysign`,
/// `signum`, a cast through an integer.
#[derive_frule]
fn rounding(x: &[f64]) -> f64 {
    let a = (x[0] * 3.0).fract() + x[1].rem_euclid(0.7) + (x[2] % 0.3);
    let b = x[3].clamp(-0.5, 0.5) + 2.0f64.copysign(x[0]) * x[1] + x[2].signum() * x[3];
    let c = ((x[0] * 10.0) as i32) as f64 * x[1];
    let d = x[1].floor() * x[0] + x[3].round() + x[2].trunc() * x[2] + x[0].ceil();
    a * b + c + d + x[0].mul_add(x[1], x[2]) + x[3].powi(-2) + x[1].abs().powf(x[2])
}

#[test]
fn vec_edits_worklists_picks_and_rounding_in_every_mode() {
    check_widths!(
        bind(worklist {}, (Wrt,)),
        |x: &[f64]| worklist(x),
        [0.9, -1.3, 0.8]
    );
    check_widths!(
        bind(vec_edits {}, (Wrt,)),
        |x: &[f64]| vec_edits(x),
        [0.3, -1.2, 0.8, 2.0, 0.5]
    );
    check_widths!(
        bind(picks {}, (Wrt,)),
        |x: &[f64]| picks(x),
        [0.3, -1.2, 0.8, 2.0, -0.4]
    );
    check_widths!(
        bind(rounding {}, (Wrt,)),
        |x: &[f64]| rounding(x),
        [0.37, -1.23, 0.81, 0.42]
    );
}
