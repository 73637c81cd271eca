//! Eighth hunt for wrong primals and derivatives.
//!
//! Found:
//! - A compile error for code that should work (rustc's `CoerceTo` message naming
//!   `Dual<&dyn Body, &NoTangent>`): a `&self` method called on an element of a `mut`
//!   vector of boxed trait objects by index (`let before = bodies[1].height();`,
//!   `bodies[0].energy(g)` beside `bodies[1].update(dt, g)`). The element is reached
//!   through a `&mut` borrow (`Dual<&mut Box<dyn Body>, &mut Box<NoTangent>>`), which
//!   converted to the `&mut dyn Body` receiver of a `&mut self` method but not to the
//!   `&dyn Body` one of a `&self` method; the runtime now has that conversion
//!   (`indexed_box`, `two_reads`).
//!
//! No wrong value was found. The other functions are guards that passed, written as users
//! write them: trait objects boxed from the inputs in the body and stepped by `&mut self`
//! methods through `iter_mut`, `iter_mut().enumerate()`, `iter_mut().zip(..)`,
//! `last_mut`, an index; swapped, reversed, removed at the front, inserted, pushed after,
//! moved to another vector by `pop`/`push`, read after the other was stepped, and an early
//! `return` of a box's value from inside the stepping loop; `map` closures with effects
//! before `rev`, `take`, `chain` and a `zip` whose first side is longer (`std` runs its
//! closure once more); `filter(..).skip(n)`, `filter(..).skip(n).step_by(k)`; untyped
//! `zip` with a `Vec`, with `skip`, with `rev`; a local `VecDeque` pushed at both ends and
//! indexed; `then_some`/`then`; casts float → `usize`/`i32`/`f32` → float; `T::sin(x)`
//! and `Float::powi` through `T: Float`; an `impl Float` parameter; `min`/`max`/`clamp`
//! at ties; in-place updates reading their own element (`x[i] += x[i - 1] * x[i]`,
//! `x[j] = x[i] * x[j]` with `j = 2i mod n`, `swap`, a shift register by loops); and large
//! functions of `f64`s and `&[f64]`s that take the AVX2+FMA entry in batches of four lanes
//! or more (a spring chain with branches, a perceptron, a planar arm's pose error with an
//! early return, a GMM point's log-sum-exp, an element read under two index expressions
//! into a kink): each in one direction, batches of 1 to 16 lanes and second order against
//! central differences or closed forms, primals bit for bit; the large functions also with
//! `FWDAD_NO_DISPATCH=1` (same results).
#![allow(
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::float_cmp,
    clippy::let_and_return,
    clippy::manual_memcpy,
    clippy::assign_op_pattern,
    clippy::too_many_arguments,
    clippy::excessive_precision,
    clippy::obfuscated_if_else,
    clippy::eq_op
)]
use fwdad::drivers::{bind, jvp, Var, Wrt};
use fwdad::prelude::*;
use num_traits::Float;
use std::collections::VecDeque;

#[macro_use]
mod common;

use common::modes::{assert_close, fd_gradient, fd_hessian};
use common::widths::{check_in_place, same};

// ---------------------------------------------------------------------------------------
// Trait objects carrying derivatives.

