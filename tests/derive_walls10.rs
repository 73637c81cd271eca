//! Walls the thirteenth session's newcomers hit, in small programs written as they wrote
//! them, and the fuzzer's seed 124 (`p82`), reduced. Each failed to compile before its fix:
//! an array of function items (`[f64::sin, g, h]`) walked by a `for` loop; iterator cursors
//! `let mut it = xs.iter().step_by(2);` and `xs.iter().rev()` read by `next()`; itertools'
//! `tuple_windows()` after a `map`; `len()` and `remainder()` on a `chunks_exact` cursor;
//! `f_frule` called with a plain integer for an integer parameter (`Dual::constant(3)`
//! before). `lagged` (a `zip` with `skip(1)` after a `map`) and `mean_after_first` (`len()` of
//! a plain cursor) compiled before; they are kept as pins.
//! Derivatives against closed forms and central differences (single, batched, second
//! order), primals bit for bit against the plain functions.

#![allow(clippy::needless_range_loop, clippy::while_let_on_iterator)]

mod common;

use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;
use itertools::Itertools;

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

// ---------------------------------------------------------------------------------------
// Fuzz seed 124, `p82`, reduced: a user method's result (a type the macro does not see)
// held in an array, an element of it plus a float literal (an operator on an unknown type,
// the literal left untyped), then a float method in a linearised chain: rustc could not
// type the method's receiver where it was written (E0282 at the attribute).

#[derive(Clone, Copy, Debug, Differentiable)]
pub struct Spring {
    pub k: f64,
}

#[derive_frule]
impl Spring {
    pub fn stiffness(&self) -> f64 {
        self.k.abs()
    }
}

/// Two gains, one a model's, softened through a logarithm.
#[derive_frule]
fn softened_gain(x: &[f64]) -> f64 {
    let s = Spring { k: x[1] };
    let gains = [s.stiffness(), x[0]];
    (gains[1] * gains[1] + 1.0).ln() * x[0] + gains[0]
}

/// The same through `sqrt`, the model's stiffness scaled from the inputs.
#[derive_frule]
fn rooted_gain(x: &[f64]) -> f64 {
    let s = Spring {
        k: x[1].abs() / (x[1] * x[1] + 1.0),
    };
    let gains = [s.stiffness(), x[0]];
    (gains[1] + 1.0).sqrt() * x[0] + gains[0] * x[1]
}

#[test]
fn fuzz_seed_124_user_method_result_in_an_array_then_a_float_method() {
    let x = [0.7, -1.3];
    // ln(x0² + 1)·x0 + |x1|.
    let (v, gr) = gradient(softened_gain {}, &x);
    assert_eq!(v.to_bits(), softened_gain(&x).to_bits());
    let q = x[0] * x[0] + 1.0;
    assert_close(gr[0], q.ln() + 2.0 * x[0] * x[0] / q, 1e-14, "d/dx0");
    assert_close(gr[1], -1.0, 1e-15, "d/dx1");
    crate::check_modes!(softened_gain {}, softened_gain, x);
    // √(x0 + 1)·x0 + x1·|x1|/(x1² + 1).
    let x = [0.7, 1.3];
    let (v, gr) = gradient(rooted_gain {}, &x);
    assert_eq!(v.to_bits(), rooted_gain(&x).to_bits());
    let r = (x[0] + 1.0).sqrt();
    assert_close(gr[0], r + x[0] / (2.0 * r), 1e-14, "d/dx0");
    let d = x[1] * x[1] + 1.0;
    // d/dx1 of x1²/(x1² + 1) for x1 > 0: 2 x1 / (x1² + 1)².
    assert_close(gr[1], 2.0 * x[1] / (d * d), 1e-14, "d/dx1");
    crate::check_modes!(rooted_gain {}, rooted_gain, x);
}

// ---------------------------------------------------------------------------------------
// An array of function items called in a loop: a feature map `Σ f_k(x)`, and weighted.

#[derive_frule]
fn g(t: f64) -> f64 {
    t * t
}

#[derive_frule]
fn h(t: f64) -> f64 {
    (0.5 * t).exp()
}

#[derive_frule]
fn features(x: f64) -> f64 {
    let fs: [fn(f64) -> f64; 3] = [f64::sin, g, h];
    let mut s = 0.0;
    for f in fs {
        s += f(x);
    }
    s
}

#[derive_frule]
fn weighted(x: f64, ws: &[f64]) -> f64 {
    let fs: [fn(f64) -> f64; 3] = [f64::sin, g, h];
    let mut s = 0.0;
    for (f, w) in fs.iter().zip(ws) {
        s += w * f(x);
    }
    s
}

