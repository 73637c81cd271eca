//! Fourth hunt for wrong primals and derivatives.
//!
//! Found:
//! - NaN in batches where one direction is right: a root that one arm of a linearised `if`
//!   does not read, whose own tangent is NaN or infinite (`a = √(x₀ − x₁)` below 0 in
//!   `if a.is_nan() { 0.0 } else { a }`), met the arm's zero coefficient as `0·NaN`
//!   (`linear::Linear::selected`, `lin::ax_select`).
//! - A panic (`RefCell already borrowed`) where the function runs: lowering binds every
//!   temporary to a local, so the guard of `rng.borrow_mut().uniform()` lived to the end of
//!   the block, and the next `borrow_mut()` of the cell (the next statement, a second
//!   closure borrowing the generator, the closure's next call) failed; so did a guard the
//!   user bound in an inner block or a closure's body (`emit::guard_scopes`,
//!   `Lowerer::drop_guards`; `drop(r)` is now supported).
//! - `STEEL.e` of a `static STEEL: Material` (not `Copy`) did not compile (the static was
//!   moved into a local); a `pub fn` of a private type's `#[derive_frule] impl` (and an
//!   `impl Sum` of one) warned `private_interfaces` and `dead_code` in the user's crate.
//!
//! The other functions are guards that passed, around recent constructs (maps holding
//! floats, closures borrowing captures, cursors, user operators with untyped operands,
//! `impl Sum`, kinks, matches on floats, early exits, powers near 0, Newton), each in
//! every mode (one direction, batches of 1, 2, 4, 8 and 16 lanes, second order) against
//! central differences or closed forms, primals bit for bit.
#![allow(
    clippy::needless_range_loop,
    clippy::let_and_return,
    clippy::match_single_binding
)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};

/// Every mode at `$x`: one direction per input, batches of 1, 2, 4, 8 and 16 lanes, the
/// gradient of second order; primals bit for bit against the plain function, tangents
/// against `$want` (or central differences) and the batches against one direction to
/// rounding. With `hessian`, the Hessian against central differences too.
macro_rules! check_widths {
    ($rule:expr, $plain:expr, $x:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let g = fd_gradient(&plain, x);
        check_widths!(@run $rule, plain, x, g, 1e-6)
    }};
    ($rule:expr, $plain:expr, $x:expr, want = $want:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let g: Vec<f64> = $want;
        check_widths!(@run $rule, plain, x, g, 1e-12)
    }};
    (@run $rule:expr, $plain:expr, $x:expr, $g:expr, $tol:expr) => {{
        let x: &[f64] = $x;
        let plain = $plain;
        let want: Vec<f64> = $g;
        let y: f64 = plain(x);
        let mut one = Vec::new();
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp($rule, x, &e);
            assert_eq!(v.to_bits(), y.to_bits(), "one direction: primal {v} vs {y}");
            assert_close(d, want[k], $tol, &format!("one direction: d/dx{k}"));
            one.push(d);
        }
        let batches: Vec<(&str, f64, Vec<f64>)> = vec![
            ("1 lane", fwdad::drivers::gradient_with::<1>($rule, x).0, fwdad::drivers::gradient_with::<1>($rule, x).1),
            ("2 lanes", fwdad::drivers::gradient_with::<2>($rule, x).0, fwdad::drivers::gradient_with::<2>($rule, x).1),
            ("4 lanes", fwdad::drivers::gradient_with::<4>($rule, x).0, fwdad::drivers::gradient_with::<4>($rule, x).1),
            ("8 lanes", fwdad::drivers::gradient_with::<8>($rule, x).0, fwdad::drivers::gradient_with::<8>($rule, x).1),
            ("16 lanes", fwdad::drivers::gradient_with::<16>($rule, x).0, fwdad::drivers::gradient_with::<16>($rule, x).1),
            ("second order", fwdad::drivers::hessian_with::<2>($rule, x).0, fwdad::drivers::hessian_with::<2>($rule, x).1),
        ];
        for (mode, v, d) in batches {
            assert_eq!(v.to_bits(), y.to_bits(), "{mode}: primal {v} vs {y}");
            for k in 0..x.len() {
                assert_close(d[k], one[k], 1e-12, &format!("{mode} against one direction: d/dx{k}"));
            }
        }
    }};
}