#[derive_frule]
pub trait Body {
    fn update(&mut self, dt: f64, g: f64);
    fn energy(&self, g: f64) -> f64;
    fn height(&self) -> f64;
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Ball {
    pub h: f64,
    pub v: f64,
    pub m: f64,
}

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Feather {
    pub h: f64,
    pub v: f64,
    pub drag: f64,
}

#[derive_frule]
impl Body for Ball {
    fn update(&mut self, dt: f64, g: f64) {
        self.v -= g * dt;
        self.h += self.v * dt;
    }
    fn energy(&self, g: f64) -> f64 {
        self.m * (g * self.h + 0.5 * self.v * self.v)
    }
    fn height(&self) -> f64 {
        self.h
    }
}

#[derive_frule]
impl Body for Feather {
    fn update(&mut self, dt: f64, g: f64) {
        self.v += (-g - self.drag * self.v) * dt;
        self.h += self.v * dt;
    }
    fn energy(&self, g: f64) -> f64 {
        g * self.h + 0.5 * self.v * self.v
    }
    fn height(&self) -> f64 {
        self.h
    }
}

/// Bodies stepped, then swapped, weighted by their place. `x = [h0, v0, m, h1, v1, drag, g]`.
#[derive_frule]
pub fn swapped_bodies(x: &[f64]) -> f64 {
    let g = x[6];
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[0],
            v: x[1],
            m: x[2],
        }),
        Box::new(Feather {
            h: x[3],
            v: x[4],
            drag: x[5],
        }),
    ];
    for b in bodies.iter_mut() {
        b.update(0.1, g);
    }
    bodies.swap(0, 1);
    for b in bodies.iter_mut() {
        b.update(0.05, g);
    }
    let mut s = 0.0;
    for (i, b) in bodies.iter().enumerate() {
        s += (i as f64 + 1.0) * b.height() + 0.1 * (i as f64 + 2.0) * b.energy(g);
    }
    s
}

/// Bodies pushed one by one, stepped, the ones below ground dropped by `retain`.
#[derive_frule]
pub fn retained_bodies(x: &[f64]) -> f64 {
    let g = x[0];
    let mut bodies: Vec<Box<dyn Body>> = Vec::new();
    for i in 1..x.len() {
        if i % 2 == 0 {
            bodies.push(Box::new(Ball {
                h: x[i],
                v: 0.0,
                m: 1.0 + i as f64,
            }));
        } else {
            bodies.push(Box::new(Feather {
                h: x[i],
                v: 0.5,
                drag: 0.2,
            }));
        }
    }
    for _ in 0..5 {
        for b in bodies.iter_mut() {
            b.update(0.1, g);
        }
    }
    let mut kept = 0.0;
    let mut e = 0.0;
    for b in &bodies {
        if b.height() > 0.0 {
            kept += 1.0;
            e += b.energy(g);
        }
    }
    e + kept
}

/// A box moved from one vector to another, then stepped there only.
#[derive_frule]
pub fn moved_box(x: &[f64]) -> f64 {
    let g = x[0];
    let mut active: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[1],
            v: x[2],
            m: 2.0,
        }),
        Box::new(Feather {
            h: x[3],
            v: 0.0,
            drag: x[2],
        }),
    ];
    let mut resting: Vec<Box<dyn Body>> = Vec::new();
    let b = active.pop().unwrap();
    resting.push(b);
    for b in active.iter_mut() {
        b.update(0.2, g);
    }
    for b in resting.iter_mut() {
        b.update(0.1, 0.5 * g);
    }
    let a: f64 = active.iter().map(|b| b.height()).sum();
    let r: f64 = resting.iter().map(|b| b.energy(g)).sum();
    a * a + 3.0 * r
}

/// One body stepped through an index, read before and after.
#[derive_frule]
pub fn indexed_box(x: &[f64]) -> f64 {
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[0],
            v: x[1],
            m: x[2],
        }),
        Box::new(Feather {
            h: x[1],
            v: x[0],
            drag: 0.3,
        }),
    ];
    let before = bodies[1].height();
    bodies[1].update(0.1, x[2]);
    bodies[0].update(0.2, x[2]);
    bodies[1].update(0.1, x[2]);
    let after = bodies[1].height();
    before * after + bodies[0].energy(x[2])
}

/// The energy of the first body to fall below a height: an early return of a box's value.
#[derive_frule]
pub fn first_below(x: &[f64]) -> f64 {
    let g = x[0];
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[1],
            v: 0.0,
            m: 1.5,
        }),
        Box::new(Feather {
            h: x[2],
            v: 0.0,
            drag: 0.4,
        }),
    ];
    for step in 0..100 {
        for b in bodies.iter_mut() {
            b.update(0.05, g);
        }
        for b in &bodies {
            if b.height() < 0.5 {
                return b.energy(g) + step as f64;
            }
        }
    }
    -1.0
}

