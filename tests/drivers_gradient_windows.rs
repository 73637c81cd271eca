//! Issue 30: the one-shot `gradient` at a slice of up to 16 inputs (its result allocated
//! before its one pass, the lanes stored once) and `GradientWorkspace`'s one pass give the
//! same values; above 64 inputs the chunked plans (and `jacobian`, `gradient_with`, the
//! `JacobianWorkspace`) read each chunk's seeds as a window of one buffer laid out once per
//! length, with nothing rebuilt or cleared between chunks.
//!
//! The functions are written as their authors write them (an optimisation test function,
//! a softmax cross-entropy and a softmax, a chain of springs with a rest length, a small
//! straight-line potential, a planar arm); derivatives are checked against closed forms or
//! central differences, primals bit for bit against the plain function.

// The functions index slices in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{gradient_with, GradientPlan, GradientWorkspace, JacobianWorkspace};
use fwdad::prelude::*;

#[derive_frule]
fn ackley(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut s2 = 0.0;
    let mut sc = 0.0;
    for i in 0..x.len() {
        s2 += x[i] * x[i];
        sc += (std::f64::consts::TAU * x[i]).cos();
    }
    -20.0 * (-0.2 * (s2 / n).sqrt()).exp() - (sc / n).exp() + 20.0 + std::f64::consts::E
}

/// ∂/∂xᵢ of Ackley, from the formula.
fn ackley_grad(x: &[f64]) -> Vec<f64> {
    let n = x.len() as f64;
    let tau = std::f64::consts::TAU;
    let s2: f64 = x.iter().map(|v| v * v).sum();
    let sc: f64 = x.iter().map(|v| (tau * v).cos()).sum();
    let r = (s2 / n).sqrt();
    let (e1, e2) = ((-0.2 * r).exp(), (sc / n).exp());
    x.iter()
        .map(|&v| 4.0 * e1 * v / (n * r) + e2 * tau * (tau * v).sin() / n)
        .collect()
}

/// Cross-entropy of a softmax over logits `z` against class 2, as a classifier's loss.
#[derive_frule]
fn softmax_xent(z: &[f64]) -> f64 {
    let mut m = z[0];
    for &v in z {
        if v > m {
            m = v;
        }
    }
    let mut s = 0.0;
    for &v in z {
        s += (v - m).exp();
    }
    m + s.ln() - z[2]
}

/// softmax(z) − e₂.
fn softmax_xent_grad(z: &[f64]) -> Vec<f64> {
    let m = z.iter().cloned().fold(f64::MIN, f64::max);
    let s: f64 = z.iter().map(|v| (v - m).exp()).sum();
    z.iter()
        .enumerate()
        .map(|(i, v)| (v - m).exp() / s - if i == 2 { 1.0 } else { 0.0 })
        .collect()
}

/// Elastic energy of a chain of unit springs (rest length 1) between points on a line.
#[derive_frule]
fn spring_chain(x: &[f64]) -> f64 {
    let k = 3.5;
    let mut e = 0.0;
    for i in 1..x.len() {
        let d = x[i] - x[i - 1] - 1.0;
        e += 0.5 * k * d * d;
    }
    e
}

fn spring_chain_grad(x: &[f64]) -> Vec<f64> {
    let k = 3.5;
    let mut g = vec![0.0; x.len()];
    for i in 1..x.len() {
        let d = x[i] - x[i - 1] - 1.0;
        g[i] += k * d;
        g[i - 1] -= k * d;
    }
    g
}

/// Potential of a particle in the plane between two charges and a harmonic well: one
/// straight-line chain (a rule that writes its gradient as coefficients).
#[derive_frule]
fn two_charges(p: &[f64]) -> f64 {
    let (x, y) = (p[0], p[1]);
    let r1 = ((x - 1.0) * (x - 1.0) + y * y).sqrt();
    let r2 = ((x + 1.0) * (x + 1.0) + y * y).sqrt();
    1.0 / r1 - 0.5 / r2 + 0.25 * (x * x + y * y)
}

/// End point of a planar arm of three links (lengths 1, 0.8, 0.5) at joint angles `q`:
/// one straight-line chain (its rule has a Jacobian entry).
#[derive_frule]
fn arm_tip(q: &[f64]) -> [f64; 2] {
    let (a1, a2, a3) = (q[0], q[0] + q[1], q[0] + q[1] + q[2]);
    [
        a1.cos() + 0.8 * a2.cos() + 0.5 * a3.cos(),
        a1.sin() + 0.8 * a2.sin() + 0.5 * a3.sin(),
    ]
}

/// The softmax of logits `z`, a vector function with loops.
#[derive_frule]
fn softmax(z: &[f64]) -> Vec<f64> {
    let mut m = z[0];
    for &v in z {
        if v > m {
            m = v;
        }
    }
    let mut e = Vec::with_capacity(z.len());
    let mut s = 0.0;
    for &v in z {
        let ev = (v - m).exp();
        s += ev;
        e.push(ev);
    }
    for v in e.iter_mut() {
        *v /= s;
    }
    e
}

