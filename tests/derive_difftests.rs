//! DiffTests.jl's categories, ported to Rust and checked with `test_frule` (finite
//! differences, primal state of every argument, bit-identical outputs, batch width 4), plus
//! the IR edge cases Mooncake tests: merges at every kind of join, early returns,
//! break/continue, unused values, integer-only functions, loops that never run.

// Numeric code is written index-style on purpose: it is what users bring to the macro. The
// IR edge cases are written the way they test the lowering (`y = y * c` is an assignment,
// not a compound one; `0..0` is a loop that never runs), so clippy's style lints are off.
#![allow(
    clippy::needless_range_loop,
    clippy::assign_op_pattern,
    clippy::reversed_empty_ranges,
    clippy::useless_vec
)]

use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};

// ---- scalar → scalar ----------------------------------------------------------------

#[derive_frule]
fn num2num_1(x: f64) -> f64 {
    x.sin() * x.cos() + x.exp() / (1.0 + x * x)
}

#[derive_frule]
fn num2num_2(x: f64) -> f64 {
    let mut y = x;
    for k in 1..6 {
        y = (y * y + x / (k as f64)).sqrt();
    }
    y.tanh() + x.atan2(2.0) - x.powf(1.5).ln_1p()
}

#[derive_frule]
fn num2num_piecewise(x: f64) -> f64 {
    if x < -1.0 {
        -x * x
    } else if x < 1.0 {
        x.powi(3)
    } else {
        x.ln() + 1.0
    }
}

// ---- scalar → vector ----------------------------------------------------------------

#[derive_frule]
fn num2arr(x: f64) -> [f64; 3] {
    [x.sin(), x * x, (2.0 * x).exp()]
}

#[derive_frule]
fn num2vec(x: f64, n: usize) -> Vec<f64> {
    let mut v = Vec::new();
    let mut p = 1.0;
    for _ in 0..n {
        p *= x;
        v.push(p);
    }
    v
}

// ---- vector → scalar ----------------------------------------------------------------

#[derive_frule]
fn self_weighted_logit(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] / (1.0 + (-x[i] * x[(i + 1) % x.len()]).exp());
    }
    s
}

#[derive_frule]
fn nested_sum_product(x: &[f64]) -> f64 {
    let mut total = 0.0;
    for i in 0..x.len() {
        let mut prod = 1.0;
        for j in 0..=i {
            prod *= 1.0 + 0.1 * x[j];
        }
        total += prod;
    }
    total
}

/// Matrix → scalar: tr(A·A) + det of the leading 2×2 block, A row-major n×n.
#[derive_frule]
fn mat2num(a: &[f64], n: usize) -> f64 {
    let mut tr = 0.0;
    for i in 0..n {
        for k in 0..n {
            tr += a[i * n + k] * a[k * n + i];
        }
    }
    tr + a[0] * a[n + 1] - a[1] * a[n]
}

// ---- vector → vector ----------------------------------------------------------------

#[derive_frule]
fn softmax(x: &[f64]) -> Vec<f64> {
    let mut m = x[0];
    for v in x.iter() {
        m = m.max(*v);
    }
    let mut e = vec![0.0; x.len()];
    let mut z = 0.0;
    for i in 0..x.len() {
        e[i] = (x[i] - m).exp();
        z += e[i];
    }
    for v in e.iter_mut() {
        *v /= z;
    }
    e
}

#[derive_frule]
fn cumprod(x: &[f64]) -> Vec<f64> {
    let mut out = x.to_vec();
    for i in 1..out.len() {
        out[i] = out[i - 1] * out[i];
    }
    out
}

/// In place: y ← A·x (A row-major n×n) then y ← tanh(y).
#[derive_frule]
fn matvec_tanh_inplace(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..n {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s.tanh();
    }
}

// ---- IR edge cases ------------------------------------------------------------------

/// An integer-only function: nothing is active, the rule is plain Rust.
#[derive_frule]
fn int_only(n: usize, k: u32) -> usize {
    let mut s = 0;
    for i in 0..n {
        s += i * (k as usize);
    }
    s
}