/// The last body stepped through `last_mut`, a body removed at the front and one inserted.
#[derive_frule]
pub fn reordered(x: &[f64]) -> f64 {
    let g = x[0];
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[1],
            v: x[2],
            m: 1.0,
        }),
        Box::new(Feather {
            h: x[2],
            v: x[1],
            drag: 0.1,
        }),
    ];
    if let Some(b) = bodies.last_mut() {
        b.update(0.3, g);
    }
    let first = bodies.remove(0);
    bodies.insert(
        1,
        Box::new(Ball {
            h: x[3],
            v: 0.0,
            m: 3.0,
        }),
    );
    bodies.push(first);
    bodies.reverse();
    for b in bodies.iter_mut() {
        b.update(0.1, g);
    }
    bodies
        .iter()
        .enumerate()
        .map(|(i, b)| (i as f64 + 1.0) * b.height())
        .sum()
}

/// Each body stepped with its own step size, by `iter_mut().enumerate()` and `zip`.
#[derive_frule]
pub fn own_steps(x: &[f64]) -> f64 {
    let g = x[0];
    let dts = [0.1, 0.2];
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[1],
            v: 0.0,
            m: x[2],
        }),
        Box::new(Feather {
            h: x[2],
            v: 0.0,
            drag: x[1],
        }),
    ];
    for (i, b) in bodies.iter_mut().enumerate() {
        b.update(dts[i], g);
    }
    for (b, dt) in bodies.iter_mut().zip(dts.iter()) {
        b.update(*dt, g * 0.5);
    }
    let mut e = 0.0;
    for b in bodies.iter() {
        e += b.energy(g) * b.height();
    }
    e
}

/// A copy of a body's state taken before stepping (a box read after mutation of the
/// other).
#[derive_frule]
pub fn two_reads(x: &[f64]) -> f64 {
    let mut bodies: Vec<Box<dyn Body>> = vec![
        Box::new(Ball {
            h: x[0],
            v: x[1],
            m: 1.0,
        }),
        Box::new(Ball {
            h: x[1],
            v: x[0],
            m: 2.0,
        }),
    ];
    let h0 = bodies[0].height();
    let mut total = 0.0;
    for k in 0..3 {
        for b in bodies.iter_mut() {
            b.update(0.1, 9.81);
        }
        total += bodies[k % 2].height() * h0;
    }
    total
}

#[test]
fn swapped() {
    let x = [2.0, 0.5, 1.3, 1.5, -0.2, 0.4, 9.81];
    check_widths!(swapped_bodies {}, swapped_bodies, x);
}

#[test]
fn retained() {
    let x = [9.81, 0.5, 2.0, 1.6, 0.2, 3.0];
    check_widths!(retained_bodies {}, retained_bodies, x);
}

#[test]
fn moved() {
    let x = [9.81, 2.0, 0.4, 1.5];
    check_widths!(moved_box {}, moved_box, x);
}

#[test]
fn indexed() {
    let x = [2.0, 0.5, 1.3];
    check_widths!(indexed_box {}, indexed_box, x);
}

#[test]
fn early_return() {
    let x = [9.81, 2.0, 1.7];
    check_widths!(first_below {}, first_below, x);
}

#[test]
fn reorder() {
    let x = [9.81, 2.0, 0.7, 1.1];
    check_widths!(reordered {}, reordered, x);
}

#[test]
fn steps_own() {
    let x = [9.81, 2.0, 0.7];
    check_widths!(own_steps {}, own_steps, x);
}

#[test]
fn reads_two() {
    let x = [2.0, 0.7];
    check_widths!(two_reads {}, two_reads, x);
}

// ---------------------------------------------------------------------------------------
// Chains with effects, queues, `then_some`, casts, generic floats, ties, aliasing.