/// ∂softmaxᵢ/∂zⱼ = pᵢ (δᵢⱼ − pⱼ).
fn softmax_jacobian(z: &[f64]) -> Vec<Vec<f64>> {
    let m = z.iter().cloned().fold(f64::MIN, f64::max);
    let s: f64 = z.iter().map(|v| (v - m).exp()).sum();
    let p: Vec<f64> = z.iter().map(|v| (v - m).exp() / s).collect();
    (0..z.len())
        .map(|i| {
            (0..z.len())
                .map(|j| p[i] * (if i == j { 1.0 } else { 0.0 } - p[j]))
                .collect()
        })
        .collect()
}

fn central(f: impl Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[i] += h;
            b[i] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

fn assert_close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        assert!(
            (a - b).abs() <= tol * b.abs().max(1.0),
            "{what}: entry {i}: {a} against {b}"
        );
    }
}

fn point(n: usize, seed: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7 + 3 + seed) % 11) as f64 / 5.0 - 1.1 + 0.01 * i as f64)
        .collect()
}

/// A point of a chain of springs: stretched and compressed by turns.
fn chain_point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| i as f64 * 1.1 + 0.05 * ((3 * i) % 5) as f64)
        .collect()
}

/// The one-shot gradient at a slice, the workspace's and the array's, of every length up
/// to 16: the primal the plain function's bits, the gradient the formula's; the workspace
/// gives the one-shot's values exactly (both take the same pass).
#[test]
fn one_pass_at_a_slice_up_to_sixteen_inputs() {
    let mut ws = GradientWorkspace::new();
    for n in 1..=16 {
        let x = point(n, n);
        let (v, g) = gradient(ackley {}, &x[..]);
        assert_eq!(v.to_bits(), ackley(&x).to_bits(), "n = {n}");
        assert_close(&format!("ackley, n = {n}"), &g, &ackley_grad(&x), 1e-12);
        let (vw, gw) = ws.gradient(ackley {}, &x);
        assert_eq!((vw, gw), (v, &g[..]), "n = {n}: workspace against one-shot");

        let x = chain_point(n);
        let (v, g) = gradient(spring_chain {}, &x);
        assert_eq!(v.to_bits(), spring_chain(&x).to_bits(), "n = {n}");
        assert_close(
            &format!("springs, n = {n}"),
            &g,
            &spring_chain_grad(&x),
            1e-12,
        );
        let (vw, gw) = ws.gradient(spring_chain {}, &x);
        assert_eq!((vw, gw), (v, &g[..]), "n = {n}: workspace against one-shot");

        if n >= 3 {
            let z = point(n, 2 * n);
            let (v, g) = gradient(softmax_xent {}, z.as_slice());
            assert_eq!(v.to_bits(), softmax_xent(&z).to_bits(), "n = {n}");
            assert_close(
                &format!("softmax, n = {n}"),
                &g,
                &softmax_xent_grad(&z),
                1e-13,
            );
        }
    }
    // Arrays: the pass inlined into the caller, the same values.
    let x: [f64; 10] = point(10, 4).try_into().unwrap();
    let (va, ga) = gradient(ackley {}, x);
    let (vs, gs) = gradient(ackley {}, &x[..]);
    assert_eq!(va.to_bits(), vs.to_bits());
    assert_eq!(ga.to_vec(), gs);
    // A rule that writes its gradient as coefficients (no seeded pass).
    for p in [[0.3, 0.4], [-0.2, 0.7]] {
        let (v, g) = gradient(two_charges {}, &p[..]);
        assert_eq!(v.to_bits(), two_charges(&p).to_bits());
        assert_close("two charges", &g, &central(two_charges, &p, 1e-6), 1e-7);
        let (vw, gw) = ws.gradient(two_charges {}, &p);
        assert_eq!((vw, gw), (v, &g[..]));
    }
}

