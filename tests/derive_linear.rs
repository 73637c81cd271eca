//! Linearised chains (`linear` pass): first-order modes compute a chain's tangent as one
//! combination of its roots' tangents; second order keeps the line-by-line rule. Each case
//! is checked against a derivative written by hand from the math, in one direction, in a
//! batch, and (for the Hessian) in `Hyper` mode, and through `test_frule`.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use fwdad::drivers::{gradient, hessian};
use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};

/// Every kind of chain member: a re-read element, unit-partial sums, a smooth method, a
/// value used twice in the chain, values that leave it (a non-smooth method, a branch),
/// a loop-carried root and an active scalar parameter.
#[derive_frule]
fn chain(x: &[f64], c: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = (1.0 - x[i]).sin();
        let w = c * t / u;
        let z = w.max(0.5);
        if z > 1.0 {
            s += w;
        }
        s += 100.0 * t * t + u * u - z;
    }
    s
}

/// ∂chain/∂(x, c), by hand.
fn chain_grad(x: &[f64], c: f64) -> (Vec<f64>, f64) {
    let n = x.len();
    let mut g = vec![0.0; n];
    let mut gc = 0.0;
    for i in 0..n - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let (dt_i, dt_next) = (-2.0 * x[i], 1.0);
        let u = (1.0 - x[i]).sin();
        let du_i = -(1.0 - x[i]).cos();
        let w = c * t / u;
        // ∂w: c·t/u
        let dw_i = c * (dt_i * u - t * du_i) / (u * u);
        let dw_next = c * dt_next / u;
        let dw_c = t / u;
        let (z_is_w, z) = if w > 0.5 { (true, w) } else { (false, 0.5) };
        let branch = if z > 1.0 { 1.0 } else { 0.0 };
        let dz = if z_is_w { 1.0 } else { 0.0 };
        let k = branch - dz;
        g[i] += k * dw_i + 200.0 * t * dt_i + 2.0 * u * du_i;
        g[i + 1] += k * dw_next + 200.0 * t * dt_next;
        gc += k * dw_c;
    }
    (g, gc)
}

fn points() -> Vec<(Vec<f64>, f64)> {
    vec![
        (vec![0.3, -0.7, 1.2, 0.4], 2.5),
        (vec![-1.1, 0.2, 0.9], 0.25),
        (vec![0.05, 0.6, -0.4, 1.7, -0.2], -3.0),
    ]
}

#[test]
fn chain_matches_the_hand_gradient_in_every_first_order_mode() {
    for (x, c) in points() {
        let (g, gc) = chain_grad(&x, c);
        let n = x.len();
        // One direction per input.
        for j in 0..=n {
            let mut dx = vec![0.0; n];
            let dc = if j == n { 1.0 } else { 0.0 };
            if j < n {
                dx[j] = 1.0;
            }
            let out = chain_frule(Dual::new(&x, &dx), Dual::new(c, dc));
            assert_eq!(out.primal.to_bits(), chain(&x, c).to_bits());
            let want = if j == n { gc } else { g[j] };
            assert_relative_eq!(out.tangent, want, max_relative = 1e-12, epsilon = 1e-12);
        }
        // All of x's directions in one (linearised) batch.
        let (v, gx) = gradient(fwdad::drivers::bind(chain {}, (Wrt, c)), &x);
        assert_eq!(v.to_bits(), chain(&x, c).to_bits());
        for j in 0..n {
            assert_relative_eq!(gx[j], g[j], max_relative = 1e-12, epsilon = 1e-12);
        }
    }
}

#[test]
fn chain_passes_test_frule() {
    for (x, c) in points() {
        test_frule(
            (x.clone(), c),
            |(x, c)| chain(x, *c),
            |(x, c), (dx, dc)| chain_frule(Dual::new(x, dx), Dual::new(*c, *dc)),
        );
        test_frule_batched::<4, _, _>(
            (x, c),
            |(x, c)| chain(x, *c),
            |(x, c), (dx, dc)| {
                <chain as Frule<_, Batch<f64, 4>>>::frule(
                    &chain {},
                    (Dual::new(&x[..], &dx[..]), Dual::new(*c, *dc)),
                )
            },
        );
    }
}