/// A running state walked backwards: `std` calls the closure on the last item first.
#[derive_frule]
pub fn rev_after_effects(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let a = 0.7;
    let r: f64 = x
        .iter()
        .map(|v| {
            s = s * a + v;
            s * s
        })
        .rev()
        .enumerate()
        .map(|(k, q)| (k as f64 + 1.0) * q)
        .sum();
    r + s
}

/// The first three states of a filter, `take` after a `map` with effects.
#[derive_frule]
pub fn take_after_effects(x: &[f64]) -> f64 {
    let mut state = x[0];
    let out: Vec<f64> = x[1..]
        .iter()
        .map(|v| {
            state = 0.5 * state + v.sin();
            state
        })
        .take(3)
        .collect();
    out.iter().sum::<f64>() * state
}

/// Two filters chained: the second's closure runs after the first's.
#[derive_frule]
pub fn chain_after_effects(x: &[f64]) -> f64 {
    let n = x.len() / 2;
    let mut acc = 1.0;
    let mut bcc = 0.5;
    let total: f64 = x[..n]
        .iter()
        .map(|v| {
            acc *= 1.0 + 0.1 * v;
            acc
        })
        .chain(x[n..].iter().map(|v| {
            bcc = bcc * 0.5 + v * v;
            bcc
        }))
        .sum();
    total * acc + bcc
}

/// Zipped filters, the first longer: `std` runs the first's closure once more.
#[derive_frule]
pub fn zip_after_effects(x: &[f64]) -> f64 {
    let mut a = 0.0;
    let mut b = 0.0;
    let s: f64 = x
        .iter()
        .map(|v| {
            a = a * 0.5 + v;
            a
        })
        .zip(x[2..].iter().map(|w| {
            b += w.exp();
            b
        }))
        .map(|(p, q)| p * q)
        .sum();
    s + a * 10.0 + b
}

/// A filter's positive items, the first `n` skipped.
#[derive_frule]
pub fn filter_skip(x: &[f64]) -> f64 {
    let big: f64 = x.iter().filter(|v| **v > 0.2).skip(2).map(|v| v * v).sum();
    let small: f64 = x
        .iter()
        .filter(|v| v.abs() < 1.0)
        .skip(1)
        .step_by(2)
        .map(|v| v.exp())
        .sum();
    big + small
}

/// An untyped zip of a slice with a `Vec` the function built.
#[derive_frule]
pub fn untyped_zip(x: &[f64]) -> f64 {
    let w: Vec<f64> = x.iter().map(|v| v.cos()).collect();
    let mut s = 0.0;
    for (a, b) in x.iter().zip(&w) {
        s += a * b;
    }
    let t: f64 = w.iter().zip(x.iter().skip(1)).map(|(p, q)| p - q).sum();
    let u = x
        .iter()
        .zip(w.iter().rev())
        .fold(0.0, |acc, (p, q)| acc + p * q);
    s * t + u
}

/// A moving average over a local `VecDeque`, pushed at both ends.
#[derive_frule]
pub fn deque_window(x: &[f64]) -> f64 {
    let mut w: VecDeque<f64> = VecDeque::with_capacity(3);
    let mut out = 0.0;
    for (i, v) in x.iter().enumerate() {
        if i % 3 == 2 {
            w.push_front(v * 2.0);
        } else {
            w.push_back(*v);
        }
        if w.len() > 3 {
            w.pop_front();
        }
        let m: f64 = w.iter().sum::<f64>() / w.len() as f64;
        out += m * w[0] + w[w.len() - 1] * (i as f64);
    }
    out + w.front().unwrap() * w.back().unwrap()
}

/// A delay line: a `VecDeque` from a `Vec`, popped at the back.
#[derive_frule]
pub fn deque_delay(x: &[f64]) -> f64 {
    let mut d = VecDeque::from(vec![0.0; 2]);
    let mut y = 0.0;
    for v in x {
        d.push_front(*v);
        let old = d.pop_back().unwrap();
        y = 0.9 * y + v - 0.5 * old + 0.25 * d[1];
    }
    y * y
}

