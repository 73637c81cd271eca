//! One function per row of the README's table "what you can write in a differentiated
//! function" (`docs/README-draft.md`), written as a user would, each checked by
//! `fwdad::testing::test_frule` (central finite differences, bit-identical primal, and the
//! arguments left as the function leaves them), and the README's own example against its
//! derivatives written out by hand.
// Numeric code is written index-style on purpose, and `let ref` appears: it is what users
// bring to the macro.
#![allow(clippy::needless_range_loop, clippy::toplevel_ref_arg)]

use fwdad::prelude::*;
use fwdad::testing::test_frule;
use num_traits::Float;

/// Checks the rule of `f(x: &[f64]) -> f64` at `x` against finite differences.
macro_rules! check_slice_fn {
    ($f:ident, $x:expr) => {
        test_frule(
            (Vec::from($x),),
            |a| $f(&a.0),
            |a, da| <$f as Frule<_, f64>>::frule(&$f {}, (Dual::new(&a.0[..], &da.0[..]),)),
        )
    };
}

const X: [f64; 4] = [0.7, 1.3, -0.4, 2.1];

// --- arithmetic and float methods -------------------------------------------------------

#[derive_frule]
fn lennard_jones_like(x: &[f64]) -> f64 {
    let (a, b) = (x[0], x[1]);
    a * b + a.sin().powi(2) - (b / a).exp() + a.hypot(b) + a.max(b) + b.ln_1p() * a.cbrt()
}

#[test]
fn arithmetic_and_float_methods() {
    check_slice_fn!(lennard_jones_like, X);
}

// --- casts and conversions --------------------------------------------------------------

#[derive_frule]
fn mean_scaled(x: &[f64]) -> f64 {
    let n = x.len();
    let k: u32 = 3;
    let mut s = 0.0;
    for i in 0..n {
        s += x[i] * (i as f64 + 1.0);
    }
    s / n as f64 + f64::from(k) * x[1]
}

#[test]
fn casts_and_conversions() {
    check_slice_fn!(mean_scaled, X);
}

// --- slices, arrays, indexing -----------------------------------------------------------

#[derive_frule]
fn triple_product(x: &[f64]) -> f64 {
    let tail = &x[1..3];
    let p = [x[0], tail[0], tail[1]];
    let [a, b, c] = p;
    let last = *x.last().unwrap();
    a * b * c + tail.iter().sum::<f64>() * last + x[1..].iter().map(|v| v * v).sum::<f64>()
}

/// A planar pose destructured by value, and a point scaled through `&mut` by its parts.
#[derive_frule]
fn pose_step(x: &[f64]) -> f64 {
    let pose = [x[0], x[1], x[2]];
    let [px, py, theta] = pose;
    let mut p = [px, py];
    scale_first(&mut p, theta.cos());
    p[0] * p[1] + theta
}

#[derive_frule]
fn scale_first(p: &mut [f64; 2], k: f64) {
    let [a, b] = p;
    *a *= k;
    *b += *a;
}

#[test]
fn slices_arrays_and_indexing() {
    check_slice_fn!(triple_product, X);
    check_slice_fn!(pose_step, X);
}

// --- writes through `&mut` --------------------------------------------------------------

#[derive_frule]
fn square_into(x: &[f64], out: &mut [f64]) {
    for i in 0..x.len() {
        out[i] = 2.0 * x[i] * x[i];
    }
}

#[derive_frule]
fn accumulate(x: &[f64], acc: &mut f64) {
    for v in x {
        *acc += v.exp();
    }
}

#[derive_frule]
fn through_buffers(x: &[f64]) -> f64 {
    let mut out = vec![0.0; x.len()];
    square_into(x, &mut out);
    let mut acc = 0.0;
    accumulate(x, &mut acc);
    out[0] + out[2] + acc
}