/// A smooth chain for second order: Hyper mode keeps the line-by-line rule (a linearised
/// chain would drop f''), so the Hessian must still be exact.
#[derive_frule]
fn smooth(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        s += (0.5 * t).exp() + x[i].sin() * x[i + 1];
    }
    s
}

#[test]
fn second_order_is_not_linearised() {
    let x = [0.3, -0.2, 0.8];
    let (v, _, h) = hessian(smooth {}, &x);
    assert_eq!(v, smooth(&x));
    // By hand: s = Σ exp(t/2) + sin(xᵢ)·xᵢ₊₁ with t = xᵢ₊₁ − xᵢ².
    let mut want = [[0.0; 3]; 3];
    for i in 0..2 {
        let t = x[i + 1] - x[i] * x[i];
        let e = (0.5 * t).exp();
        // ∂t/∂xᵢ = −2xᵢ, ∂t/∂xᵢ₊₁ = 1; ∂²(e)/∂a∂b = e/4·tₐt_b + e/2·t_ab.
        let ti = -2.0 * x[i];
        want[i][i] += e / 4.0 * ti * ti + e / 2.0 * -2.0 - x[i].sin() * x[i + 1];
        want[i][i + 1] += e / 4.0 * ti + x[i].cos();
        want[i + 1][i] += e / 4.0 * ti + x[i].cos();
        want[i + 1][i + 1] += e / 4.0;
    }
    for i in 0..3 {
        for j in 0..3 {
            assert_relative_eq!(h[(i, j)], want[i][j], max_relative = 1e-12, epsilon = 1e-12);
        }
    }
}

/// Generic floats, `f32`, borrowed elements (`iter()`), an inactive operand behind a
/// reference, an annotated binding and a sum of unit partials (`x + x`).
#[derive_frule]
fn generic_chain<T: num_traits::Float>(x: T, y: T) -> T {
    let two = x + x;
    let z: T = two * y - y / x;
    z * z + z.sqrt()
}

#[derive_frule]
fn f32_weighted(x: &[f32], w: &[f32]) -> f32 {
    let mut s = 0.0;
    for (xi, wi) in x.iter().zip(w.iter()) {
        let d = xi - wi;
        s += d * d * wi + (xi * xi).ln_1p();
    }
    s
}

#[test]
fn generic_and_f32_chains() {
    let (x, y) = (1.3_f64, 0.7_f64);
    let z = 2.0 * x * y - y / x;
    let dz = [2.0 * y + y / (x * x), 2.0 * x - 1.0 / x];
    let k = 2.0 * z + 0.5 / z.sqrt();
    let both = <generic_chain as Frule<_, Batch<f64, 2>>>::frule(
        &generic_chain {},
        (
            Dual::new(x, Batch([1.0, 0.0])),
            Dual::new(y, Batch([0.0, 1.0])),
        ),
    );
    assert_eq!(both.primal, generic_chain(x, y));
    assert_relative_eq!(both.tangent.0[0], k * dz[0], max_relative = 1e-12);
    assert_relative_eq!(both.tangent.0[1], k * dz[1], max_relative = 1e-12);
    let out = generic_chain_frule(Dual::new(x, 1.0), Dual::new(y, 0.0));
    assert_relative_eq!(out.tangent, k * dz[0], max_relative = 1e-12);
    let out = generic_chain_frule(Dual::new(x, 0.0), Dual::new(y, 1.0));
    assert_relative_eq!(out.tangent, k * dz[1], max_relative = 1e-12);

    let x = [0.5_f32, -1.25, 2.0];
    let w = [0.25_f32, 0.75, -0.5];
    for j in 0..3 {
        let mut dx = [0.0_f32; 3];
        dx[j] = 1.0;
        let out = f32_weighted_frule(Dual::new(&x, &dx), Dual::new(&w, &[0.0; 3]));
        assert_eq!(out.primal, f32_weighted(&x, &w));
        let want = 2.0 * (x[j] - w[j]) * w[j] + 2.0 * x[j] / (1.0 + x[j] * x[j]);
        assert_relative_eq!(out.tangent, want, max_relative = 1e-5);
        let mut dw = [0.0_f32; 3];
        dw[j] = 1.0;
        let out = f32_weighted_frule(Dual::new(&x, &[0.0; 3]), Dual::new(&w, &dw));
        let d = x[j] - w[j];
        assert_relative_eq!(out.tangent, -2.0 * d * w[j] + d * d, max_relative = 1e-5);
    }
}