/// Loops that never run, a `while` that runs zero times, unused values.
#[derive_frule]
fn never_runs(x: f64) -> f64 {
    let unused = x.sin() * 3.0;
    let _also_unused = unused + 1.0;
    let mut y = x;
    for _ in 0..0 {
        y = y * 100.0;
    }
    while y > 1e300 {
        y = y * 0.5;
    }
    y * 2.0
}

/// Merges at an `if`, a `match`, a `loop` break and a `while`, with swaps.
#[derive_frule]
fn all_joins(x: f64, y: f64, mode: u8) -> (f64, f64) {
    let (mut a, mut b) = (x, y);
    if a < b {
        (a, b) = (b, a);
    }
    let c = match mode {
        0 => a,
        1 => b * 2.0,
        _ => 1.0,
    };
    let mut k = 0;
    let d = loop {
        k += 1;
        if k > 3 {
            break c + a;
        }
        if k == 2 {
            continue;
        }
        std::mem::swap(&mut a, &mut b);
    };
    let mut e = d;
    while e > 10.0 {
        e = e / 3.0;
    }
    (e, a * b)
}

/// Early return from inside nested loops.
#[derive_frule]
fn first_over(x: &[f64], t: f64) -> f64 {
    for i in 0..x.len() {
        for j in 0..3 {
            if x[i] * (j as f64) > t {
                return x[i] * t;
            }
        }
    }
    -t
}

// ---- tests --------------------------------------------------------------------------

#[test]
fn scalar_to_scalar() {
    for x in [0.3, 1.7, -2.2] {
        test_frule(
            (x,),
            |a| num2num_1(a.0),
            |a, da| num2num_1_frule(Dual::new(a.0, da.0)),
        );
        test_frule(
            (x,),
            |a| num2num_piecewise(a.0),
            |a, da| num2num_piecewise_frule(Dual::new(a.0, da.0)),
        );
    }
    for x in [0.3, 1.7] {
        test_frule(
            (x,),
            |a| num2num_2(a.0),
            |a, da| num2num_2_frule(Dual::new(a.0, da.0)),
        );
    }
    // Analytic check of one branch: d/dx x³ = 3x².
    assert_eq!(
        num2num_piecewise_frule(Dual::new(0.5, 1.0)).tangent,
        3.0 * 0.25
    );
}

#[test]
fn scalar_to_vector() {
    test_frule(
        (0.7,),
        |a| num2arr(a.0),
        |a, da| num2arr_frule(Dual::new(a.0, da.0)),
    );
    let d = num2arr_frule(Dual::new(0.7, 1.0));
    assert_eq!(d.tangent, [0.7_f64.cos(), 1.4, 2.0 * 1.4_f64.exp()]);
    let n = 4;
    test_frule(
        (1.3,),
        |a| num2vec(a.0, n),
        |a, da| num2vec_frule(Dual::new(a.0, da.0), Dual::constant(n)),
    );
    let d = num2vec_frule(Dual::new(1.3, 1.0), Dual::constant(n));
    for (k, t) in d.tangent.iter().enumerate() {
        let p = (k + 1) as f64;
        approx::assert_relative_eq!(*t, p * 1.3_f64.powf(p - 1.0), max_relative = 1e-14);
    }
}