#[test]
fn array_of_function_items_in_a_loop() {
    for x in [0.3, -1.2, 2.0] {
        let (v, d) = derivative(features {}, x);
        assert_eq!(v.to_bits(), features(x).to_bits());
        assert_close(
            d,
            x.cos() + 2.0 * x + 0.5 * (0.5 * x).exp(),
            1e-12,
            "d features",
        );
        let (v2, d1, d2) = fwdad::second_derivative(features {}, x);
        assert_eq!(v2.to_bits(), features(x).to_bits());
        assert_close(d1, d, 1e-15, "d features, second order");
        assert_close(
            d2,
            -x.sin() + 2.0 + 0.25 * (0.5 * x).exp(),
            1e-12,
            "d² features",
        );
    }
    let ws = [0.7, -1.5, 0.25];
    let x = 0.9;
    // ∂/∂w_k = f_k(x), ∂/∂x = Σ w_k f_k'(x).
    let (v, gw) = gradient(bind(weighted {}, (x, Wrt)), &ws);
    assert_eq!(v.to_bits(), weighted(x, &ws).to_bits());
    let fk = [x.sin(), x * x, (0.5 * x).exp()];
    for k in 0..3 {
        assert_close(gw[k], fk[k], 1e-15, "d/dw");
    }
    let (_, dx) = derivative(bind(weighted {}, (Wrt, &ws[..])), x);
    let want = ws[0] * x.cos() + ws[1] * 2.0 * x + ws[2] * 0.5 * (0.5 * x).exp();
    assert_close(dx, want, 1e-12, "d/dx");
    crate::check_modes!(bind(weighted {}, (x, Wrt)), |w: &[f64]| weighted(x, w), ws);
}

// ---------------------------------------------------------------------------------------
// Iterator cursors other than `chunks`/`windows`: `step_by` and `rev` held in a `let mut`.

/// Products of the even-indexed samples, the first two taken by hand, the rest summed.
#[derive_frule]
fn even_samples(xs: &[f64]) -> f64 {
    let mut it = xs.iter().step_by(2);
    let a = it.next().unwrap();
    let b = it.next().unwrap();
    let mut rest = 0.0;
    for v in it {
        rest += v.sin();
    }
    a * b + rest
}

/// The newest two readings of a log, newest first, and the older ones' sum.
#[derive_frule]
fn newest_first(xs: &[f64]) -> f64 {
    let mut it = xs.iter().rev();
    let last = *it.next().unwrap();
    let prev = *it.next().unwrap();
    let older: f64 = it.map(|v| v * v).sum();
    last * last - 2.0 * prev + 0.5 * older
}

#[test]
fn step_by_and_rev_cursors() {
    let xs = [0.4, 1.3, -0.7, 2.1, 0.9, -1.1, 0.6];
    // a·b + Σ sin over the even places from 4 on: x0·x2 + sin x4 + sin x6.
    let (v, gr) = gradient(even_samples {}, &xs);
    assert_eq!(v.to_bits(), even_samples(&xs).to_bits());
    let want = [xs[2], 0.0, xs[0], 0.0, xs[4].cos(), 0.0, xs[6].cos()];
    for k in 0..xs.len() {
        assert_close(gr[k], want[k], 1e-15, &format!("even d/dx{k}"));
    }
    crate::check_modes!(even_samples {}, even_samples, xs);
    // x6² − 2 x5 + ½ Σ_{k<5} x_k².
    let (v, gr) = gradient(newest_first {}, &xs);
    assert_eq!(v.to_bits(), newest_first(&xs).to_bits());
    for k in 0..xs.len() {
        let want = match k {
            6 => 2.0 * xs[6],
            5 => -2.0,
            _ => xs[k],
        };
        assert_close(gr[k], want, 1e-15, &format!("rev d/dx{k}"));
    }
    crate::check_modes!(newest_first {}, newest_first, xs);
}

// ---------------------------------------------------------------------------------------
// itertools' `tuple_windows()` after a `map`, and a `zip` with `skip(1)` after a `map`.

/// Total variation of the squared signal, squared steps.
#[derive_frule]
fn squared_steps(xs: &[f64]) -> f64 {
    xs.iter()
        .map(|v| v * v)
        .tuple_windows()
        .map(|(a, b)| (b - a) * (b - a))
        .sum()
}

/// A lag-one product of a transformed signal with the raw one.
#[derive_frule]
fn lagged(xs: &[f64]) -> f64 {
    xs.iter()
        .map(|v| v.sin())
        .zip(xs.iter().skip(1))
        .map(|(a, b)| a * b)
        .sum::<f64>()
}