/// Costly coefficients of loop elements (`cos`, `exp`, a division): their terms test the
/// element's tangent for zero and skip it, which a chunked gradient does for every input
/// outside the chunk.
#[derive_frule]
fn zero_tested(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut q = 0.0;
    let mut r = 0.0;
    for i in 0..x.len() {
        s += (std::f64::consts::TAU * x[i]).cos() + x[i] * x[i];
        q += x[i].exp() / (1.0 + x[i] * x[i]);
        // `3 sin xᵢ` leaves the chain alone (into `max`): a zero-tested first term.
        r += (3.0 * x[i].sin()).max(-10.0);
    }
    s * q + r
}

/// ∂zero_tested/∂x, by hand.
fn zero_tested_grad(x: &[f64]) -> Vec<f64> {
    let tau = std::f64::consts::TAU;
    let s: f64 = x.iter().map(|v| (tau * v).cos() + v * v).sum();
    let q: f64 = x.iter().map(|v| v.exp() / (1.0 + v * v)).sum();
    x.iter()
        .map(|v| {
            let ds = -tau * (tau * v).sin() + 2.0 * v;
            let den = 1.0 + v * v;
            let dq = v.exp() / den - v.exp() * 2.0 * v / (den * den);
            ds * q + s * dq + 3.0 * v.cos()
        })
        .collect()
}

#[test]
fn zero_tested_terms_skip_only_zero_tangents() {
    // 21 inputs: chunks of 8 leave most elements' tangents zero in each pass; the last
    // chunk is padded.
    let x: Vec<f64> = (0..21)
        .map(|i| 0.3 * (i as f64 * 0.7).sin() - 0.1)
        .collect();
    let exact = zero_tested_grad(&x);
    let (v, g) = gradient(zero_tested {}, &x);
    assert_eq!(v.to_bits(), zero_tested(&x).to_bits());
    for (a, b) in g.iter().zip(&exact) {
        assert_relative_eq!(*a, *b, max_relative = 1e-12, epsilon = 1e-12);
    }
    // Each entry equals the one-direction column to rounding (the batch sums in another
    // order), and width 4 and width 8 agree bit for bit.
    let (_, g4) = fwdad::drivers::gradient_with::<4>(zero_tested {}, &x);
    for j in 0..x.len() {
        let mut dx = vec![0.0; x.len()];
        dx[j] = 1.0;
        let (_, col) = fwdad::drivers::jvp(zero_tested {}, &x, &dx);
        assert_relative_eq!(col, g[j], max_relative = 1e-13);
        assert_eq!(g4[j].to_bits(), g[j].to_bits(), "entry {j}");
    }
    // Random (never zero) batched tangents take the other branch.
    test_frule_batched::<4, _, _>(
        x,
        |x| zero_tested(x),
        |x, dx| {
            <zero_tested as Frule<_, Batch<f64, 4>>>::frule(
                &zero_tested {},
                (Dual::new(&x[..], &dx[..]),),
            )
        },
    );
}

/// A local read by a chain, then changed through `&mut` (a reborrow, then `mem::swap`)
/// before the chain's value is used: the chain must combine the tangent the local had when
/// it was read (a deferred combination read the new one: a wrong gradient in batches).
#[derive_frule]
fn written_after_read(x: &[f64]) -> f64 {
    let mut a = x[0];
    let mut b = x[1];
    let t = a * b.sin();
    {
        let r = &mut a;
        *r = *r * 3.0 + b;
    }
    let u = t * a;
    std::mem::swap(&mut a, &mut b);
    u + b * a
}

