//! Loop-invariant roots of a loop's sum (issue 30): in `s += (v[i] - mx).exp()` every
//! term's `ṁx` part is the same tangent times another number, so a batch sums those numbers
//! and applies them once after the loop. Written as users write them (ADBench GMM's
//! `logsumexp`, a weighted variance around a mean computed first, a mixture's per-point
//! sums over components), each gradient is checked against the derivative written by hand
//! from the math, by the batched drivers (dense and known-zero lanes, several widths) and
//! in one direction; values bit for bit.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use fwdad::drivers::{bind, gradient, GradientPlan, GradientWorkspace, Inactive, Wrt};
use fwdad::prelude::*;

/// `log Σ exp(vᵢ)`, subtracting the maximum (ADBench GMM's).
#[derive_frule]
fn logsumexp(v: &[f64]) -> f64 {
    let mut mx = v[0];
    for i in 1..v.len() {
        if v[i] > mx {
            mx = v[i];
        }
    }
    let mut s = 0.0;
    for i in 0..v.len() {
        s += (v[i] - mx).exp();
    }
    s.ln() + mx
}

/// `Σ wᵢ (xᵢ - x̄)² / Σ wᵢ` with `x̄` the plain mean and the scale `k` applied per term.
#[derive_frule(inactive(w))]
fn weighted_spread(x: &[f64], w: &[f64], k: f64) -> f64 {
    let mut mean = 0.0;
    for i in 0..x.len() {
        mean += x[i];
    }
    mean /= x.len() as f64;
    let mut sw = 0.0;
    let mut s = 0.0;
    for i in 0..x.len() {
        let d = x[i] - mean;
        s += k * w[i] * d * d;
        sw += w[i];
    }
    s / sw
}

/// `Σₚ log Σₖ exp(aₖ - (yₚ - mₖ)²/2 - a₀yₚ/10)` of points `y` under components with
/// weights `a` and centres `m` (`θ = [a, m]`): the inner sum's invariant root (the shift)
/// differs per point.
#[derive_frule(inactive(y))]
fn mixture_loglik(theta: &[f64], y: &[f64]) -> f64 {
    let k = theta.len() / 2;
    let mut total = 0.0;
    for p in 0..y.len() {
        let shift = 0.1 * theta[0] * y[p];
        let mut s = 0.0;
        for c in 0..k {
            let r = y[p] - theta[k + c];
            s += (theta[c] - 0.5 * r * r - shift).exp();
        }
        total += s.ln();
    }
    total
}

/// The gradient by every driver configuration that linearises (batches of known and dense
/// zeros, widths 2 to 16) and by one-direction passes, against `want`; values bit for bit.
fn check<F: fwdad::drivers::GradientRule + Copy>(f: F, x: &[f64], value: f64, want: &[f64]) {
    let (v, g) = gradient(f, x);
    assert_eq!(v.to_bits(), value.to_bits());
    for j in 0..x.len() {
        assert_relative_eq!(g[j], want[j], max_relative = 1e-12, epsilon = 1e-13);
    }
    let mut ws = GradientWorkspace::new();
    for plan in [
        GradientPlan::dense(2),
        GradientPlan::dense(8),
        GradientPlan::dense(16),
        GradientPlan::known_zeros(8),
        GradientPlan::known_zeros(16),
        GradientPlan::dense(1),
    ] {
        let (v, g) = ws.gradient_with_plan(f, x, plan);
        assert_eq!(v.to_bits(), value.to_bits(), "{plan:?}");
        for j in 0..x.len() {
            assert_relative_eq!(g[j], want[j], max_relative = 1e-12, epsilon = 1e-13);
        }
    }
}

#[test]
fn logsumexp_gradient_is_the_softmax() {
    for v in [
        vec![0.3, -1.2, 2.5, 0.7, 2.4],
        vec![-3.0, 1.0],
        vec![1.5, 1.5, 1.5],
        vec![700.0, 699.0, -5.0],
        vec![0.25],
    ] {
        let mx = v.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let se: f64 = v.iter().map(|x| (x - mx).exp()).sum();
        let softmax: Vec<f64> = v.iter().map(|x| (x - mx).exp() / se).collect();
        check(logsumexp {}, &v, logsumexp(&v), &softmax);
    }
}

