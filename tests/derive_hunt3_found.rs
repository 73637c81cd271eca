//! Third hunt for wrong primals and derivatives (views of library values:
//! `tests/derive_hunt3_views.rs`).
//!
//! Found: a kink whose operand's roots cancel only across roots had NaN derivatives in
//! batches where one direction gives the value. `√(d² + a·d)` with `d = x[i] − x[j]` and
//! `i = j` (the Jacobian entry of `gradient` added `∞` and `−∞` in one column),
//! `asin(1 + a·x[j] − a·x[i])` (the absorbed operand's two reads of one element had
//! coefficients `±∞·a`), and the same in an arm of an `if` a chain continued through. Also
//! along user directions that keep `x[i] = x[j]` with `i ≠ j`. Now as in one direction
//! (`linear::kink_operands`, `linear::arm_kink_cancels`, the Jacobian entry's column sums).
//! The other functions are guards that passed, around recent constructs (`#[cfg]` split
//! bodies, matches on owned values read again, `mem::swap`/`replace`/`take`, early
//! `return` and `?` in loops, `while let`, `sort_by`, casts, `successors`/`from_fn`,
//! mutating closures, `dyn` methods writing a buffer, kinks at ties), each in every mode
//! against central differences or closed forms, primals bit for bit. (`Option::replace`
//! was a type error naming internals; it now works.)
#![allow(
    clippy::needless_range_loop,
    clippy::let_and_return,
    clippy::match_single_binding
)]
use fwdad::drivers::{bind, jvp, Wrt};
use fwdad::prelude::*;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient};

// ---------------------------------------------------------------------------------------
// Found: `√(d² + a·d)` with `d = x[i] − x[j]` and `i = j` in batches

/// A pair term `√(d² + a·d)` between two entries picked by index (a pair list that may
/// hold a self-pair), plus a linear term.
#[derive_frule]
fn pair_term(x: &[f64], i: usize, j: usize) -> f64 {
    let d = x[i] - x[j];
    let a = x[2];
    (d * d + a * d).sqrt() + a * x[0]
}

#[test]
fn kink_of_a_difference_of_one_entry() {
    let x = [0.7, -0.3, 1.5];
    // `i = j`: `d` is 0 whatever `x`, so the root is constant 0; the gradient is that of
    // `a·x₀`.
    check_first_order!(
        bind(pair_term {}, (Wrt, 1, 1)),
        |x: &[f64]| pair_term(x, 1, 1),
        x,
        vec![1.5, 0.0, 0.7]
    );
    // Away from the kink, against central differences.
    let g = fd_gradient(&|x: &[f64]| pair_term(x, 0, 1), &x);
    check_first_order!(
        bind(pair_term {}, (Wrt, 0, 1)),
        |x: &[f64]| pair_term(x, 0, 1),
        x,
        g
    );
}

#[test]
fn kink_of_a_difference_along_directions_that_keep_it() {
    // Two entries equal (`d = 0`), with directions along which `d` stays 0: moving both
    // entries together, and moving `a`. Along them `f = a·x₀` plus 0, so the derivatives are
    // `a` and `x₀`. (Along `x₀` alone the root has an infinite derivative.)
    let x = [0.4, 0.4, 1.5];
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let want = [1.5, 0.4];
    for (dir, want) in dirs.iter().zip(want) {
        let (v, d): (f64, f64) = jvp(bind(pair_term {}, (Wrt, 0, 1)), &x, dir);
        assert_eq!(v.to_bits(), pair_term(&x, 0, 1).to_bits());
        assert_close(d, want, 1e-15, "one direction");
    }
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    let out = <pair_term as Frule<_, Batch<f64, 2>>>::frule(
        &pair_term {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), pair_term(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "batch of 2");
    }
}

/// `√(a·(xᵢ − xⱼ))`: one product of a difference under the root.
#[derive_frule]
fn scaled_gap_root(x: &[f64], i: usize, j: usize) -> f64 {
    (x[2] * (x[i] - x[j])).sqrt() + x[2] * x[0]
}

/// `asin(1 − (xᵢ − xⱼ)²·a − a·(xᵢ − xⱼ))`: the kink of `asin` at 1.
#[derive_frule]
fn gap_asin(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    (1.0 + a * x[j] - a * x[i]).asin() * a
}