/// Above 64 inputs: every plan of `GradientWorkspace`, the fixed-width drivers and the
/// one-shot `gradient` through its timed calls give the same gradient (equal values), the
/// formula's; the workspace reused across lengths, in and out of order.
#[test]
fn chunked_plans_above_sixty_four_inputs() {
    let mut ws = GradientWorkspace::new();
    let mut jw8 = JacobianWorkspace::<8>::new();
    let mut jw16 = JacobianWorkspace::<16>::new();
    for n in [65, 100, 129, 100, 65, 129] {
        let x = point(n, 1);
        let want = ackley_grad(&x);
        let (v0, g0) = ws.gradient_with_plan(ackley {}, &x, GradientPlan::dense(8));
        let g0 = g0.to_vec();
        assert_eq!(v0.to_bits(), ackley(&x).to_bits(), "n = {n}");
        assert_close(&format!("ackley, n = {n}"), &g0, &want, 1e-12);
        for plan in GradientPlan::candidates(n) {
            let (v, g) = ws.gradient_with_plan(ackley {}, &x, plan);
            assert_eq!((v, g), (v0, &g0[..]), "n = {n}, {plan:?}");
        }
        for plan in GradientPlan::CANDIDATES {
            let mut fresh = GradientWorkspace::new();
            let (v, g) = fresh.gradient_with_plan(ackley {}, &x, plan);
            assert_eq!((v, g), (v0, &g0[..]), "n = {n}, {plan:?}, fresh workspace");
        }
        assert_eq!(
            jw8.gradient(ackley {}, &x),
            (v0, &g0[..]),
            "n = {n}, width 8"
        );
        assert_eq!(
            jw16.gradient(ackley {}, &x),
            (v0, &g0[..]),
            "n = {n}, width 16"
        );
        assert_eq!(
            gradient_with::<4>(ackley {}, &x),
            (v0, g0.clone()),
            "n = {n}"
        );
        assert_eq!(
            gradient_with::<32>(ackley {}, &x),
            (v0, g0.clone()),
            "n = {n}"
        );
        assert_eq!(
            gradient_with::<7>(ackley {}, &x),
            (v0, g0.clone()),
            "n = {n}"
        );
        // The one-shot times its plans over its first calls of a length: each call exact.
        for _ in 0..8 * GradientPlan::CANDIDATES.len() + 2 {
            assert_eq!(
                gradient(ackley {}, &x),
                (v0, g0.clone()),
                "n = {n}, one-shot"
            );
        }
        let (v, g) = ws.gradient(ackley {}, &x);
        assert_eq!((v, g), (v0, &g0[..]), "n = {n}, measured plan");

        // A chain of springs: each term reads two inputs, so most terms of a chunk touch
        // no seeded input (`MaybeZero` skips them) and chunk boundaries split terms.
        let x = chain_point(n);
        let want = spring_chain_grad(&x);
        for plan in GradientPlan::candidates(n) {
            let (v, g) = ws.gradient_with_plan(spring_chain {}, &x, plan);
            assert_eq!(v.to_bits(), spring_chain(&x).to_bits(), "n = {n}");
            assert_close(&format!("springs, n = {n}, {plan:?}"), g, &want, 1e-12);
        }
    }
}

/// `jacobian` of a vector function with loops (one pass up to 16 inputs, chunks of 16
/// above) and of a straight-line one (its Jacobian entry), against closed forms and central
/// differences, values bit for bit.
#[test]
fn jacobians_of_one_pass_and_of_chunks() {
    for n in [3, 5, 8, 12, 16, 40] {
        let z = point(n, 5);
        let (v, j) = jacobian(softmax {}, &z);
        let plain = softmax(&z);
        let want = softmax_jacobian(&z);
        for i in 0..n {
            assert_eq!(v[i].to_bits(), plain[i].to_bits(), "n = {n}, value {i}");
            assert_close(
                &format!("softmax, n = {n}, row {i}"),
                j.row(i),
                &want[i],
                1e-13,
            );
        }
    }
    let q = [0.3, -0.7, 1.1];
    let (v, j) = jacobian(arm_tip {}, &q);
    let tip = arm_tip(&q);
    for i in 0..2 {
        assert_eq!(v[i].to_bits(), tip[i].to_bits());
        let want = central(|q| arm_tip(q)[i], &q, 1e-6);
        assert_close(&format!("arm, row {i}"), j.row(i), &want, 1e-8);
    }
}

/// `jacobian` above 64 inputs: a vector function of 65, 100 and 129 inputs, its chunks of
/// 16 seeded from windows, against the formula, values bit for bit.
#[test]
fn jacobian_above_sixty_four_inputs() {
    /// Per-spring forces of the chain, `k (xᵢ − xᵢ₋₁ − 1)`.
    #[derive_frule]
    fn spring_forces(x: &[f64]) -> Vec<f64> {
        let mut f = Vec::with_capacity(x.len() - 1);
        for i in 1..x.len() {
            f.push(3.5 * (x[i] - x[i - 1] - 1.0));
        }
        f
    }
    let mut jw = JacobianWorkspace::<16>::new();
    for n in [65, 100, 129, 65] {
        let x = chain_point(n);
        let (v, j) = jacobian(spring_forces {}, &x);
        let plain = spring_forces(&x);
        assert_eq!(v.len(), n - 1);
        for i in 0..n - 1 {
            assert_eq!(v[i].to_bits(), plain[i].to_bits(), "n = {n}, value {i}");
            for c in 0..n {
                let want = if c == i + 1 {
                    3.5
                } else if c == i {
                    -3.5
                } else {
                    0.0
                };
                assert_eq!(j[(i, c)], want, "n = {n}, J[{i}, {c}]");
            }
        }
        let (v2, j2) = jw.jacobian(spring_forces {}, &x);
        assert_eq!(
            (v2, j2.to_rows()),
            (&v[..], j.to_rows()),
            "n = {n}: workspace"
        );
    }
}