/// `then_some` and `then` selecting values on conditions of the inputs.
#[derive_frule]
pub fn then_some_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        s += (v > 0.0).then_some(v * v).unwrap_or(-v);
        s += (v < 1.0).then(|| v.exp()).unwrap_or(0.0);
    }
    let first = x.iter().find(|&&v| v > 0.5).map(|v| v.sin());
    s + first.unwrap_or(1.0)
}

/// Casts: a bin index from a value, a count as a float, a saturating cast.
#[derive_frule]
pub fn histogram_weight(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x {
        let bin = ((v + 2.0) * 2.0) as usize;
        let k = (v * 10.0) as i32;
        let w = bin as f64 * 0.5 + k as f64 * 0.01;
        s += w * v + (v as f32 as f64) * 0.0 + (k.abs() as f64).sqrt() * v;
    }
    s / x.len() as f64
}

/// Trait-bounded generic helper calling `T::sin(x)`.
#[derive_frule]
pub fn wave<T: Float>(x: T, k: T) -> T {
    T::sin(k * x) * T::cos(x) + T::exp(-x * x) + Float::powi(x, 3)
}

#[derive_frule]
pub fn waves(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += wave(x[i], 1.5) + f64::sin(x[i]) * wave(x[0], x[i]);
    }
    s
}

/// `impl Float` parameters.
#[derive_frule]
pub fn soft(a: impl Float, b: f64) -> f64 {
    let a = a.to_f64().unwrap();
    (a * b).tanh() + a.ln_1p()
}

/// `min`/`max`/`clamp` ties: both sides the same value.
#[derive_frule]
pub fn ties(x: &[f64]) -> f64 {
    let a = x[0].max(x[0]);
    let b = (x[1] * 2.0).min(x[1] + x[1]);
    let c = x[2].clamp(x[2], x[2] + 1.0);
    let d = x[0].max(x[1]).min(x[2]);
    a * b + c + d
}

/// In-place updates reading their own element and a neighbour.
#[derive_frule]
pub fn aliasing(x: &mut [f64]) {
    let n = x.len();
    for i in 1..n {
        x[i] += x[i - 1] * x[i];
    }
    for i in 0..n {
        let j = (i * 2) % n;
        x[j] = x[i] * x[j] + 0.1;
    }
    x.swap(0, n - 1);
    let t = x[0];
    x[0] = x[n - 1];
    x[n - 1] = t * x[0];
}

fn aliasing_rule(v: &mut [f64], dv: &mut [f64]) {
    aliasing_frule(Dual::new(v, dv));
}

/// Overlapping copies within one buffer and a rotation, as a shift register does.
#[derive_frule]
pub fn shift_register(p: &[f64]) -> f64 {
    let mut x = p.to_vec();
    for i in (1..4).rev() {
        x[i] = x[i - 1];
    }
    let head = x[0];
    for i in 0..x.len() - 1 {
        x[i] = x[i + 1];
    }
    let n = x.len();
    x[n - 1] = head;
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += (i as f64 + 1.0) * v * v;
    }
    s
}

#[test]
fn rev_effects() {
    check_widths!(
        rev_after_effects {},
        rev_after_effects,
        [0.5, -1.0, 2.0, 0.25]
    );
}

#[test]
fn take_effects() {
    check_widths!(
        take_after_effects {},
        take_after_effects,
        [0.5, -1.0, 2.0, 0.25, 1.5, 0.7]
    );
}

#[test]
fn chain_effects() {
    check_widths!(
        chain_after_effects {},
        chain_after_effects,
        [0.5, -1.0, 2.0, 0.25, 1.5, 0.7]
    );
}

#[test]
fn zip_effects() {
    check_widths!(
        zip_after_effects {},
        zip_after_effects,
        [0.5, -1.0, 2.0, 0.25, 1.5]
    );
}

#[test]
fn filters_skipped() {
    check_widths!(
        filter_skip {},
        filter_skip,
        [0.5, -0.7, 2.0, 0.25, 1.5, 0.3, -0.4, 0.9]
    );
}