#[test]
fn writes_through_mut_references() {
    check_slice_fn!(through_buffers, X);
    // The output buffer itself receives its tangents.
    test_frule(
        (X.to_vec(), vec![0.0; 4]),
        |a| square_into(&a.0, &mut a.1),
        |a, da| {
            square_into_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(&mut a.1[..], &mut da.1[..]),
            )
        },
    );
}

// --- Vec ----------------------------------------------------------------------------------

#[derive_frule]
fn reversed_squares(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for t in x {
        v.push(t * t);
    }
    v.reverse();
    v.swap(0, 1);
    let mut w = v.to_vec();
    if let Some(first) = w.get_mut(0) {
        *first *= 3.0;
    }
    let (left, right) = w.split_at_mut(2);
    left[1] += right[0];
    for pair in w.chunks_mut(2) {
        pair[1] *= pair[0];
    }
    w[0] + 3.0 * w[1] + w[3]
}

#[test]
fn vec_methods() {
    check_slice_fn!(reversed_squares, X);
}

// --- maps holding floats ------------------------------------------------------------------

#[derive_frule]
fn linear_by_name(params: &std::collections::HashMap<String, f64>, x: f64) -> f64 {
    params["w"] * x + params["b"]
}

#[derive_frule]
fn binned(x: &[f64]) -> f64 {
    use std::collections::{BTreeMap, HashMap};
    let mut hist: BTreeMap<i64, f64> = BTreeMap::new();
    for &xi in x {
        let b = xi.floor() as i64;
        *hist.entry(b).or_insert(0.0) += xi * xi;
    }
    let mut weights: HashMap<(usize, usize), f64> = HashMap::new();
    weights.insert((0, 1), x[0] * x[1]);
    weights.insert((1, 2), x[2].exp());
    let mut e = 0.0;
    for (&(i, j), &w) in &weights {
        e += w * (i + j) as f64;
    }
    let mut params: HashMap<String, f64> = HashMap::new();
    params.insert("w".to_string(), x[3]);
    params.insert("b".to_string(), x[0]);
    let a: HashMap<usize, f64> = [(0, 1.5), (3, -0.5)].into_iter().collect();
    let dot = a.iter().map(|(&i, &v)| v * x[i]).sum::<f64>();
    e + hist.values().sum::<f64>() + linear_by_name(&params, x[1]) + dot
}

#[test]
fn maps_holding_floats() {
    check_slice_fn!(binned, X);
}

// --- control flow -------------------------------------------------------------------------

#[derive_frule]
fn piecewise_work(x: &[f64]) -> f64 {
    let mut s = 0.0;
    'outer: for i in 0..x.len() {
        let k = match i {
            0 => 1.0,
            1..=2 => 2.0,
            _ => 3.0,
        };
        if x[i] > 10.0 {
            break 'outer;
        } else if x[i] < -10.0 {
            continue;
        }
        let mut j = 0;
        while j < 3 {
            s += k * x[i] * j as f64;
            j += 1;
        }
    }
    // √|s| by Newton's iteration, until it stops moving.
    let mut r = 1.0 + s.abs();
    let m = loop {
        let next = 0.5 * (r + s.abs() / r);
        if (next - r).abs() < 1e-14 * next {
            break next;
        }
        r = next;
    };
    let Some(second) = x.get(1) else {
        return m;
    };
    if let Some(v) = x.first() {
        m * second + v
    } else {
        m
    }
}

/// Slice patterns, `ref` bindings and `..` in a tuple.
#[derive_frule]
fn by_shape(x: &[f64]) -> f64 {
    let head = match x {
        [a, b] => a * b,
        [first, rest @ ..] => first * rest.iter().sum::<f64>(),
        [] => 0.0,
    };
    let (first, .., last) = (x[0], x[1], x[2]);
    let ref m = head * last;
    m * first
}

#[test]
fn control_flow() {
    check_slice_fn!(piecewise_work, X);
    check_slice_fn!(by_shape, X);
}

// --- `for` loops over slices with adaptors --------------------------------------------