#[test]
fn locals_written_through_mut_after_a_chain_reads_them() {
    let x: [f64; 2] = [0.3, -0.7];
    let (s, c) = x[1].sin_cos();
    // With a' = 3 x0 + x1: f = x0 sin(x1) a' + a' x1.
    let a = 3.0 * x[0] + x[1];
    let exact = [
        s * a + 3.0 * x[0] * s + 3.0 * x[1],
        x[0] * c * a + x[0] * s + a + x[1],
    ];
    let (v, g) = gradient(written_after_read {}, &x);
    assert_eq!(v, written_after_read(&x));
    for i in 0..2 {
        assert_relative_eq!(g[i], exact[i], max_relative = 1e-12);
        let mut e = [0.0; 2];
        e[i] = 1.0;
        let d = written_after_read_frule(Dual::new(&x[..], &e[..]));
        assert_relative_eq!(d.tangent, exact[i], max_relative = 1e-12);
    }
}

/// A chain value changed in place afterwards (`swap`, a `&mut f64` helper): later chains
/// read its new value, in every mode.
#[derive_frule]
fn ordered_span(x: &[f64]) -> f64 {
    let mut lo = x[0] * 2.0;
    let mut hi = x[1] + 1.0;
    if lo > hi {
        std::mem::swap(&mut lo, &mut hi);
    }
    (hi - lo).sqrt() * x[2].exp()
}

#[derive_frule]
fn halve_in_place(v: &mut f64) {
    *v *= 0.5;
}

#[derive_frule]
fn halved_product(x: &[f64]) -> f64 {
    let mut g = x[0] * x[1];
    halve_in_place(&mut g);
    g * x[2].sin()
}

#[test]
fn chain_values_changed_in_place_later() {
    let x: [f64; 3] = [0.9, 0.2, 0.5];
    // lo = 1.8 > hi = 1.2: swapped, f = √(2x0 - x1 - 1)·e^x2 = √0.6·e^0.5.
    let r = (2.0 * x[0] - x[1] - 1.0).sqrt();
    let e = x[2].exp();
    let want = [e / r, -0.5 * e / r, r * e];
    for (name, (v, g)) in [
        (
            "gradient",
            fwdad::drivers::gradient(ordered_span {}, &x[..]),
        ),
        (
            "width 2",
            fwdad::drivers::gradient_with::<2>(ordered_span {}, &x),
        ),
        (
            "width 1",
            fwdad::drivers::gradient_with::<1>(ordered_span {}, &x),
        ),
    ] {
        assert_eq!(v, ordered_span(&x), "{name}");
        for (g, w) in g.iter().zip(want) {
            approx::assert_relative_eq!(*g, w, max_relative = 1e-14);
        }
    }
    // g = x0·x1/2: f = x0·x1·sin(x2)/2.
    let s = x[2].sin();
    let want = [
        x[1] * s / 2.0,
        x[0] * s / 2.0,
        x[0] * x[1] * x[2].cos() / 2.0,
    ];
    let (v, g) = fwdad::drivers::gradient(halved_product {}, &x);
    assert_eq!(v, halved_product(&x));
    for (g, w) in g.iter().zip(want) {
        approx::assert_relative_eq!(*g, w, max_relative = 1e-14);
    }
}

#[derive_frule]
fn bump_in_place(s: &mut f64, c: f64) {
    *s = *s * 0.5 + c.sin();
}

/// A root read by a chain, then changed by a `&mut` helper, then read again: the second read
/// sees the new tangent (a snapshot of the root was reused, silently, in batch mode).
#[derive_frule]
fn root_changed_between_reads(x: &[f64]) -> f64 {
    let mut s = 0.5;
    let a = [0.0, 1.0, x[2], 0.0];
    let t = ((s - a[3]) * a[3]).tanh();
    let c = a[2] - (1.0 + x[0] * x[0]).sqrt();
    bump_in_place(&mut s, c);
    s + t
}