#[test]
fn zip_untyped() {
    check_widths!(untyped_zip {}, untyped_zip, [0.5, -0.7, 2.0, 0.25]);
}

#[test]
fn deques() {
    check_widths!(
        deque_window {},
        deque_window,
        [0.5, -0.7, 2.0, 0.25, 1.1, -0.3, 0.8]
    );
    check_widths!(deque_delay {}, deque_delay, [0.5, -0.7, 2.0, 0.25, 1.1]);
}

#[test]
fn then_somes() {
    check_widths!(then_some_sum {}, then_some_sum, [0.3, -0.7, 2.0, 0.8]);
}

#[test]
fn casts() {
    check_widths!(histogram_weight {}, histogram_weight, [0.33, -0.77, 1.21]);
}

#[test]
fn generic_sin() {
    check_widths!(waves {}, waves, [0.3, -0.7, 1.2]);
}

#[test]
fn impl_float() {
    check_widths!(
        bind(soft {}, (Var(0), Var(1))),
        |x: &[f64]| soft(x[0], x[1]),
        [0.3, 1.7]
    );
}

#[test]
fn at_ties() {
    let x = [0.3, 0.7, 1.2];
    let (v, g) = fwdad::drivers::gradient(ties {}, &x);
    assert_eq!(v.to_bits(), ties(&x).to_bits());
    // a = x0, b = 2 x1, c = x2 (clamp's lower bound is x2 itself: one of the two is
    // taken, either has derivative 1), d = min(max(x0, x1), x2) = x1.
    let want = [2.0 * x[1], 2.0 * x[0] + 1.0, 1.0];
    for k in 0..3 {
        assert_close(g[k], want[k], 1e-12, &format!("tie d/dx{k}"));
    }
}

#[test]
fn aliased_in_place() {
    check_in_place(aliasing_rule, aliasing, &[0.5, -1.0, 2.0, 0.25, 1.5]);
}

#[test]
fn shift() {
    check_widths!(
        shift_register {},
        shift_register,
        [0.5, -1.0, 2.0, 0.25, 1.5]
    );
}

// ---------------------------------------------------------------------------------------
// Large functions: the AVX2+FMA entry, element roots by reference.

/// A chain of six masses on springs with a wall at each end, stretched and compressed
/// springs of different stiffness, as a soft-body code writes its energy.
#[derive_frule]
fn chain_energy(x: &[f64], k: &[f64], rest: f64, gravity: f64) -> f64 {
    let n = x.len();
    let mut e = 0.0;
    let mut prev = 0.0;
    for i in 0..n {
        let d = x[i] - prev - rest;
        let ki = k[i % k.len()];
        if d > 0.0 {
            e += 0.5 * ki * d * d;
        } else {
            e += 0.5 * (2.0 * ki) * d * d + 0.1 * d.powi(4);
        }
        e += gravity * x[i] * (1.0 + 0.01 * i as f64);
        prev = x[i];
    }
    let last = (n as f64 + 1.0) * rest - x[n - 1] - rest;
    e += 0.5 * k[0] * last * last;
    let stretch = (x[n - 1] - x[0]) / ((n - 1) as f64 * rest);
    let stretch_penalty = (stretch - 1.0).powi(2) * k[1];
    let centre: f64 = x.iter().sum::<f64>() / n as f64;
    let spread = x
        .iter()
        .map(|v| (v - centre) * (v - centre))
        .sum::<f64>()
        .sqrt();
    e + stretch_penalty + 0.001 * spread + (x[0] * x[1]).sin() * 0.01 + (x[2] / x[3]).ln() * 0.01
}