#[test]
fn weighted_spread_gradient_by_hand() {
    let x = [0.4, 1.9, -0.6, 1.1, 0.05, 2.2];
    let w = [1.0, 0.5, 2.0, 1.5, 0.25, 1.0];
    let k = 1.75;
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let sw: f64 = w.iter().sum();
    // ∂/∂xⱼ Σ k wᵢ (xᵢ - x̄)² = 2k (wⱼ dⱼ - Σ wᵢ dᵢ / n); ∂/∂k = Σ wᵢ dᵢ² / Σ wᵢ.
    let wd: f64 = (0..x.len()).map(|i| w[i] * (x[i] - mean)).sum();
    let gx: Vec<f64> = (0..x.len())
        .map(|j| 2.0 * k * (w[j] * (x[j] - mean) - wd / n) / sw)
        .collect();
    let gk: f64 = (0..x.len())
        .map(|i| w[i] * (x[i] - mean) * (x[i] - mean))
        .sum::<f64>()
        / sw;
    let value = weighted_spread(&x, &w, k);
    check(
        bind(weighted_spread {}, (Wrt, Inactive(&w[..]), k)),
        &x,
        value,
        &gx,
    );
    // Along `k` (a loop-invariant root that is a parameter), one direction and batched
    // (`k` seeded in every lane but one).
    let zero = [0.0; 6];
    let dk = weighted_spread_frule(Dual::new(&x, &zero), &w, Dual::new(k, 1.0));
    assert_eq!(dk.primal.to_bits(), value.to_bits());
    assert_relative_eq!(dk.tangent, gk, max_relative = 1e-12);
    let lanes = |c: f64| Batch::<f64, 4>([c, 2.0 * c, 0.0, -c]);
    let dx: Vec<Batch<f64, 4>> = (0..x.len()).map(|_| lanes(0.0)).collect();
    let out = <weighted_spread as Frule<_, Batch<f64, 4>>>::frule(
        &weighted_spread {},
        (Dual::new(&x[..], &dx[..]), &w[..], Dual::new(k, lanes(1.0))),
    );
    assert_eq!(out.primal.to_bits(), value.to_bits());
    for (l, c) in [1.0, 2.0, 0.0, -1.0].into_iter().enumerate() {
        assert_relative_eq!(out.tangent.0[l], c * gk, max_relative = 1e-12);
    }
}

#[test]
fn mixture_loglik_gradient_by_hand() {
    let theta = [0.2, -0.5, 0.9, -1.0, 0.3, 1.4];
    let y = [-0.8, 0.1, 0.45, 1.7, -1.3];
    let k = theta.len() / 2;
    // With pₚc the softmax over c of eₚc = a_c - rₚc²/2 - a₀yₚ/10: ∂/∂a_c = Σₚ pₚc (and
    // a₀ also -Σₚ yₚ/10, the shift's, as Σ_c pₚc = 1), ∂/∂m_c = Σₚ pₚc rₚc.
    let mut g = vec![0.0; theta.len()];
    for &yp in &y {
        let e: Vec<f64> = (0..k)
            .map(|c| {
                let r = yp - theta[k + c];
                theta[c] - 0.5 * r * r - 0.1 * theta[0] * yp
            })
            .collect();
        let se: f64 = e.iter().map(|e| e.exp()).sum();
        for c in 0..k {
            let p = e[c].exp() / se;
            g[c] += p;
            g[k + c] += p * (yp - theta[k + c]);
        }
        g[0] -= 0.1 * yp;
    }
    let value = mixture_loglik(&theta, &y);
    check(
        bind(mixture_loglik {}, (Wrt, Inactive(&y[..]))),
        &theta,
        value,
        &g,
    );
}