#[test]
fn roots_read_again_after_a_write_through_mut() {
    let x: [f64; 3] = [0.3, -0.7, 1.1];
    // t = 0; s = 0.25 + sin(c), c = x2 - √(1 + x0²): ∇ = cos(c)·(-x0/√(1 + x0²), 0, 1).
    let r = (1.0 + x[0] * x[0]).sqrt();
    let cc = (x[2] - r).cos();
    let want = [-cc * x[0] / r, 0.0, cc];
    for (name, (v, g)) in [
        (
            "gradient",
            fwdad::drivers::gradient(root_changed_between_reads {}, &x[..]),
        ),
        (
            "width 2",
            fwdad::drivers::gradient_with::<2>(root_changed_between_reads {}, &x),
        ),
        (
            "width 1",
            fwdad::drivers::gradient_with::<1>(root_changed_between_reads {}, &x),
        ),
    ] {
        assert_eq!(v, root_changed_between_reads(&x), "{name}");
        for (g, w) in g.iter().zip(want) {
            assert!(
                (g - w).abs() <= 1e-14 * (1.0 + w.abs()),
                "{name}: {g} vs {w}"
            );
        }
    }
}

// A `&mut` reference read, written through, then read again (helper bug hunt F). SSA names
// the reference once, so both reads shared one chain root whose tangent snapshot predated
// the write: batches gave ∂/∂x1 = 0 for sin(x0)·cos(x1), one direction was right.

/// `let r = &mut a; r.sin(); *r = x1; r.cos()`.
#[derive_frule]
fn reread_local_ref(x: &[f64]) -> f64 {
    let mut a = x[0];
    let r = &mut a;
    let p = r.sin();
    *r = x[1];
    p * r.cos()
}