/// A two-layer perceptron with three hidden units, written out as a hand-tuned kernel
/// does: weights `w = [w1 (3×3), b1 (3), w2 (3), b2]`, input `inp`, squared error.
#[derive_frule]
fn mlp_loss(w: &[f64], inp: &[f64], target: f64) -> f64 {
    let h0 = (w[0] * inp[0] + w[1] * inp[1] + w[2] * inp[2] + w[9]).tanh();
    let h1 = (w[3] * inp[0] + w[4] * inp[1] + w[5] * inp[2] + w[10]).tanh();
    let h2 = (w[6] * inp[0] + w[7] * inp[1] + w[8] * inp[2] + w[11]).tanh();
    let z = w[12] * h0 + w[13] * h1 + w[14] * h2 + w[15];
    let y = 1.0 / (1.0 + (-z).exp());
    let err = y - target;
    let reg = 1e-3 * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2] + w[3] * w[3] + w[4] * w[4])
        + 1e-3 * (w[5] * w[5] + w[6] * w[6] + w[7] * w[7] + w[8] * w[8]);
    let ce = -(target * y.ln() + (1.0 - target) * (1.0 - y).ln());
    err * err + reg + 0.1 * ce + w[12] * w[13] * w[14] * 0.01 + (w[15] - w[9]).abs() * 0.01
}

/// A pose error of a 3-link arm in the plane, returning `[ex, ey, eθ]`, with an early
/// return when the arm is folded back on itself.
#[derive_frule]
fn arm_pose_error(q: &[f64], l: &[f64], tx: f64, ty: f64, tth: f64) -> [f64; 3] {
    let a1 = q[0];
    let a2 = q[0] + q[1];
    let a3 = q[0] + q[1] + q[2];
    let x = l[0] * a1.cos() + l[1] * a2.cos() + l[2] * a3.cos();
    let y = l[0] * a1.sin() + l[1] * a2.sin() + l[2] * a3.sin();
    let reach = (x * x + y * y).sqrt();
    if reach < 1e-3 {
        return [0.0, 0.0, a3 - tth];
    }
    let scale = 1.0 + 0.1 * (reach - (tx * tx + ty * ty).sqrt()).tanh();
    let ex = (x - tx) * scale + 0.01 * q[1] * q[2];
    let ey = (y - ty) * scale - 0.01 * q[0] * q[2];
    let dth = a3 - tth;
    let eth = dth.sin().atan2(dth.cos());
    let soft = (l[0] * l[1] + l[1] * l[2] + l[2] * l[0]) / (l[0] + l[1] + l[2]);
    [ex * soft, ey * soft, eth + 0.001 * (x * y).exp()]
}

/// A Gaussian mixture's negative log-likelihood at one point of three components, the
/// means in `mu` and the log-weights in `lw`, as ADBench writes its GMM objective
/// (log-sum-exp with the maximum subtracted).
#[derive_frule]
fn gmm_point(mu: &[f64], lw: &[f64], ls: f64, px: f64, py: f64) -> f64 {
    let s2 = (2.0 * ls).exp();
    let a0 = lw[0] - ((px - mu[0]) * (px - mu[0]) + (py - mu[1]) * (py - mu[1])) / (2.0 * s2);
    let a1 = lw[1] - ((px - mu[2]) * (px - mu[2]) + (py - mu[3]) * (py - mu[3])) / (2.0 * s2);
    let a2 = lw[2] - ((px - mu[4]) * (px - mu[4]) + (py - mu[5]) * (py - mu[5])) / (2.0 * s2);
    let m = a0.max(a1).max(a2);
    let lse = m + ((a0 - m).exp() + (a1 - m).exp() + (a2 - m).exp()).ln();
    let wm = lw[0].max(lw[1]).max(lw[2]);
    let lsw = wm + ((lw[0] - wm).exp() + (lw[1] - wm).exp() + (lw[2] - wm).exp()).ln();
    -(lse - lsw - 2.0 * ls) + 0.5 * (mu[0] * mu[0] + mu[1] * mu[1]) * 1e-2
}