#[test]
fn vector_to_scalar() {
    let x = vec![0.4, -1.1, 0.9, 2.0, -0.3];
    test_frule(
        (x.clone(),),
        |a| self_weighted_logit(&a.0),
        |a, da| self_weighted_logit_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule(
        (x.clone(),),
        |a| nested_sum_product(&a.0),
        |a, da| nested_sum_product_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<4, _, _>(
        (x,),
        |a| nested_sum_product(&a.0),
        |a, da| {
            <nested_sum_product as Frule<_, Batch<f64, 4>>>::frule(
                &nested_sum_product {},
                (Dual::new(&a.0[..], &da.0[..]),),
            )
        },
    );
    let a = vec![1.0, 2.0, 0.5, -1.0, 0.25, 3.0, 2.0, -0.5, 1.5];
    test_frule(
        (a.clone(),),
        |m| mat2num(&m.0, 3),
        |m, dm| mat2num_frule(Dual::new(&m.0[..], &dm.0[..]), Dual::constant(3)),
    );
    // ∂/∂a₀₀ [tr(A²) + a₀₀a₁₁ − a₀₁a₁₀] = 2a₀₀ + a₁₁.
    let mut e = vec![0.0; 9];
    e[0] = 1.0;
    let d = mat2num_frule(Dual::new(&a[..], &e[..]), Dual::constant(3));
    assert_eq!(d.tangent, 2.0 * a[0] + a[4]);
}

#[test]
fn vector_to_vector() {
    let x = vec![0.2, -0.5, 1.5, 0.1];
    test_frule(
        (x.clone(),),
        |a| softmax(&a.0),
        |a, da| softmax_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule(
        (x.clone(),),
        |a| cumprod(&a.0),
        |a, da| cumprod_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    // ∂softmaxᵢ/∂xⱼ = sᵢ(δᵢⱼ − sⱼ).
    let s = softmax(&x);
    let e = [0.0, 1.0, 0.0, 0.0];
    let d = softmax_frule(Dual::new(&x[..], &e[..]));
    for i in 0..4 {
        let delta = if i == 1 { 1.0 } else { 0.0 };
        approx::assert_relative_eq!(
            d.tangent[i],
            s[i] * (delta - s[1]),
            max_relative = 1e-13,
            epsilon = 1e-16
        );
    }
}

#[test]
fn in_place_vector_to_vector() {
    let args = (vec![1.0, -0.5, 0.25, 2.0], vec![0.3, 0.6], vec![9.0, 9.0]);
    test_frule(
        args.clone(),
        |a| matvec_tanh_inplace(&a.0, &a.1, &mut a.2),
        |a, da| {
            matvec_tanh_inplace_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(&a.1[..], &da.1[..]),
                Dual::new(&mut a.2[..], &mut da.2[..]),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| matvec_tanh_inplace(&a.0, &a.1, &mut a.2),
        |a, da| {
            <matvec_tanh_inplace as Frule<_, Batch<f64, 4>>>::frule(
                &matvec_tanh_inplace {},
                (
                    Dual::new(&a.0[..], &da.0[..]),
                    Dual::new(&a.1[..], &da.1[..]),
                    Dual::new(&mut a.2[..], &mut da.2[..]),
                ),
            )
        },
    );
}

#[test]
fn integer_only_and_empty_loops() {
    let d = int_only_frule(Dual::constant(5), Dual::constant(3));
    assert_eq!(d.primal, int_only(5, 3));
    assert_eq!(d.tangent, NoTangent);
    test_frule(
        (1.5,),
        |a| never_runs(a.0),
        |a, da| never_runs_frule(Dual::new(a.0, da.0)),
    );
    assert_eq!(never_runs_frule(Dual::new(1.5, 1.0)).tangent, 2.0);
}

#[test]
fn merges_at_every_join() {
    for mode in [0u8, 1, 2] {
        for (x, y) in [(0.5, 1.5), (2.0, -1.0)] {
            test_frule(
                (x, y),
                |a| all_joins(a.0, a.1, mode),
                |a, da| {
                    all_joins_frule(
                        Dual::new(a.0, da.0),
                        Dual::new(a.1, da.1),
                        Dual::constant(mode),
                    )
                },
            );
        }
    }
}

#[test]
fn early_return_from_nested_loops() {
    for t in [0.5, 10.0] {
        test_frule(
            (vec![0.2, 0.4, 1.0], t),
            |a| first_over(&a.0, a.1),
            |a, da| first_over_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
        );
    }
}

/// `let y = x;` is a copy: mutating `x` in place afterwards must not change `y`.
#[derive_frule]
fn copy_then_mutate(x: f64, z: f64) -> f64 {
    let mut a = x;
    let mut b = z;
    let saved = a;
    std::mem::swap(&mut a, &mut b);
    let mut buf = [a, b];
    let first = buf;
    buf[0] = 10.0 * b;
    saved * 100.0 + a + first[0] * buf[0]
}

#[test]
fn bindings_copy_values() {
    assert_eq!(
        copy_then_mutate_frule(Dual::new(1.0, 0.0), Dual::new(2.0, 0.0)).primal,
        copy_then_mutate(1.0, 2.0)
    );
    test_frule(
        (1.0, 2.0),
        |a| copy_then_mutate(a.0, a.1),
        |a, da| copy_then_mutate_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
    );
}