#[derive_frule]
fn correlations(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, (a, b)) in x.iter().zip(x.iter().rev()).enumerate() {
        s += i as f64 * a * b;
    }
    for w in x.windows(2) {
        s += w[0] * w[1];
    }
    for c in x.chunks(2) {
        s += c[0];
    }
    for v in x.iter().skip(1).step_by(2) {
        s += v * v;
    }
    s
}

#[test]
fn for_loops_with_adaptors() {
    check_slice_fn!(correlations, X);
}

// --- closures and iterator chains -------------------------------------------------------

#[derive_frule]
fn statistics(x: &[f64]) -> f64 {
    let sum_sq: f64 = x.iter().map(|v| v * v).sum();
    let positive = x.iter().filter(|v| **v > 0.0).count() as f64;
    let product = x.iter().fold(1.0, |acc, v| acc * v);
    let largest = x.iter().copied().max_by(|a, b| a.total_cmp(b)).unwrap();
    let exps: Vec<f64> = x.iter().map(|v| v.exp()).collect();
    let soft = |v: f64| (1.0 + v.exp()).ln();
    sum_sq * positive + product + largest + exps[0] + soft(x[1])
}

#[test]
fn closures_and_iterator_chains() {
    check_slice_fn!(statistics, X);
}

// --- `Option` and `Result` ---------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ModelError {
    Domain,
    NoBrakes,
}

#[derive_frule]
fn checked_ln_beta(a: f64, b: f64) -> Result<f64, ModelError> {
    if a <= 0.0 || b <= 0.0 {
        Err(ModelError::Domain)
    } else {
        Ok(a.ln() + b.ln() - (a + b).ln())
    }
}

#[derive_frule]
fn fall_time(h: f64, g: f64) -> Option<f64> {
    if h >= 0.0 {
        Some((2.0 * h / g).sqrt())
    } else {
        None
    }
}

#[derive_frule]
fn brake(e: f64, f: f64) -> Result<f64, ModelError> {
    if f > 0.0 {
        Ok(e / f)
    } else {
        Err(ModelError::NoBrakes)
    }
}

#[derive_frule]
fn stop(h: f64, g: f64, f: f64) -> Result<f64, ModelError> {
    let t = fall_time(h, g).ok_or(ModelError::Domain)?;
    brake(t * g, f).map(|s| s * s)
}

#[derive_frule]
fn fallible_chain(x: &[f64]) -> f64 {
    let beta = checked_ln_beta(x[1], x[3]).map(|l| l.exp());
    let s = stop(x[3], 9.81, x[1]).unwrap_or_else(|_e| x[0]);
    beta.map_or(0.0, |b| b * x[0]) + s + stop(x[2], 9.81, 1.0).is_ok_and(|s| s > 1.0) as i32 as f64
}

#[test]
fn option_and_result_combinators() {
    check_slice_fn!(fallible_chain, X);
}

// --- structs and methods ----------------------------------------------------------------

#[derive(Clone, Copy, Debug, Differentiable)]
struct Spring {
    k: f64,
    turns: usize,
}

#[derive_frule]
impl Spring {
    fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x * self.turns as f64
    }

    fn stiffen(&mut self, by: f64) {
        self.k *= by;
    }
}

#[derive(Clone, Copy, Debug, Differentiable)]
struct Vec2(f64, f64);

#[derive_frule]
fn two_springs(x: &[f64]) -> f64 {
    let mut s = Spring { k: x[0], turns: 2 };
    s.stiffen(x[1]);
    let t = Spring { k: 2.0, ..s };
    let d = Vec2(x[2], x[3]);
    s.energy(d.0) + t.energy(x[0]) + d.1 * d.0
}

#[test]
fn structs_and_methods() {
    check_slice_fn!(two_springs, X);
}

// --- generic floats -----------------------------------------------------------------------

#[derive_frule]
fn soft_clip<T: Float>(x: T, k: T) -> T {
    (x * k).tanh() / k + T::sqrt(x * x + k)
}