#[test]
fn tuple_windows_and_lagged_zip_after_a_map() {
    let xs = [0.4, 1.3, -0.7, 2.1, 0.9];
    let n = xs.len();
    // Σ (x_{k+1}² − x_k²)²: ∂/∂x_j = 4 x_j [(x_j² − x_{j−1}²) − (x_{j+1}² − x_j²)].
    let (v, gr) = gradient(squared_steps {}, &xs);
    assert_eq!(v.to_bits(), squared_steps(&xs).to_bits());
    for j in 0..n {
        let left = if j > 0 {
            xs[j] * xs[j] - xs[j - 1] * xs[j - 1]
        } else {
            0.0
        };
        let right = if j + 1 < n {
            xs[j + 1] * xs[j + 1] - xs[j] * xs[j]
        } else {
            0.0
        };
        assert_close(
            gr[j],
            4.0 * xs[j] * (left - right),
            1e-13,
            &format!("tv d/dx{j}"),
        );
    }
    crate::check_modes!(squared_steps {}, squared_steps, xs);
    // Σ sin(x_k) x_{k+1}: ∂/∂x_j = cos(x_j) x_{j+1} + sin(x_{j−1}).
    let (v, gr) = gradient(lagged {}, &xs);
    assert_eq!(v.to_bits(), lagged(&xs).to_bits());
    for j in 0..n {
        let mut want = 0.0;
        if j + 1 < n {
            want += xs[j].cos() * xs[j + 1];
        }
        if j > 0 {
            want += xs[j - 1].sin();
        }
        assert_close(gr[j], want, 1e-14, &format!("lag d/dx{j}"));
    }
    crate::check_modes!(lagged {}, lagged, xs);
}

// ---------------------------------------------------------------------------------------
// `len()` and `remainder()` on a `chunks_exact` cursor: frames of a signal, the tail apart.

#[derive_frule]
fn frame_energy(xs: &[f64]) -> f64 {
    let mut frames = xs.chunks_exact(2);
    let n = frames.len();
    let mut s = 0.0;
    while let Some(c) = frames.next() {
        s += c[0] * c[1];
    }
    let tail: f64 = frames.remainder().iter().sum();
    s / n as f64 + tail
}

/// Samples left after the first one taken by hand, by `len()` on the cursor.
#[derive_frule]
fn mean_after_first(xs: &[f64]) -> f64 {
    let mut it = xs.iter();
    let first = it.next().unwrap();
    let left = it.len();
    let mut s = 0.0;
    for v in it {
        s += v - first;
    }
    s / left as f64
}

#[test]
fn len_and_remainder_of_cursors() {
    let xs = [0.4, 1.3, -0.7, 2.1, 0.9, -1.1, 0.6];
    // (x0 x1 + x2 x3 + x4 x5) / 3 + x6.
    let (v, gr) = gradient(frame_energy {}, &xs);
    assert_eq!(v.to_bits(), frame_energy(&xs).to_bits());
    let want = [
        xs[1] / 3.0,
        xs[0] / 3.0,
        xs[3] / 3.0,
        xs[2] / 3.0,
        xs[5] / 3.0,
        xs[4] / 3.0,
        1.0,
    ];
    for k in 0..xs.len() {
        assert_close(gr[k], want[k], 1e-15, &format!("frames d/dx{k}"));
    }
    crate::check_modes!(frame_energy {}, frame_energy, xs);
    // Σ_{k≥1} (x_k − x0) / 6: ∂/∂x0 = −1, ∂/∂x_k = 1/6.
    let (v, gr) = gradient(mean_after_first {}, &xs);
    assert_eq!(v.to_bits(), mean_after_first(&xs).to_bits());
    for k in 0..xs.len() {
        let want = if k == 0 { -1.0 } else { 1.0 / 6.0 };
        assert_close(gr[k], want, 1e-15, &format!("mean d/dx{k}"));
    }
}

// ---------------------------------------------------------------------------------------
// `f_frule` called with a plain integer for an integer parameter, as users write it.

/// A truncated exponential series, `Σ_{k<n} x^k / k!`.
#[derive_frule]
fn exp_series(x: f64, n: usize) -> f64 {
    let mut term = 1.0;
    let mut s = 0.0;
    for k in 0..n {
        s += term;
        term *= x / (k + 1) as f64;
    }
    s
}

#[derive_frule]
fn powered(x: f64, n: i32) -> f64 {
    x.powi(n) / n as f64
}

#[test]
fn frule_entry_takes_plain_integers() {
    let x = 0.6;
    // d/dx x³/3 = x².
    let r = powered_frule(Dual::new(x, 1.0), 3);
    assert_eq!(r.primal.to_bits(), powered(x, 3).to_bits());
    assert_close(r.tangent, x * x, 1e-15, "d/dx x^3/3");
    // The same through `Dual::constant`, as before.
    let c = powered_frule(Dual::new(x, 1.0), Dual::constant(3));
    assert_eq!(c.primal.to_bits(), r.primal.to_bits());
    assert_eq!(c.tangent.to_bits(), r.tangent.to_bits());
    // A typed integer, and a `usize` literal: d/dx Σ_{k<n} x^k/k! = Σ_{k<n-1} x^k/k!.
    let n: usize = 6;
    let r = exp_series_frule(Dual::new(x, 1.0), n);
    assert_eq!(r.primal.to_bits(), exp_series(x, n).to_bits());
    assert_close(r.tangent, exp_series(x, n - 1), 1e-15, "d/dx series");
    let r = exp_series_frule(Dual::new(x, 1.0), 4);
    assert_close(
        r.tangent,
        1.0 + x + x * x / 2.0,
        1e-15,
        "d/dx series, literal",
    );
}