/// The same through a field, an element and a store in a branch.
#[derive_frule]
fn reread_elem_ref(x: &[f64]) -> f64 {
    let mut v = [x[0], 2.0];
    let r = &mut v[0];
    let a = r.sin();
    if x[1] < 0.0 {
        *r = x[1];
    }
    a * r.cos()
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct KR {
    pub k: f64,
    pub r: f64,
}

#[derive_frule]
fn reread_field_ref(x: &[f64]) -> f64 {
    let mut p = KR { k: x[0], r: 1.0 };
    let r = &mut p.k;
    let a = r.sin();
    *r = x[1];
    a * r.cos()
}

/// An activation applied in place through `iter_mut`, then read again by method.
#[derive_frule]
fn inplace_activation(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    let mut s = 0.0;
    for e in v.iter_mut() {
        let a = e.sin();
        *e = e.tanh();
        s += a * (e.exp() - e.sin());
    }
    s
}

#[derive_frule]
fn set_to(r: &mut f64, v: f64) {
    *r = v;
}

/// The write by a `&mut` helper; and a `&mut f64` parameter written and read again.
#[derive_frule]
fn reread_after_helper(x: &[f64]) -> f64 {
    let mut v = [x[0]];
    let mut s = 0.0;
    for e in v.iter_mut() {
        let a = e.sin();
        set_to(e, x[1]);
        s += a * e.cos();
    }
    s
}

#[derive_frule]
fn reread_mut_param(r: &mut f64, x: f64) -> f64 {
    let a = r.sin();
    *r = x;
    a * r.cos()
}

#[test]
fn references_written_through_are_read_afresh() {
    let x: [f64; 2] = [0.7, -0.4];
    // sin(x0)·cos(x1).
    let want = [x[0].cos() * x[1].cos(), -x[0].sin() * x[1].sin()];
    type Rule = fn(&[f64]) -> (f64, Vec<f64>);
    let cases: [(&str, Rule, Rule); 4] = [
        (
            "local",
            |x| fwdad::gradient(reread_local_ref {}, x),
            |x| fwdad::gradient_with::<1>(reread_local_ref {}, x),
        ),
        (
            "elem",
            |x| fwdad::gradient(reread_elem_ref {}, x),
            |x| fwdad::gradient_with::<1>(reread_elem_ref {}, x),
        ),
        (
            "field",
            |x| fwdad::gradient(reread_field_ref {}, x),
            |x| fwdad::gradient_with::<1>(reread_field_ref {}, x),
        ),
        (
            "helper",
            |x| fwdad::gradient(reread_after_helper {}, x),
            |x| fwdad::gradient_with::<1>(reread_after_helper {}, x),
        ),
    ];
    for (name, batch, one) in cases {
        for (width, g) in [("8", batch(&x).1), ("1", one(&x).1)] {
            for i in 0..2 {
                assert!(
                    (g[i] - want[i]).abs() < 1e-15,
                    "{name} width {width}: {g:?} vs {want:?}"
                );
            }
        }
    }
    // Σ sin(xi)·(exp(tanh xi) − sin(tanh xi)).
    let x: [f64; 3] = [0.7, -0.4, 1.3];
    let want: Vec<f64> = x
        .iter()
        .map(|&t| {
            let (th, sech2) = (t.tanh(), 1.0 / t.cosh().powi(2));
            t.cos() * (th.exp() - th.sin()) + t.sin() * (th.exp() - th.cos()) * sech2
        })
        .collect();
    for g in [
        fwdad::gradient(inplace_activation {}, &x[..]).1,
        fwdad::gradient_with::<2>(inplace_activation {}, &x).1,
    ] {
        for i in 0..3 {
            assert!((g[i] - want[i]).abs() < 1e-14, "{g:?} vs {want:?}");
        }
    }
    // A `&mut f64` parameter in a width-2 batch: r0 along lane 0, x along lane 1.
    let (r0, x1) = (0.7_f64, -0.4_f64);
    let (mut r, mut dr) = (r0, Batch([1.0, 0.0]));
    let out = <reread_mut_param as Frule<_, Batch<f64, 2>>>::frule(
        &reread_mut_param {},
        (Dual::new(&mut r, &mut dr), Dual::new(x1, Batch([0.0, 1.0]))),
    );
    let want = [r0.cos() * x1.cos(), -r0.sin() * x1.sin()];
    for i in 0..2 {
        assert!((out.tangent.0[i] - want[i]).abs() < 1e-15);
    }
    assert_eq!((r, dr.0), (x1, [0.0, 1.0]));
}

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Holder {
    pub opt: Option<f64>,
    pub z: f64,
}

#[derive_frule]
fn first_mut(v: &mut [f64]) -> &mut f64 {
    &mut v[0]
}

/// The same through references the macro knows by their binding or annotation: a match
/// binding on `&mut` and a call's result annotated `&mut f64`, lent to a helper between
/// two reads (review of the day's diff).
#[derive_frule]
fn reread_match_binding(x: &[f64]) -> f64 {
    let mut h = Holder {
        opt: Some(x[0]),
        z: 0.0,
    };
    let mut out = 0.0;
    if let Some(d) = &mut h.opt {
        let a = d.sin();
        set_to(d, x[1]);
        out = a * d.cos();
    }
    out
}

#[derive_frule]
fn reread_annotated(x: &[f64]) -> f64 {
    let mut v = vec![x[0], 1.0];
    let r: &mut f64 = first_mut(&mut v);
    let a = r.sin();
    set_to(r, x[1]);
    a * r.cos()
}

#[test]
fn bound_and_annotated_references_are_read_afresh() {
    let x: [f64; 2] = [0.7, -0.4];
    let want = [x[0].cos() * x[1].cos(), -x[0].sin() * x[1].sin()];
    for g in [
        fwdad::gradient(reread_match_binding {}, &x[..]).1,
        fwdad::gradient_with::<1>(reread_match_binding {}, &x).1,
        fwdad::gradient(reread_annotated {}, &x[..]).1,
        fwdad::gradient_with::<1>(reread_annotated {}, &x).1,
    ] {
        for i in 0..2 {
            assert!((g[i] - want[i]).abs() < 1e-15, "{g:?} vs {want:?}");
        }
    }
}