#[test]
fn kinks_of_cancelling_roots_along_directions_that_keep_them() {
    let x = [0.4, 0.4, 1.5];
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    // `√(a·d)` with `d` kept 0: `a·x₀`, derivatives `a`, `x₀`.
    let want = [1.5, 0.4];
    let out = <scaled_gap_root as Frule<_, Batch<f64, 2>>>::frule(
        &scaled_gap_root {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), scaled_gap_root(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "√(a·d), batch of 2");
        let (_, d): (f64, f64) = jvp(bind(scaled_gap_root {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "√(a·d), one direction");
    }
    // `asin(1 + a·(xⱼ − xᵢ))·a` with `d` kept 0: `asin(1)·a`, derivatives 0 and π/2.
    let want = [0.0, std::f64::consts::FRAC_PI_2];
    let out = <gap_asin as Frule<_, Batch<f64, 2>>>::frule(
        &gap_asin {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), gap_asin(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "asin, batch of 2");
        let (_, d): (f64, f64) = jvp(bind(gap_asin {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "asin, one direction");
    }
    // And `i = j` in every mode, against the closed forms.
    check_first_order!(
        bind(scaled_gap_root {}, (Wrt, 1, 1)),
        |x: &[f64]| scaled_gap_root(x, 1, 1),
        x,
        vec![1.5, 0.0, 0.4]
    );
    check_first_order!(
        bind(gap_asin {}, (Wrt, 1, 1)),
        |x: &[f64]| gap_asin(x, 1, 1),
        x,
        vec![0.0, 0.0, std::f64::consts::FRAC_PI_2]
    );
}

/// The kink of [`gap_asin`] in an arm of an `if` whose value a chain reads on.
#[derive_frule]
fn gap_asin_branch(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    let s = if a > 0.0 {
        (1.0 + a * x[j] - a * x[i]).asin()
    } else {
        a * x[0]
    };
    s * a + x[0]
}

#[test]
fn kink_of_cancelling_roots_in_an_arm() {
    let x = [0.4, 0.4, 1.5];
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    // `asin(1)·a + x₀` with `d` kept 0: derivatives 1 and π/2.
    let want = [1.0, std::f64::consts::FRAC_PI_2];
    let out = <gap_asin_branch as Frule<_, Batch<f64, 2>>>::frule(
        &gap_asin_branch {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), gap_asin_branch(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "batch of 2");
        let (_, d): (f64, f64) = jvp(bind(gap_asin_branch {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "one direction");
    }
    check_first_order!(
        bind(gap_asin_branch {}, (Wrt, 1, 1)),
        |x: &[f64]| gap_asin_branch(x, 1, 1),
        x,
        vec![1.0, 0.0, std::f64::consts::FRAC_PI_2]
    );
}

// ---------------------------------------------------------------------------------------
// Guards: programs as users write them around recent constructs, every mode against
// central differences (or closed forms), primals bit for bit.

/// A body split by `#[cfg]`: statements, a `let` and a block in each configuration.
#[derive_frule]
fn cfg_split_energy(x: &[f64]) -> f64 {
    let mut e = 0.5 * x[0] * x[0];
    #[cfg(debug_assertions)]
    let k = 2.0 * x[1];
    #[cfg(not(debug_assertions))]
    let k = 3.0 * x[1];
    #[cfg(test)]
    {
        e += k * x[2].sin();
    }
    #[cfg(not(test))]
    {
        e -= k;
    }
    e + k * k
}

/// A load case built in an `if`, then matched twice by value (each field read again).
#[derive(Clone, Debug, Differentiable)]
pub enum Load {
    Point(f64),
    Spread { w: f64, len: f64 },
}

#[derive_frule]
fn load_work(x: &[f64]) -> f64 {
    let load = if x[0] > 0.0 {
        Load::Point(x[1])
    } else {
        Load::Spread { w: x[1], len: x[2] }
    };
    let moment = match load {
        Load::Point(p) => p * x[2],
        Load::Spread { w, len } => 0.5 * w * len * len,
    };
    let total = match load {
        Load::Point(p) => p,
        Load::Spread { w, len } => w * len,
    };
    moment * total + x[0] * x[0]
}

/// A pair of states swapped, replaced and taken (`mem::swap`, `mem::replace`, `mem::take`).
#[derive(Clone, Debug, Default, Differentiable)]
pub struct State {
    pub p: f64,
    pub v: f64,
}

#[derive_frule]
fn leapfrog_swaps(x: &[f64]) -> f64 {
    let mut a = State { p: x[0], v: x[1] };
    let mut b = State { p: x[2], v: x[3] };
    std::mem::swap(&mut a, &mut b);
    let old = std::mem::replace(
        &mut a,
        State {
            p: x[0] * x[1],
            v: 0.0,
        },
    );
    let t = std::mem::take(&mut b);
    let mut u = x[3];
    let w = std::mem::replace(&mut u, x[0].exp());
    a.p * old.v + t.p * t.v.sin() + b.p + a.v * old.p + u * w
}

/// A sum with an early `return` from inside the loop once it passes a threshold.
#[derive_frule]
fn capped_energy(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
        if s > 1.0 {
            return s * x[0];
        }
    }
    s
}

#[derive_frule]
fn checked_ln(v: f64) -> Option<f64> {
    if v > 0.0 {
        Some(v.ln())
    } else {
        None
    }
}

/// `?` inside a loop with an accumulator (a log-likelihood that gives up on a bad point).
#[derive_frule]
fn log_likelihood(x: &[f64]) -> Option<f64> {
    let mut s = 0.0;
    for i in 0..x.len() {
        let p = x[i] * x[i] + 0.1;
        s += checked_ln(p * x[0].abs())?;
    }
    Some(s)
}

#[derive_frule]
fn log_likelihood_or_zero(x: &[f64]) -> f64 {
    log_likelihood(x).unwrap_or(0.0)
}

/// Shadowed bindings in `match` arms.
#[derive_frule]
fn shadowed_arms(x: &[f64], k: usize) -> f64 {
    let a = x[0];
    let r = match k {
        0 => {
            let a = a * 2.0;
            let a = a * x[1];
            a
        }
        1 => {
            let a = x[1].sin();
            a * a
        }
        _ => a,
    };
    r + a * x[2]
}

/// A work stack: `while let Some(v) = stack.pop()`, pushing halves of large values.
#[derive_frule]
fn stack_fold(x: &[f64]) -> f64 {
    let mut stack = vec![x[0], x[1], x[2]];
    let mut s = 0.0;
    while let Some(v) = stack.pop() {
        s = s * x[3] + v;
        if v > 1.0 {
            stack.push(v * 0.5);
        }
    }
    s
}

/// A trimmed, rank-weighted mean: sorted with `sort_by(partial_cmp)`.
#[derive_frule]
fn rank_weighted(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mut s = 0.0;
    for i in 1..v.len() - 1 {
        s += (i as f64) * v[i];
    }
    s / (v.len() as f64)
}

/// A table lookup with linear interpolation: integer/float casts in the index math.
#[derive_frule]
fn interpolate(x: &[f64]) -> f64 {
    let t = x[0];
    let n = x.len() - 2;
    let u = t * n as f64;
    let i = (u.floor() as usize).min(n - 1);
    let frac = u - i as f64;
    (1.0 - frac) * x[1 + i] + frac * x[2 + i]
}

/// Sequences from `successors` and `from_fn`.
#[derive_frule]
fn geometric_sums(x: &[f64]) -> f64 {
    let s: f64 = std::iter::successors(Some(x[0]), |v| Some(v * x[1] + 0.1))
        .take(5)
        .sum();
    let mut t = x[2];
    let mut n = 0;
    let u: f64 = std::iter::from_fn(|| {
        n += 1;
        t *= x[1];
        if n <= 4 {
            Some(t)
        } else {
            None
        }
    })
    .sum();
    s + u
}

/// A closure that captures an accumulator and mutates it.
#[derive_frule]
fn closure_accumulates(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    let mut add = |v: f64| acc += v * x[0];
    for i in 1..x.len() {
        add(x[i] * x[i]);
    }
    add(x[0].cos());
    acc
}

#[test]
fn recent_constructs_every_mode() {
    let x = [0.7, -0.4, 1.3, 0.5];
    check_modes!(cfg_split_energy {}, cfg_split_energy, x);
    check_modes!(load_work {}, load_work, x);
    check_modes!(load_work {}, load_work, [-0.7, -0.4, 1.3, 0.5]);
    check_modes!(leapfrog_swaps {}, leapfrog_swaps, x);
    check_modes!(capped_energy {}, capped_energy, x);
    check_modes!(capped_energy {}, capped_energy, [0.2, 0.3, 0.1, 0.4]);
    check_modes!(log_likelihood_or_zero {}, log_likelihood_or_zero, x);
    for k in 0..3 {
        check_modes!(
            bind(shadowed_arms {}, (Wrt, k)),
            |x: &[f64]| shadowed_arms(x, k),
            x
        );
    }
    check_modes!(stack_fold {}, stack_fold, [1.7, -0.4, 2.9, 0.5]);
    check_modes!(rank_weighted {}, rank_weighted, [0.7, -0.4, 1.3, 0.5, 0.9]);
    check_modes!(interpolate {}, interpolate, [0.55, -0.4, 1.3, 0.5, 0.9]);
    check_modes!(geometric_sums {}, geometric_sums, x);
    check_modes!(closure_accumulates {}, closure_accumulates, x);
}

/// Forces accumulated into a buffer through trait objects (`&mut [f64]` in a `dyn` method,
/// run once per lane in batches).
#[derive_frule]
pub trait Force {
    fn accumulate(&self, x: &[f64], f: &mut [f64]);
}

#[derive(Clone, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
    pub rest: f64,
}

#[derive(Clone, Debug, Differentiable)]
pub struct Stiffening {
    pub g: f64,
}

#[derive_frule]
impl Force for Spring {
    fn accumulate(&self, x: &[f64], f: &mut [f64]) {
        let d = x[1] - x[0] - self.rest;
        f[0] += self.k * d;
        f[1] -= self.k * d;
    }
}

#[derive_frule]
impl Force for Stiffening {
    fn accumulate(&self, x: &[f64], f: &mut [f64]) {
        for i in 0..x.len() {
            f[i] -= self.g * x[i] * x[i] * x[i];
        }
    }
}

#[derive_frule]
fn force_residual(forces: &[Box<dyn Force>], x: &[f64]) -> f64 {
    let mut f = vec![0.0; x.len()];
    for force in forces {
        force.accumulate(x, &mut f);
    }
    let mut s = 0.0;
    for i in 0..f.len() {
        s += f[i] * f[i];
    }
    s
}

#[test]
fn forces_through_dyn_into_a_buffer_every_mode() {
    let forces: Vec<Box<dyn Force>> = vec![
        Box::new(Spring { k: 2.0, rest: 0.5 }),
        Box::new(Stiffening { g: 0.3 }),
        Box::new(Spring { k: 0.7, rest: -0.2 }),
    ];
    let x = [0.4, 1.3, -0.6];
    check_modes!(
        bind(force_residual {}, (&forces[..], Wrt)),
        |x: &[f64]| force_residual(&forces, x),
        x
    );
}

/// Kinks at their points: ties of `max`, `min` and `clamp`, `abs`, `signum` and `copysign`
/// at 0, `powi`/`powf` at 0, `atan2` on the negative axis.
#[derive_frule]
fn kinks_at_ties(x: &[f64]) -> f64 {
    let a = x[0].max(x[1]);
    let b = f64::min(x[0] * x[2], x[1] * x[2]);
    let c = (x[2] * x[0]).clamp(-1.0, x[3]);
    let d = x[4].abs() * x[2] + x[4].signum() * x[0] + x[0].copysign(x[4]);
    let e = x[4].powi(3) + x[4].powf(2.5) + x[4].powf(x[2]);
    let f = x[5].atan2(x[6]);
    a + b + c + d + e + f
}

#[test]
fn kinks_at_ties_every_mode() {
    // The conventions of `fwdad_runtime::rules::nondiff` (JAX's): a tie takes the mean of
    // the tangents, `abs'(0) = 0`, `signum` is locally constant, `copysign(a, +0) = a`;
    // `0^y` is 0 for `y > 0` (so `∂/∂y = 0`), `atan2(y, x)` on the negative axis has
    // `∂/∂y = 1/x`, `∂/∂x = 0`.
    let (x0, x2) = (0.6, 1.3);
    let x = [x0, x0, x2, x2 * x0, 0.0, 0.0, -2.0];
    let want = vec![2.5 + x2, 0.5 + 0.5 * x2, 1.5 * x0, 0.5, 0.0, -0.5, 0.0];
    check_first_order!(kinks_at_ties {}, kinks_at_ties, x, want);
}

// ---------------------------------------------------------------------------------------
// Round two of guards.

/// A state matched by value, then mutated through a guard arm and read again.
#[derive_frule]
fn guarded_update(x: &[f64]) -> f64 {
    let mut s = State { p: x[0], v: x[1] };
    match s {
        State { p, .. } if p > 0.0 => s.v += p * x[2],
        State { v, .. } => s.p = v * v,
    }
    let k = match s {
        State { p, v } => p * v,
    };
    k + s.p
}

/// Swapping elements of a local buffer, and the largest element by `max_by`.
#[derive_frule]
fn swapped_peaks(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.swap(0, 2);
    let m = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let best = *v.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    v[0] * m + best * v[1]
}

/// The best candidate so far kept in an `Option`, replaced with `take`/`replace`.
#[derive_frule]
fn best_so_far(x: &[f64]) -> f64 {
    let mut best: Option<f64> = None;
    let mut prev: Option<f64> = None;
    for i in 0..x.len() {
        let c = x[i] * x[i] - x[i];
        let old = prev.replace(c);
        if let Some(o) = old {
            if c < o {
                best = Some(c + o * 0.5);
            }
        }
    }
    let b = best.take().unwrap_or(x[0]);
    b + prev.unwrap_or(0.0) + best.unwrap_or(1.0)
}

/// A nested search with a labelled `break` and accumulators carried out of both loops.
#[derive_frule]
fn labelled_search(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut hit = x[0];
    'outer: for i in 0..x.len() {
        for j in i..x.len() {
            s += x[i] * x[j];
            if s > 2.0 {
                hit = x[j] * s;
                break 'outer;
            }
        }
        s *= 0.9;
    }
    s + hit
}

/// Truncating casts in the value (a locally constant step) and in an index.
#[derive_frule]
fn quantised(x: &[f64]) -> f64 {
    let steps = (x[0] * 10.0) as i32;
    let q = steps as f64 / 10.0;
    let idx = (x[1].abs() * 2.0) as usize % x.len();
    q * x[2] + x[idx] * (x[0] - q)
}

/// Windows, a running `scan`, `step_by` and `rev`.
#[derive_frule]
fn windowed(x: &[f64]) -> f64 {
    let mut tv = 0.0;
    for w in x.windows(2) {
        tv += (w[1] - w[0]) * (w[1] - w[0]);
    }
    let run: Vec<f64> = x
        .iter()
        .scan(0.0, |acc, &v| {
            *acc = *acc * 0.5 + v;
            Some(*acc)
        })
        .collect();
    let mut alt = 0.0;
    for i in (0..x.len()).step_by(2).rev() {
        alt = alt * x[0] + run[i];
    }
    tv + alt
}

/// A recursive derived function (Horner by recursion).
#[derive_frule]
fn horner(c: &[f64], t: f64) -> f64 {
    if c.len() == 1 {
        c[0]
    } else {
        c[0] + t * horner(&c[1..], t)
    }
}

#[derive_frule]
fn horner_of(x: &[f64]) -> f64 {
    horner(&x[1..], x[0])
}

/// Struct update syntax from a taken value.
#[derive_frule]
fn updated_state(x: &[f64]) -> f64 {
    let mut s = State { p: x[0], v: x[1] };
    let t = State {
        v: x[2] * s.p,
        ..std::mem::take(&mut s)
    };
    t.p * t.v + s.p + s.v
}

#[test]
fn round_two_every_mode() {
    let x = [0.7, -0.4, 1.3, 0.5];
    check_modes!(guarded_update {}, guarded_update, x);
    check_modes!(guarded_update {}, guarded_update, [-0.7, -0.4, 1.3, 0.5]);
    check_modes!(swapped_peaks {}, swapped_peaks, x);
    check_modes!(best_so_far {}, best_so_far, [0.7, 0.2, 1.3, 0.5, 0.45]);
    check_modes!(labelled_search {}, labelled_search, [0.7, 0.9, 1.3, 0.5]);
    check_modes!(labelled_search {}, labelled_search, [0.1, 0.2, -0.3, 0.5]);
    check_modes!(quantised {}, quantised, [0.73, -1.4, 1.3, 0.5]);
    check_modes!(windowed {}, windowed, [0.73, -1.4, 1.3, 0.5, 0.2]);
    check_modes!(horner_of {}, horner_of, [0.73, -1.4, 1.3, 0.5, 0.2]);
    check_modes!(updated_state {}, updated_state, x);
}

/// The kink of [`gap_asin`] in an arm of an `if` that reads only values from before it
/// (a chain continued through the `if`).
#[derive_frule]
fn gap_asin_phi(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    let p = x[i];
    let q = x[j];
    let s = if a > 0.0 {
        (1.0 + a * q - a * p).asin()
    } else {
        a * p
    };
    s * a + p
}

#[test]
fn kink_of_cancelling_roots_in_a_linearised_arm() {
    let x = [0.4, 0.4, 1.5];
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    // `asin(1)·a + x₀` with `d` kept 0: derivatives 1 and π/2.
    let want = [1.0, std::f64::consts::FRAC_PI_2];
    let out = <gap_asin_phi as Frule<_, Batch<f64, 2>>>::frule(
        &gap_asin_phi {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), gap_asin_phi(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "batch of 2");
        let (_, d): (f64, f64) = jvp(bind(gap_asin_phi {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "one direction");
    }
    check_first_order!(
        bind(gap_asin_phi {}, (Wrt, 1, 1)),
        |x: &[f64]| gap_asin_phi(x, 1, 1),
        x,
        vec![0.0, 1.0, std::f64::consts::FRAC_PI_2]
    );
}

// ---------------------------------------------------------------------------------------
// Round three of guards.

/// Double-buffered diffusion steps: `mem::swap` of two `Vec`s in a loop.
#[derive_frule]
fn diffusion(x: &[f64]) -> f64 {
    let n = x.len();
    let mut cur = x.to_vec();
    let mut next = vec![0.0; n];
    for _ in 0..3 {
        for i in 0..n {
            let l = if i == 0 { cur[n - 1] } else { cur[i - 1] };
            let r = if i + 1 == n { cur[0] } else { cur[i + 1] };
            next[i] = cur[i] + 0.2 * (l - 2.0 * cur[i] + r);
        }
        std::mem::swap(&mut cur, &mut next);
    }
    cur[0] * cur[0] + cur[1] * next[2]
}

/// Samples sorted by value with their indices (`sort_by` on pairs), weights by rank.
#[derive_frule]
fn ranked_pairs(x: &[f64]) -> f64 {
    let mut pairs: Vec<(f64, usize)> = Vec::new();
    for i in 0..x.len() {
        pairs.push((x[i] * x[i] - x[i], i));
    }
    pairs.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    let mut s = 0.0;
    for (rank, p) in pairs.iter().enumerate() {
        s += (rank as f64 + 1.0) * p.0 * x[p.1];
    }
    s
}

/// A running maximum with ties (`m = m.max(x[i])`), and a clamp with active bounds.
#[derive_frule]
fn running_max(x: &[f64]) -> f64 {
    let mut m = f64::NEG_INFINITY;
    for i in 0..x.len() {
        m = m.max(x[i]);
    }
    let c = x[0].clamp(x[1] - 1.0, x[2] + 1.0);
    m * 2.0 + c * x[3]
}

/// Mean and variance.
#[derive_frule]
fn variance(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
}

/// A closure updating a captured struct and a `Vec` in a loop over `enumerate`.
#[derive_frule]
fn closure_state(x: &[f64]) -> f64 {
    let mut st = State { p: 0.0, v: 1.0 };
    let mut hist: Vec<f64> = Vec::new();
    let mut step = |i: usize, v: f64| {
        st.p += v * st.v;
        st.v *= 0.5 + 0.1 * i as f64;
        hist.push(st.p);
    };
    for (i, v) in x.iter().enumerate() {
        step(i, *v);
    }
    st.p * hist[1] + st.v
}

#[test]
fn round_three_every_mode() {
    let x = [0.7, -0.4, 1.3, 0.5];
    check_modes!(diffusion {}, diffusion, x);
    check_modes!(ranked_pairs {}, ranked_pairs, x);
    check_modes!(running_max {}, running_max, [0.7, -0.4, 1.3, 0.5]);
    check_modes!(variance {}, variance, x);
    check_modes!(closure_state {}, closure_state, x);
    // Ties of the running maximum: the mean of the tied tangents, in every mode (the
    // first tie splits `x₁`'s and `x₂`'s, the second that and `x₃`'s).
    let x = [0.2, 0.9, 0.9, 0.9];
    check_first_order!(
        running_max {},
        running_max,
        x,
        vec![x[3], 0.5, 0.5, 1.0 + x[0]]
    );
}

// ---------------------------------------------------------------------------------------
// Round four.

/// A shape holding a `Vec`, matched by `ref` and then by value (moving the `Vec`).
#[derive(Clone, Debug, Differentiable)]
pub enum Outline {
    Poly(Vec<f64>),
    Circle(f64),
}

#[derive_frule]
fn outline_measure(x: &[f64]) -> f64 {
    let s = if x[0] > 0.0 {
        Outline::Poly(x.to_vec())
    } else {
        Outline::Circle(x[1])
    };
    let area = match s {
        Outline::Poly(ref v) => v.iter().map(|t| t * t).sum::<f64>(),
        Outline::Circle(r) => 3.0 * r * r,
    };
    let edge = match s {
        Outline::Poly(v) => v[0] * v[1] + v[v.len() - 1],
        Outline::Circle(r) => 6.0 * r,
    };
    area * edge
}

/// `#[cfg]` on a match arm and on a statement inside an arm.
#[derive_frule]
fn cfg_arms(x: &[f64], k: usize) -> f64 {
    match k {
        0 => {
            #[cfg(debug_assertions)]
            let s = x[0] * x[1];
            #[cfg(not(debug_assertions))]
            let s = x[0] + x[1];
            s * x[2]
        }
        #[cfg(test)]
        1 => x[1].exp(),
        _ => x[2] * x[2],
    }
}

/// An `Option<Vec<f64>>` taken out of a struct-free local and refilled.
#[derive_frule]
fn optional_buffer(x: &[f64]) -> f64 {
    let mut buf: Option<Vec<f64>> = Some(x.to_vec());
    let mut s = 0.0;
    for i in 0..2 {
        if let Some(mut v) = buf.take() {
            for t in v.iter_mut() {
                *t *= x[i];
            }
            s += v[0] + v[2];
            buf = Some(v);
        }
    }
    s + buf.map_or(0.0, |v| v[1])
}

#[test]
fn round_four_every_mode() {
    let x = [0.7, -0.4, 1.3, 0.5];
    check_modes!(outline_measure {}, outline_measure, x);
    check_modes!(outline_measure {}, outline_measure, [-0.7, -0.4, 1.3, 0.5]);
    for k in 0..3 {
        check_modes!(bind(cfg_arms {}, (Wrt, k)), |x: &[f64]| cfg_arms(x, k), x);
    }
    check_modes!(optional_buffer {}, optional_buffer, x);
}

/// The kink's operand yielded by an `if` (a chain through it), and `cbrt` of a difference.
#[derive_frule]
fn gap_kinks_after_if(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    let p = x[i];
    let q = x[j];
    let u = if a > 0.0 {
        a * q - a * p
    } else {
        a * p - a * q
    };
    u.sqrt() * a + (p - q).cbrt() * x[0] + p
}

#[test]
fn kinks_after_an_if_of_cancelling_roots() {
    let x = [0.4, 0.4, 1.5];
    // `i = j`: both roots are 0 whatever `x`; the rest is `x₁`.
    check_first_order!(
        bind(gap_kinks_after_if {}, (Wrt, 1, 1)),
        |x: &[f64]| gap_kinks_after_if(x, 1, 1),
        x,
        vec![0.0, 1.0, 0.0]
    );
    // `i ≠ j` at equal entries, along directions that keep them equal: `p` only.
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    let out = <gap_kinks_after_if as Frule<_, Batch<f64, 2>>>::frule(
        &gap_kinks_after_if {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), gap_kinks_after_if(&x, 0, 1).to_bits());
    let want = [1.0, 0.0];
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "batch of 2");
        let (_, d): (f64, f64) = jvp(bind(gap_kinks_after_if {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "one direction");
    }
}