#[derive_frule]
fn clipped(x: &[f64]) -> f64 {
    soft_clip(x[0], x[1])
}

#[test]
fn generic_floats() {
    check_slice_fn!(clipped, X);
}

// --- calls, nested functions, `std::mem` ----------------------------------------------

#[derive_frule]
fn swapped_product(x: &[f64]) -> f64 {
    fn sq(v: f64) -> f64 {
        v * v
    }
    let mut a = x[0];
    let mut b = x[1];
    std::mem::swap(&mut a, &mut b);
    let c = std::mem::replace(&mut a, 3.0);
    a * b * c + sq(x[2])
}

#[test]
fn calls_nested_fns_and_mem() {
    check_slice_fn!(swapped_product, X);
}

// --- returned references and macros -----------------------------------------------------

#[derive_frule]
fn nearest(x: &[f64], target: f64) -> &f64 {
    let mut k = 0;
    for i in 0..x.len() {
        if (x[i] - target).abs() < (x[k] - target).abs() {
            k = i;
        }
    }
    &x[k]
}

#[derive_frule]
fn nearest_squared(x: &[f64]) -> f64 {
    assert!(x.len() >= 2, "need two points");
    let r = nearest(x, 1.2);
    if matches!(x.len(), 2..=4) {
        r * r
    } else {
        0.0
    }
}

#[test]
fn returned_references_and_macros() {
    check_slice_fn!(nearest_squared, X);
}

// --- constant data ------------------------------------------------------------------------

#[derive_frule(inactive(data))]
fn least_squares(theta: &[f64], data: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, d) in data.iter().enumerate() {
        s += (theta[0] * i as f64 + theta[1] - d).powi(2);
    }
    s
}

#[test]
fn inactive_constant_data() {
    let data = [1.0, 2.5, 2.9];
    let (_, g) = gradient(
        bind(least_squares {}, (Wrt, Inactive(&data[..]))),
        &[0.5, 0.2],
    );
    // ∂/∂θ₀ = Σ 2 rᵢ i, ∂/∂θ₁ = Σ 2 rᵢ with rᵢ = θ₀ i + θ₁ - dᵢ.
    let r: Vec<f64> = (0..3).map(|i| 0.5 * i as f64 + 0.2 - data[i]).collect();
    let want = [
        (0..3).map(|i| 2.0 * r[i] * i as f64).sum::<f64>(),
        (0..3).map(|i| 2.0 * r[i]).sum::<f64>(),
    ];
    for j in 0..2 {
        assert!((g[j] - want[j]).abs() < 1e-12, "{g:?} against {want:?}");
    }
}

// --- the README's example -----------------------------------------------------------------

#[derive_frule]
fn energy(x: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i];
        e += 0.5 * k * d * d + x[i].sin();
    }
    e
}

#[test]
fn readme_example() {
    let x = [0.5, 1.0, 2.0];
    let k = 3.0;
    let (e, grad) = gradient(bind(energy {}, (Wrt, 3.0)), &x);
    let (_, _, hess) = hessian(bind(energy {}, (Wrt, 3.0)), &x);
    assert_eq!(e, energy(&x, k));
    // E = k/2 Σ (x_{i+1} - x_i)² + sin x₀ + sin x₁.
    let want_grad = [
        -k * (x[1] - x[0]) + x[0].cos(),
        k * (x[1] - x[0]) - k * (x[2] - x[1]) + x[1].cos(),
        k * (x[2] - x[1]),
    ];
    let want_hess = [
        [k - x[0].sin(), -k, 0.0],
        [-k, 2.0 * k - x[1].sin(), -k],
        [0.0, -k, k],
    ];
    for i in 0..3 {
        assert!((grad[i] - want_grad[i]).abs() < 1e-12, "{grad:?}");
        for j in 0..3 {
            assert!((hess[(i, j)] - want_hess[i][j]).abs() < 1e-12, "{hess}");
        }
    }
}
