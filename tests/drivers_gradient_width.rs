//! `GradientWorkspace` picks its width by timing; the gradient must not depend on it.

// The functions index slices in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{gradient_width, gradient_with, GradientWorkspace};
use fwdad::prelude::*;

#[derive_frule]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        s += 100.0 * t * t + u * u;
    }
    s
}

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

/// ∂/∂xᵢ of Rosenbrock, from the formula.
fn rosenbrock_grad(x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        g[i] += -400.0 * x[i] * t - 2.0 * (1.0 - x[i]);
        g[i + 1] += 200.0 * t;
    }
    g
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

fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| ((i * 7 + 3) % 11) as f64 / 5.0 - 1.1)
        .collect()
}

fn assert_near(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-12 * (1.0 + w.abs()),
            "entry {i}: {g} against {w}"
        );
    }
}

#[test]
fn workspace_gradient_is_the_same_at_every_width_it_may_pick() {
    let mut ws = GradientWorkspace::new();
    for n in [5, 12, 17, 22, 40, 100, 300] {
        let x = point(n);
        let (v, g) = ws.gradient(rosenbrock {}, &x);
        let (v, g) = (v, g.to_vec());
        assert_eq!(v, rosenbrock(&x));
        assert_near(&g, &rosenbrock_grad(&x));
        for (w, (_, gw)) in [
            (4, gradient_with::<4>(rosenbrock {}, &x)),
            (8, gradient_with::<8>(rosenbrock {}, &x)),
            (12, gradient_with::<12>(rosenbrock {}, &x)),
            (20, gradient_with::<20>(rosenbrock {}, &x)),
            (16, gradient_with::<16>(rosenbrock {}, &x)),
            (32, gradient_with::<32>(rosenbrock {}, &x)),
        ] {
            assert_eq!(g, gw, "n = {n}: workspace against width {w}");
        }
        // The width is measured once per length above 16, then kept: 8, 16 or 32, or up
        // to 20 inputs the one pass of `gradient_width(n)` lanes.
        match ws.width(n) {
            None => assert!(n <= 16, "n = {n}: no width measured"),
            Some(w) => {
                let one_pass = n <= 20 && w == gradient_width(n);
                assert!(
                    n > 16 && ([8, 16, 32].contains(&w) || one_pass),
                    "n = {n}: width {w}"
                );
                let (_, again) = ws.gradient(rosenbrock {}, &x);
                assert_eq!(again, &g[..]);
                assert_eq!(ws.width(n), Some(w));
            }
        }
    }
}

#[test]
fn workspace_gradient_of_a_costly_primal_matches_the_formula() {
    let mut ws = GradientWorkspace::new();
    for n in [10, 64, 200] {
        let x = point(n);
        let (v, g) = ws.gradient(ackley {}, &x);
        assert_eq!(v, ackley(&x));
        assert_near(g, &ackley_grad(&x));
        let (v1, g1) = gradient(ackley {}, &x);
        assert_eq!((v1, &g1[..]), (v, g));
    }
}

#[test]
fn one_shot_gradient_takes_one_pass_up_to_sixteen_inputs() {
    // `n` lanes rounded up to 4, 8, 10, 12, 16 or 20 (one pass up to 20 inputs, 32 lanes
    // above).
    for (n, w) in [
        (1, 4),
        (4, 4),
        (5, 8),
        (8, 8),
        (9, 10),
        (10, 10),
        (11, 12),
        (12, 12),
        (13, 16),
        (16, 16),
        (17, 20),
        (20, 20),
        (21, 32),
        (24, 32),
        (25, 32),
        (32, 32),
    ] {
        assert_eq!(gradient_width(n), w, "n = {n}");
    }
}