/// The Hessian (`hessian`, and `hvp` along each axis) against central differences.
fn check_hessian(
    h: (f64, Vec<f64>, fwdad::drivers::Matrix),
    hv: impl Fn(&[f64]) -> (f64, Vec<f64>, Vec<f64>),
    plain: impl Fn(&[f64]) -> f64,
    x: &[f64],
    tol: f64,
) {
    let n = x.len();
    let want = fd_hessian(&plain, x);
    assert_eq!(h.0.to_bits(), plain(x).to_bits(), "hessian: primal");
    for i in 0..n {
        let mut e = vec![0.0; n];
        e[i] = 1.0;
        let (v, _, col) = hv(&e);
        assert_eq!(v.to_bits(), plain(x).to_bits(), "hvp: primal");
        for j in 0..n {
            assert_close(h.2[(i, j)], want[i][j], tol, &format!("hessian ({i}, {j})"));
            assert_close(col[j], want[j][i], tol, &format!("hvp e{i}, entry {j}"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Maps holding floats

/// Soft-assigns samples to bins of a `HashMap`, then a weighted sum over its entries in
/// the map's (random) order.
#[derive_frule]
fn hash_bins(x: &[f64]) -> f64 {
    let mut bins: HashMap<usize, f64> = HashMap::new();
    for (i, &v) in x.iter().enumerate() {
        *bins.entry(i % 3).or_insert(0.0) += v * v;
    }
    let mut s = 0.0;
    for (k, v) in &bins {
        s += (*k as f64 + 1.0) * v;
    }
    s
}

#[test]
fn hashmap_iteration_pairs_keys_with_their_tangents() {
    let x = [0.3, -1.2, 0.8, 2.0, 0.5, -0.7, 1.1];
    // ∂/∂xᵢ = 2 (i mod 3 + 1) xᵢ, independent of the map's order.
    let want: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, v)| 2.0 * ((i % 3) as f64 + 1.0) * v)
        .collect();
    for _ in 0..5 {
        let plain = |x: &[f64]| hash_bins(x);
        let g = fd_gradient(&plain, &x);
        for k in 0..x.len() {
            assert_close(g[k], want[k], 1e-6, "fd");
        }
        let n = x.len();
        for k in 0..n {
            let mut e = vec![0.0; n];
            e[k] = 1.0;
            let (_, d): (f64, f64) = jvp(bind(hash_bins {}, (Wrt,)), &x, &e);
            assert_close(d, want[k], 1e-12, "one direction");
        }
        let (_, gb) = fwdad::drivers::gradient_with::<4>(bind(hash_bins {}, (Wrt,)), &x);
        for k in 0..n {
            assert_close(gb[k], want[k], 1e-12, "batch");
        }
        let (_, gb) = fwdad::drivers::gradient_with::<16>(bind(hash_bins {}, (Wrt,)), &x);
        for k in 0..n {
            assert_close(gb[k], want[k], 1e-12, "batch 16");
        }
    }
}

/// `get_mut` in a loop scaling entries, `remove` then re-insert under another key, and a
/// map of `Vec`s.
#[derive_frule]
fn map_edits(x: &[f64]) -> f64 {
    let mut m: BTreeMap<i32, f64> = BTreeMap::new();
    for i in 0..x.len() {
        m.insert(i as i32, x[i]);
    }
    for i in 0..x.len() {
        if let Some(v) = m.get_mut(&(i as i32)) {
            *v *= x[(i + 1) % x.len()];
        }
    }
    let first = m.remove(&0).unwrap();
    m.insert(10, first * 3.0);
    if let Some(v) = m.get_mut(&10) {
        *v += x[1];
    }
    let mut s = 0.0;
    for (k, v) in &m {
        s += (*k as f64 + 0.5) * v.sin();
    }
    s + m[&10]
}

#[test]
fn map_get_mut_remove_reinsert_and_vec_values() {
    let x = [0.3, -1.2, 0.8, 2.0, 0.5];
    check_widths!(bind(map_edits {}, (Wrt,)), |x: &[f64]| map_edits(x), x);
}

/// `entry(..).or_insert(..)` whose default reads the input, then `*e *= ..`.
#[derive_frule]
fn entry_defaults(x: &[f64], keys: &[u8]) -> f64 {
    let mut m: HashMap<u8, f64> = HashMap::new();
    for (i, &k) in keys.iter().enumerate() {
        let e = m.entry(k).or_insert(x[0] * 2.0);
        *e *= x[i];
    }
    let mut total = 0.0;
    let mut ks: Vec<&u8> = m.keys().collect();
    ks.sort();
    for k in ks {
        total += m[k] * (*k as f64);
    }
    total
}

#[test]
fn entry_or_insert_with_reading_inputs() {
    let x = [0.9, -1.2, 0.8, 2.0, 0.5];
    let keys = [1u8, 2, 1, 3, 2];
    check_widths!(
        bind(entry_defaults {}, (Wrt, &keys[..])),
        |x: &[f64]| entry_defaults(x, &keys),
        x
    );
}

// ---------------------------------------------------------------------------------------
// Closures borrowing captures

/// A counter captured `&mut` by a closure called in a loop; its count scales the result.
#[derive_frule]
fn counted(x: &[f64]) -> f64 {
    let mut calls = 0;
    let mut acc = 0.0;
    let mut f = |v: f64| {
        calls += 1;
        acc += v * calls as f64;
        v.sin()
    };
    let mut s = 0.0;
    for &v in x {
        s += f(v);
    }
    s + acc * calls as f64
}

#[test]
fn closure_with_mut_counter() {
    let x = [0.3, -1.2, 0.8, 2.0];
    check_widths!(bind(counted {}, (Wrt,)), |x: &[f64]| counted(x), x);
}

#[derive(Differentiable)]
struct Lcg {
    state: u64,
}

impl Lcg {
    #[derive_frule]
    fn uniform(&mut self) -> f64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One generator advanced by two closures in turn (a noise and a jitter), through a
/// `RefCell`.
#[derive_frule]
fn noisy(x: &[f64], seed: u64) -> f64 {
    let rng = RefCell::new(Lcg { state: seed });
    let noise = |v: f64| v + 0.1 * rng.borrow_mut().uniform();
    let jitter = |v: f64| v * (1.0 + 0.01 * rng.borrow_mut().uniform());
    let mut s = 0.0;
    for &v in x {
        s += noise(v).powi(2) + jitter(v);
    }
    s
}

#[test]
fn generator_shared_by_two_closures() {
    let x = [0.3, -1.2, 0.8, 2.0];
    check_widths!(bind(noisy {}, (Wrt, 7)), |x: &[f64]| noisy(x, 7), x);
}

/// A `Cell` counter and a `move` closure capturing a computed scale.
#[derive_frule]
fn cell_and_move(x: &[f64]) -> f64 {
    let seen = Cell::new(0usize);
    let scale = x[0] * x[0];
    let weigh = move |v: f64| v * scale;
    let bump = |v: f64| {
        seen.set(seen.get() + 1);
        v * seen.get() as f64
    };
    let mut s = 0.0;
    for &v in &x[1..] {
        s += weigh(bump(v));
    }
    s + seen.get() as f64
}

#[test]
fn cell_counter_and_move_closure() {
    let x = [0.7, -1.2, 0.8, 2.0];
    check_widths!(
        bind(cell_and_move {}, (Wrt,)),
        |x: &[f64]| cell_and_move(x),
        x
    );
}

// ---------------------------------------------------------------------------------------
// Cursors and adaptors

/// A cursor read partly, then continued by `for`; `nth` of a chain; scan, take_while,
/// skip_while and step_by.
#[derive_frule]
fn cursors(x: &[f64]) -> f64 {
    let mut it = x.iter();
    let a = *it.next().unwrap();
    let b = *it.next().unwrap();
    let mut rest = 0.0;
    for v in it {
        rest += v * a;
    }
    let c = *x.iter().chain(x.iter().rev()).nth(x.len() + 1).unwrap();
    let run: Vec<f64> = x
        .iter()
        .scan(0.0, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .collect();
    let t: f64 = run.iter().take_while(|&&r| r < 2.0).map(|r| r * r).sum();
    let u: f64 = x.iter().skip_while(|&&v| v < 0.5).map(|v| v.exp()).sum();
    let w: f64 = x.iter().step_by(2).product();
    a * b + rest + c * c + t + u + w
}

#[test]
fn cursors_and_adaptors() {
    let x = [0.3, -1.2, 0.8, 2.0, 0.4, 1.5];
    check_widths!(bind(cursors {}, (Wrt,)), |x: &[f64]| cursors(x), x);
}

/// A peekable cursor merging runs.
#[derive_frule]
fn runs(x: &[f64]) -> f64 {
    let mut it = x.iter().peekable();
    let mut s = 0.0;
    while let Some(&v) = it.next() {
        let mut run = v;
        while let Some(&&w) = it.peek() {
            if w > v {
                run += w;
                it.next();
            } else {
                break;
            }
        }
        s += run * run;
    }
    s
}

#[test]
fn peekable_runs() {
    let x = [0.3, 1.2, 0.8, 2.0, 0.4, 1.5];
    check_widths!(bind(runs {}, (Wrt,)), |x: &[f64]| runs(x), x);
}

// ---------------------------------------------------------------------------------------
// User operators and sums

#[derive(Clone, Copy, Debug, Differentiable)]
struct V2 {
    x: f64,
    y: f64,
}

#[derive_frule]
impl std::ops::Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

#[derive_frule]
impl std::ops::Mul<V2> for f64 {
    type Output = V2;
    fn mul(self, v: V2) -> V2 {
        V2 {
            x: self * v.x,
            y: self * v.y,
        }
    }
}

#[derive_frule]
impl std::iter::Sum for V2 {
    fn sum<I: Iterator<Item = V2>>(iter: I) -> V2 {
        iter.fold(V2 { x: 0.0, y: 0.0 }, |a, b| a + b)
    }
}

#[derive_frule]
fn rhs(s: V2, w: f64) -> V2 {
    V2 {
        x: s.y,
        y: -w * w * s.x,
    }
}

/// RK4 written with untyped stage operands (`s + k1 * (0.5 * dt)` style).
#[derive_frule]
fn rk4_oscillator(p: &[f64]) -> f64 {
    let w = p[0];
    let dt = 0.1;
    let mut s = V2 { x: p[1], y: 0.0 };
    for _ in 0..10 {
        let k1 = rhs(s, w);
        let k2 = rhs(s + (0.5 * dt) * k1, w);
        let k3 = rhs(s + (0.5 * dt) * k2, w);
        let k4 = rhs(s + dt * k3, w);
        s = s + (dt / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    let total: V2 = [s, k_of(s, w)].into_iter().sum();
    total.x + total.y
}

#[derive_frule]
fn k_of(s: V2, w: f64) -> V2 {
    w * s
}

#[test]
fn rk4_with_user_operators_and_sum() {
    let x = [1.3, 0.7];
    check_widths!(
        bind(rk4_oscillator {}, (Wrt,)),
        |x: &[f64]| rk4_oscillator(x),
        x
    );
}

// ---------------------------------------------------------------------------------------
// Found: fields of a `static` struct that is not `Copy` (did not compile)

struct Material {
    e: f64,
    nu: f64,
}

static STEEL: Material = Material { e: 210.0, nu: 0.3 };
static TABLE: [Material; 2] = [
    Material { e: 70.0, nu: 0.33 },
    Material { e: 210.0, nu: 0.3 },
];

#[derive_frule]
fn stiffness(x: &[f64]) -> f64 {
    let lam = STEEL.e * STEEL.nu / ((1.0 + STEEL.nu) * (1.0 - 2.0 * STEEL.nu));
    let mut s = lam * x[0] * x[0];
    for m in TABLE.iter() {
        s += m.e / (2.0 * (1.0 + m.nu)) * x[1] * x[0];
    }
    s
}

#[test]
fn statics_of_structs() {
    let x = [0.3, -1.2];
    check_widths!(bind(stiffness {}, (Wrt,)), |x: &[f64]| stiffness(x), x);
}

// ---------------------------------------------------------------------------------------
// Second order at kinks, matches on floats, early exits, powers near 0, Newton

#[derive_frule]
fn kinks(x: &[f64]) -> f64 {
    let a = (x[0] * x[1]).abs() * x[2];
    let b = x[0].max(x[1]) * x[1];
    let c = (x[2] * x[0]).clamp(-0.5, 0.5).powi(2);
    a + b + c
}

#[test]
fn second_order_off_kinks() {
    let x = [0.3, -1.2, 0.8];
    check_widths!(bind(kinks {}, (Wrt,)), |x: &[f64]| kinks(x), x);
    check_hessian(
        fwdad::drivers::hessian(bind(kinks {}, (Wrt,)), &x),
        |v| fwdad::drivers::hvp(bind(kinks {}, (Wrt,)), &x, v),
        |x: &[f64]| kinks(x),
        &x,
        1e-5,
    );
}

#[derive_frule]
fn float_match(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        s += match v {
            t if t < -1.0 => t * t * t,
            t if t < 0.0 => -t,
            t => t.sqrt() * t,
        };
    }
    s
}

#[test]
fn match_on_floats_second_order() {
    let x = [0.3, -1.2, -0.8, 2.0];
    check_widths!(bind(float_match {}, (Wrt,)), |x: &[f64]| float_match(x), x);
    check_hessian(
        fwdad::drivers::hessian(bind(float_match {}, (Wrt,)), &x),
        |v| fwdad::drivers::hvp(bind(float_match {}, (Wrt,)), &x, v),
        |x: &[f64]| float_match(x),
        &x,
        1e-5,
    );
}

#[derive_frule]
fn early_exit(x: &[f64]) -> f64 {
    let mut s = 1.0;
    for i in 0..x.len() {
        s *= x[i].cos() + 1.5;
        if s > 3.0 {
            return s * x[0];
        }
        if x[i] < -5.0 {
            break;
        }
    }
    s.ln()
}

#[test]
fn early_exits_second_order() {
    let x = [0.3, -1.2, 0.8, 2.0];
    check_widths!(bind(early_exit {}, (Wrt,)), |x: &[f64]| early_exit(x), x);
    check_hessian(
        fwdad::drivers::hessian(bind(early_exit {}, (Wrt,)), &x),
        |v| fwdad::drivers::hvp(bind(early_exit {}, (Wrt,)), &x, v),
        |x: &[f64]| early_exit(x),
        &x,
        1e-5,
    );
}

#[derive_frule]
fn powers_near_zero(x: &[f64]) -> f64 {
    x[0].powi(3) + x[1].powf(2.5) + (x[2] * x[2] + 1e-3).sqrt() + x[0].powf(x[1]) + x[1].cbrt()
}

#[test]
fn powers_near_zero_second_order() {
    let x = [1e-3, 2e-3, 1e-4];
    let plain = |x: &[f64]| powers_near_zero(x);
    check_widths!(bind(powers_near_zero {}, (Wrt,)), plain, x);
}

/// Newton's method for the cube root of `a·b`: the iterate's derivative converges to the
/// root's.
#[derive_frule]
fn newton_cbrt(p: &[f64]) -> f64 {
    let a = p[0] * p[1];
    let mut r = 1.0;
    for _ in 0..60 {
        let f = r * r * r - a;
        if f.abs() < 1e-15 {
            break;
        }
        r -= f / (3.0 * r * r);
    }
    r
}

#[test]
fn newton_loop_second_order() {
    let x = [2.0, 1.5];
    let a: f64 = 3.0;
    let r = a.cbrt();
    // r = (ab)^(1/3): ∂r/∂a = r / (3a), ∂r/∂p0 = r / (3 p0).
    let want = vec![r / (3.0 * x[0]), r / (3.0 * x[1])];
    let plain = |x: &[f64]| newton_cbrt(x);
    check_widths!(@run bind(newton_cbrt {}, (Wrt,)), plain, &x, want, 1e-9);
    check_hessian(
        fwdad::drivers::hessian(bind(newton_cbrt {}, (Wrt,)), &x),
        |v| fwdad::drivers::hvp(bind(newton_cbrt {}, (Wrt,)), &x, v),
        plain,
        &x,
        1e-5,
    );
}

// ---------------------------------------------------------------------------------------
// NaN and infinities in batches

/// Found: `b` is `a` or 0 by an `if` on `a`'s NaN; where `a = √(x₀ − x₁)` is NaN, its
/// tangent is NaN too, and batches multiplied it by the arm's zero coefficient.
#[derive_frule]
fn nan_paths(x: &[f64]) -> f64 {
    let a = (x[0] - x[1]).sqrt();
    let b = if a.is_nan() { 0.0 } else { a };
    let c = (x[2] / x[3]).atan();
    b + c + x[2].ln().max(-1e300)
}

#[test]
fn nan_and_inf_agree_across_widths() {
    for x in [
        [1.0, 2.0, 0.5, 0.0],
        [2.0, 1.0, 0.0, 1.0],
        [2.0, 2.0, 0.5, 1.0],
        [f64::INFINITY, 1.0, 0.5, 1.0],
    ] {
        let y = nan_paths(&x);
        let n = x.len();
        let mut one = Vec::new();
        for k in 0..n {
            let mut e = vec![0.0; n];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp(bind(nan_paths {}, (Wrt,)), &x, &e);
            assert_eq!(v.to_bits(), y.to_bits());
            one.push(d);
        }
        macro_rules! same {
            ($n:literal) => {{
                let (v, g) = fwdad::drivers::gradient_with::<$n>(bind(nan_paths {}, (Wrt,)), &x);
                assert_eq!(v.to_bits(), y.to_bits());
                for k in 0..n {
                    assert!(
                        g[k] == one[k] || (g[k].is_nan() && one[k].is_nan()),
                        "{} lanes at {x:?}: d/dx{k} {} vs one direction {}",
                        $n,
                        g[k],
                        one[k]
                    );
                }
            }};
        }
        same!(1);
        same!(2);
        same!(4);
        same!(8);
        same!(16);
    }
}

/// The same guard in a loop, the kink's value read by the arm that keeps it (a sum of
/// square roots of gaps that skips the negative ones).
#[derive_frule]
fn positive_gaps(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let r = (x[i + 1] - x[i]).sqrt();
        s += if r.is_nan() { 0.0 } else { r * x[0] };
    }
    s
}

fn positive_gaps_closed(x: &[f64]) -> Vec<f64> {
    // ∂/∂xₖ of Σ √(xᵢ₊₁ − xᵢ)·x₀ over the positive gaps.
    let mut g = vec![0.0; x.len()];
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i];
        if d >= 0.0 {
            let r = d.sqrt();
            g[i + 1] += x[0] / (2.0 * r);
            g[i] -= x[0] / (2.0 * r);
            g[0] += r;
        }
    }
    g
}

#[test]
fn skipped_nan_arm_in_a_loop_in_every_mode() {
    let x = [0.5, 1.5, 1.0, 2.5, 2.0, 3.0];
    let want = positive_gaps_closed(&x);
    check_widths!(
        @run bind(positive_gaps {}, (Wrt,)),
        |x: &[f64]| positive_gaps(x),
        &x,
        want.clone(),
        1e-12
    );
    // The gradient at an array (the one-shot pass with its Jacobian entries).
    let (v, g) = fwdad::drivers::gradient(bind(positive_gaps {}, (Wrt,)), x);
    assert_eq!(v.to_bits(), positive_gaps(&x).to_bits());
    for k in 0..x.len() {
        assert_close(
            g[k],
            want[k],
            1e-12,
            &format!("gradient at an array: d/dx{k}"),
        );
    }
    let (v, g) = fwdad::drivers::gradient(bind(nan_paths {}, (Wrt,)), [1.0, 2.0, 0.5, 1.0]);
    assert_eq!(v.to_bits(), nan_paths(&[1.0, 2.0, 0.5, 1.0]).to_bits());
    // `b = 0`, `c = atan(x₂/x₃)`, `ln x₂`: d/dx = [0, 0, 1/(x₃(1 + u²)) + 1/x₂, −x₂/(x₃²(1 + u²))].
    let u: f64 = 0.5;
    let want = [0.0, 0.0, 1.0 / (1.0 + u * u) + 2.0, -0.5 / (1.0 + u * u)];
    for k in 0..4 {
        assert_close(
            g[k],
            want[k],
            1e-12,
            &format!("nan_paths at an array: d/dx{k}"),
        );
    }
}

// ---------------------------------------------------------------------------------------
// Found: guards of a `RefCell` held past the user's statement or block (a panic)

/// Two draws from one generator in a `RefCell`, each a statement of its own.
#[derive_frule]
fn two_draws(x: &[f64], seed: u64) -> f64 {
    let rng = RefCell::new(Lcg { state: seed });
    let a = rng.borrow_mut().uniform();
    let b = rng.borrow_mut().uniform();
    x[0] * a + x[1] * b
}

/// A closure whose body binds the guard, called twice per iteration.
#[derive_frule]
fn named_guard_in_closure(x: &[f64], seed: u64) -> f64 {
    let rng = RefCell::new(Lcg { state: seed });
    let draw = |v: f64| {
        let mut r = rng.borrow_mut();
        v * r.uniform()
    };
    let mut s = 0.0;
    for &v in x {
        s += draw(v) + draw(2.0 * v);
    }
    s
}

/// The guard bound in an inner block, and one dropped by hand.
#[derive_frule]
fn guards_in_blocks(x: &[f64], seed: u64) -> f64 {
    let rng = RefCell::new(Lcg { state: seed });
    let a;
    {
        let mut r = rng.borrow_mut();
        a = r.uniform();
    }
    let mut r = rng.borrow_mut();
    let b = r.uniform();
    drop(r);
    let c = rng.borrow_mut().uniform();
    x[0] * a + x[1] * b + x[2] * c
}

/// A log of hits in a `RefCell<Vec<usize>>`, pushed to and read in one loop body.
#[derive_frule]
fn hit_log(x: &[f64]) -> f64 {
    let hits = RefCell::new(Vec::new());
    let mut s = 0.0;
    for (i, &v) in x.iter().enumerate() {
        if v > 0.0 {
            hits.borrow_mut().push(i);
        }
        s += v * hits.borrow().len() as f64;
    }
    s
}

/// A count in a `RefCell` bumped through its guard (`*n.borrow_mut() += 1`: a read and a
/// write through one temporary) and read again in the same loop body.
#[derive_frule]
fn running_count(x: &[f64]) -> f64 {
    let n = RefCell::new(0usize);
    let mut s = 0.0;
    for &v in x {
        *n.borrow_mut() += 1;
        s += v * *n.borrow() as f64;
    }
    s
}

/// The same with a `Mutex` (`try_lock`, so that a guard held too long fails here rather
/// than deadlocking as `lock()` would).
#[derive_frule]
fn locked_count(x: &[f64]) -> f64 {
    let calls = std::sync::Mutex::new(0usize);
    let mut s = 0.0;
    for &v in x {
        *calls.try_lock().unwrap() += 1;
        s += v * *calls.try_lock().unwrap() as f64;
    }
    s
}

/// The draws the plain functions make, in order (the derivatives are the draws).
fn draws(seed: u64, n: usize) -> Vec<f64> {
    let mut rng = Lcg { state: seed };
    (0..n).map(|_| rng.uniform()).collect()
}

#[test]
fn guards_end_with_the_users_statement_or_block() {
    let x = [0.3, -1.2, 0.8];
    let u = draws(7, 6);
    check_widths!(
        bind(two_draws {}, (Wrt, 7)),
        |x: &[f64]| two_draws(x, 7),
        x,
        want = vec![u[0], u[1], 0.0]
    );
    // d/dxᵢ of Σ (xᵢ·u₂ᵢ + 2xᵢ·u₂ᵢ₊₁).
    check_widths!(
        bind(named_guard_in_closure {}, (Wrt, 7)),
        |x: &[f64]| named_guard_in_closure(x, 7),
        x,
        want = (0..3).map(|i| u[2 * i] + 2.0 * u[2 * i + 1]).collect()
    );
    check_widths!(
        bind(guards_in_blocks {}, (Wrt, 7)),
        |x: &[f64]| guards_in_blocks(x, 7),
        x,
        want = vec![u[0], u[1], u[2]]
    );
    check_widths!(
        bind(running_count {}, (Wrt,)),
        |x: &[f64]| running_count(x),
        x,
        want = vec![1.0, 2.0, 3.0]
    );
    check_widths!(
        bind(locked_count {}, (Wrt,)),
        |x: &[f64]| locked_count(x),
        x,
        want = vec![1.0, 2.0, 3.0]
    );
    // Hits after x₀ > 0 and x₂ > 0: counts 1, 1, 2.
    check_widths!(
        bind(hit_log {}, (Wrt,)),
        |x: &[f64]| hit_log(x),
        x,
        want = vec![1.0, 1.0, 2.0]
    );
}

// ---------------------------------------------------------------------------------------
// More guards: operators with the scalar on the right, `impl Product`, `dyn` methods
// writing a buffer, maps edited in loops, second order at kinks, infinities

#[derive_frule]
impl std::ops::Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, k: f64) -> V2 {
        V2 {
            x: self.x * k,
            y: self.y * k,
        }
    }
}

#[derive_frule]
impl std::iter::Product for V2 {
    fn product<I: Iterator<Item = V2>>(iter: I) -> V2 {
        // Complex multiplication.
        iter.fold(V2 { x: 1.0, y: 0.0 }, |a, b| V2 {
            x: a.x * b.x - a.y * b.y,
            y: a.x * b.y + a.y * b.x,
        })
    }
}

/// Midpoint steps written `s + k1 * (0.5 * dt)`, then the product of unit phasors.
#[derive_frule]
fn midpoint_phasors(p: &[f64]) -> f64 {
    let w = p[0];
    let dt = 0.05;
    let mut s = V2 { x: p[1], y: p[2] };
    for _ in 0..8 {
        let k1 = rhs(s, w);
        let k2 = rhs(s + k1 * (0.5 * dt), w);
        s = s + k2 * dt;
    }
    let z: V2 = p
        .iter()
        .map(|&t| V2 {
            x: t.cos(),
            y: t.sin(),
        })
        .product();
    s.x + s.y + z.x * 2.0 - z.y
}

#[test]
fn right_scalar_operators_and_product() {
    let x = [1.3, 0.7, -0.4];
    check_widths!(
        bind(midpoint_phasors {}, (Wrt,)),
        |x: &[f64]| midpoint_phasors(x),
        x
    );
}

#[derive_frule]
trait Residual {
    fn fill(&self, x: &[f64], out: &mut [f64]);
}

#[derive(Differentiable)]
struct Springy {
    k: f64,
}

#[derive_frule]
impl Residual for Springy {
    fn fill(&self, x: &[f64], out: &mut [f64]) {
        for i in 0..out.len() {
            out[i] = self.k * (x[i + 1] - x[i]).powi(2);
        }
    }
}

#[derive(Differentiable)]
struct Bendy {
    c: f64,
}

#[derive_frule]
impl Residual for Bendy {
    fn fill(&self, x: &[f64], out: &mut [f64]) {
        for i in 0..out.len() {
            out[i] += self.c * (x[i] * x[i + 1]).sin();
        }
    }
}

/// Residual blocks through `dyn` writing one buffer in turn, then its squared norm.
#[derive_frule]
fn blocks(x: &[f64], parts: &[Box<dyn Residual>]) -> f64 {
    let mut r = vec![0.0; x.len() - 1];
    for p in parts {
        p.fill(x, &mut r);
    }
    r.iter().map(|v| v * v).sum()
}

#[test]
fn dyn_methods_writing_one_buffer() {
    let x = [0.3, -1.2, 0.8, 2.0];
    let parts: Vec<Box<dyn Residual>> =
        vec![Box::new(Springy { k: 1.5 }), Box::new(Bendy { c: 0.7 })];
    check_widths!(
        bind(blocks {}, (Wrt, &parts[..])),
        |x: &[f64]| blocks(x, &parts),
        x
    );
}

/// `values_mut` scaling, `range` of a `BTreeMap`, a key removed and put back doubled.
#[derive_frule]
fn ledger(x: &[f64]) -> f64 {
    let mut m: BTreeMap<usize, f64> = BTreeMap::new();
    for (i, &v) in x.iter().enumerate() {
        m.insert(i, v.exp());
    }
    for v in m.values_mut() {
        *v *= x[0];
    }
    let mut head = 0.0;
    for (_, v) in m.range(1..3) {
        head += v;
    }
    if let Some(v) = m.remove(&(x.len() - 1)) {
        m.insert(0, 2.0 * v);
    }
    let mut s = head;
    for (k, v) in &m {
        s += (*k as f64 + 1.0) * v.ln();
    }
    s
}

#[test]
fn maps_edited_in_loops() {
    let x = [1.3, -1.2, 0.8, 2.0];
    check_widths!(bind(ledger {}, (Wrt,)), |x: &[f64]| ledger(x), x);
}

/// Kinks exactly at the point: `|x₀|` at 0, `max` at a tie, `clamp` at its bound.
#[derive_frule]
fn at_kinks(x: &[f64]) -> f64 {
    x[0].abs() * x[1] + x[1].max(x[2]) * x[2] + (x[1] * x[2]).clamp(-1.0, 0.25) + x[1] * x[1] * x[2]
}

#[test]
fn second_order_at_kinks_agrees_across_modes() {
    // x₁ = x₂ = 0.5: a tie of `max`; x₁·x₂ = 0.25 the clamp's bound.
    let x = [0.0, 0.5, 0.5];
    let y = at_kinks(&x);
    let n = x.len();
    let one: Vec<f64> = (0..n)
        .map(|k| {
            let mut e = vec![0.0; n];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp(bind(at_kinks {}, (Wrt,)), &x, &e);
            assert_eq!(v.to_bits(), y.to_bits());
            d
        })
        .collect();
    let (v, g, h) = fwdad::drivers::hessian(bind(at_kinks {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), y.to_bits());
    for k in 0..n {
        assert_close(g[k], one[k], 1e-14, &format!("hessian's gradient d/dx{k}"));
    }
    for width in [1usize, 2, 4, 8, 16] {
        let (v, gb) = match width {
            1 => fwdad::drivers::gradient_with::<1>(bind(at_kinks {}, (Wrt,)), &x),
            2 => fwdad::drivers::gradient_with::<2>(bind(at_kinks {}, (Wrt,)), &x),
            4 => fwdad::drivers::gradient_with::<4>(bind(at_kinks {}, (Wrt,)), &x),
            8 => fwdad::drivers::gradient_with::<8>(bind(at_kinks {}, (Wrt,)), &x),
            _ => fwdad::drivers::gradient_with::<16>(bind(at_kinks {}, (Wrt,)), &x),
        };
        assert_eq!(v.to_bits(), y.to_bits());
        for k in 0..n {
            assert_close(gb[k], one[k], 1e-14, &format!("{width} lanes d/dx{k}"));
        }
    }
    // The Hessian is symmetric and, where the pieces are smooth on both sides of the
    // point along an axis, the second derivative of the taken piece: ∂²/∂x₁² = 2x₂.
    for i in 0..n {
        for j in 0..n {
            assert_eq!(
                h[(i, j)].to_bits(),
                h[(j, i)].to_bits(),
                "symmetric ({i}, {j})"
            );
        }
    }
    assert_close(h[(1, 1)], 2.0 * x[2], 1e-14, "d2/dx1^2");
    // hvp along each axis is the Hessian's column.
    for i in 0..n {
        let mut e = vec![0.0; n];
        e[i] = 1.0;
        let (v, _, col) = fwdad::drivers::hvp(bind(at_kinks {}, (Wrt,)), &x, &e);
        assert_eq!(v.to_bits(), y.to_bits());
        for j in 0..n {
            assert_close(col[j], h[(j, i)], 1e-14, &format!("hvp e{i}, entry {j}"));
        }
    }
}

/// Infinite values and derivatives: `ln 0`, `1/x` at 0, `√0` times a live value.
#[derive_frule]
fn infinities(x: &[f64]) -> f64 {
    let a = x[0].ln() + x[1];
    let b = 1.0 / x[0] * x[2];
    let c = x[0].sqrt() * x[1] + x[2] * x[2];
    a.max(-1e308) + b.min(1e308) + c
}

#[test]
fn infinities_agree_across_widths() {
    for x in [[0.0, 0.5, 2.0], [1e-310, 0.5, 2.0], [0.25, 0.5, 2.0]] {
        let y = infinities(&x);
        let n = x.len();
        let one: Vec<f64> = (0..n)
            .map(|k| {
                let mut e = vec![0.0; n];
                e[k] = 1.0;
                let (v, d): (f64, f64) = jvp(bind(infinities {}, (Wrt,)), &x, &e);
                assert_eq!(v.to_bits(), y.to_bits());
                d
            })
            .collect();
        let same = |w: usize, v: f64, g: Vec<f64>| {
            assert_eq!(v.to_bits(), y.to_bits(), "{w} lanes at {x:?}: primal");
            for k in 0..n {
                let ok = (g[k].is_nan() && one[k].is_nan())
                    || g[k] == one[k]
                    || (g[k] - one[k]).abs() <= 1e-12 * one[k].abs();
                assert!(
                    ok,
                    "{w} lanes at {x:?}: d/dx{k} {} vs one direction {}",
                    g[k], one[k]
                );
            }
        };
        let r = fwdad::drivers::gradient_with::<1>(bind(infinities {}, (Wrt,)), &x);
        same(1, r.0, r.1);
        let r = fwdad::drivers::gradient_with::<2>(bind(infinities {}, (Wrt,)), &x);
        same(2, r.0, r.1);
        let r = fwdad::drivers::gradient_with::<4>(bind(infinities {}, (Wrt,)), &x);
        same(4, r.0, r.1);
        let r = fwdad::drivers::gradient_with::<8>(bind(infinities {}, (Wrt,)), &x);
        same(8, r.0, r.1);
        let r = fwdad::drivers::gradient_with::<16>(bind(infinities {}, (Wrt,)), &x);
        same(16, r.0, r.1);
        let r = fwdad::drivers::gradient(bind(infinities {}, (Wrt,)), x);
        same(0, r.0, r.1.to_vec());
        let r = fwdad::drivers::hessian(bind(infinities {}, (Wrt,)), &x);
        same(99, r.0, r.1);
    }
}