/// The same element read under two index expressions (`x[i]` and `x[(i + n) % n]`), and an
/// element read twice into a square root of their difference plus a term.
#[derive_frule]
fn twice_read(x: &[f64], a: f64) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        let p = x[i];
        let q = x[(i + n) % n];
        let r = x[(i + 1) % n];
        s += (a * p - a * q + r * r).sqrt() + (p * q).cos() * r;
        s += p.exp() * 0.1 - q.exp() * 0.1 + (p - q).abs() * 3.0;
    }
    let t = x[0] * x[1] - x[1] * x[0] + x[2] * x[3] + a * x[0];
    s * (1.0 + 0.1 * t) + (s * a).sin() + (t + a).exp() * 0.01 + (x[1] + x[2]).tanh()
}

#[test]
fn chain() {
    let x = [1.1, 1.9, 3.2, 3.9, 5.1, 6.05];
    let k = [10.0, 12.0, 8.0];
    check_widths!(
        bind(chain_energy {}, (Wrt, &k[..], 1.0, 0.3)),
        |x: &[f64]| chain_energy(x, &k, 1.0, 0.3),
        x
    );
    let p = [10.0, 12.0, 8.0, 1.0, 0.3];
    check_widths!(
        bind(chain_energy {}, (&x[..], Wrt, Var(3), Var(4))),
        |p: &[f64]| chain_energy(&x, p, p[3], p[4]),
        p
    );
}

#[test]
fn mlp() {
    let w: Vec<f64> = (0..16).map(|i| ((i as f64) * 0.37).sin() * 0.8).collect();
    let inp = [0.3, -1.2, 0.7];
    check_widths!(
        bind(mlp_loss {}, (Wrt, &inp[..], 0.75)),
        |w: &[f64]| mlp_loss(w, &inp, 0.75),
        w
    );
}

#[test]
fn arm() {
    let q = [0.3, -0.7, 1.1];
    let l = [1.0, 0.8, 0.6];
    let plain = |q: &[f64]| arm_pose_error(q, &l, 1.2, 0.9, 0.4);
    let want = plain(&q);
    for (mode, (v, jac)) in [
        (
            "4 lanes",
            fwdad::drivers::jacobian_with::<4>(
                bind(arm_pose_error {}, (Wrt, &l[..], 1.2, 0.9, 0.4)),
                &q,
            ),
        ),
        (
            "8 lanes",
            fwdad::drivers::jacobian_with::<8>(
                bind(arm_pose_error {}, (Wrt, &l[..], 1.2, 0.9, 0.4)),
                &q,
            ),
        ),
        (
            "2 lanes",
            fwdad::drivers::jacobian_with::<2>(
                bind(arm_pose_error {}, (Wrt, &l[..], 1.2, 0.9, 0.4)),
                &q,
            ),
        ),
    ] {
        for o in 0..3 {
            assert_eq!(v[o].to_bits(), want[o].to_bits(), "{mode}: primal {o}");
            let g = fd_gradient(&|q: &[f64]| plain(q)[o], &q);
            for j in 0..3 {
                assert_close(jac[(o, j)], g[j], 1e-6, &format!("{mode}: d e{o}/d q{j}"));
            }
        }
    }
}

#[test]
fn gmm() {
    let mu = [0.1, 0.2, -0.5, 0.9, 1.3, -0.4];
    let lw = [0.2, -0.3, 0.5];
    check_widths!(
        bind(gmm_point {}, (Wrt, &lw[..], -0.2, 0.35, 0.1)),
        |m: &[f64]| gmm_point(m, &lw, -0.2, 0.35, 0.1),
        mu
    );
    check_widths!(
        bind(gmm_point {}, (&mu[..], Wrt, Var(3), 0.35, 0.1)),
        |p: &[f64]| gmm_point(&mu, &p[..3], p[3], 0.35, 0.1),
        [0.2, -0.3, 0.5, -0.2]
    );
}

#[test]
fn twice() {
    let x = [0.5, 1.2, 0.9, 1.7];
    check_widths!(
        bind(twice_read {}, (Wrt, 0.8)),
        |x: &[f64]| twice_read(x, 0.8),
        x
    );
}
