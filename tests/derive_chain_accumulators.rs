//! Chains of several roots accumulated into a loop's sum (issue 30): springs, Lennard-Jones
//! pairs and a least-squares fit over flat `&[f64]` coordinates, written as users write
//! them. In one direction the chain's product `(½k·s)·s` is absorbed into one combination
//! (its coefficient on `s`'s roots `2·(½k·s)`), in batches the differences `xᵢ - xⱼ` are
//! materialised and the accumulator's tangent is one multiply-add per difference; second
//! order keeps the line-by-line rule. Each is checked against the gradient and Hessian
//! written by hand from the math, in one direction (with the parameters active and as
//! constants), batched, and in `Hyper` mode; values bit for bit.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use fwdad::drivers::{bind, gradient, hessian};
use fwdad::prelude::*;
use fwdad::ConstTangent;

/// `Σ ½k(|xᵢ - xⱼ| - Lₛ)²` over springs `(i, j)` of nodes at `x[3i..3i + 3]`.
#[derive_frule(inactive(springs, rest))]
fn spring_energy(x: &[f64], springs: &[(usize, usize)], rest: &[f64], k: f64) -> f64 {
    let mut e = 0.0;
    for s in 0..springs.len() {
        let (i, j) = springs[s];
        let dx = x[3 * i] - x[3 * j];
        let dy = x[3 * i + 1] - x[3 * j + 1];
        let dz = x[3 * i + 2] - x[3 * j + 2];
        let stretch = (dx * dx + dy * dy + dz * dz).sqrt() - rest[s];
        e += 0.5 * k * stretch * stretch;
    }
    e
}

/// `Σᵢ<ⱼ 4ε((σ/r)¹² - (σ/r)⁶)` of atoms at `x[3i..3i + 3]`.
#[derive_frule]
fn lj_energy(x: &[f64], sigma: f64, eps: f64) -> f64 {
    let n = x.len() / 3;
    let mut e = 0.0;
    for i in 0..n {
        for j in (i + 1)..n {
            let dx = x[3 * i] - x[3 * j];
            let dy = x[3 * i + 1] - x[3 * j + 1];
            let dz = x[3 * i + 2] - x[3 * j + 2];
            let r2 = dx * dx + dy * dy + dz * dz;
            let s6 = (sigma * sigma / r2).powi(3);
            e += 4.0 * eps * (s6 * s6 - s6);
        }
    }
    e
}

/// `Σ (a·e^(-b·tᵢ) + c - yᵢ)²` with `p = [a, b, c]`.
#[derive_frule(inactive(t, y))]
fn exp_fit_sse(p: &[f64], t: &[f64], y: &[f64]) -> f64 {
    let (a, b, c) = (p[0], p[1], p[2]);
    let mut sse = 0.0;
    for i in 0..t.len() {
        let r = a * (-b * t[i]).exp() + c - y[i];
        sse += r * r;
    }
    sse
}

/// Four nodes of a tetrahedron, slightly moved, and its six edges.
fn tetrahedron() -> (Vec<f64>, Vec<(usize, usize)>, Vec<f64>) {
    let x = vec![
        0.0, 0.1, -0.05, 1.1, 0.0, 0.02, 0.45, 0.95, -0.1, 0.5, 0.3, 0.85,
    ];
    let springs = vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let rest = vec![1.0, 0.9, 1.05, 1.0, 0.95, 1.1];
    (x, springs, rest)
}

/// The spring energy's gradient in `x` and its derivative in `k`, and its Hessian in `x`,
/// by hand: with `d = xᵢ - xⱼ`, `r = |d|`, `s = r - L`, `∂E/∂xᵢ = k·s·d/r` (and `-` that at
/// `xⱼ`), `∂E/∂k = Σ s²/2`, and the block `k(d dᵀ/r² + s/r (I - d dᵀ/r²))`.
fn spring_by_hand(
    x: &[f64],
    springs: &[(usize, usize)],
    rest: &[f64],
    k: f64,
) -> (Vec<f64>, f64, Vec<Vec<f64>>) {
    let n = x.len();
    let (mut g, mut gk) = (vec![0.0; n], 0.0);
    let mut h = vec![vec![0.0; n]; n];
    for (s, &(i, j)) in springs.iter().enumerate() {
        let d: Vec<f64> = (0..3).map(|a| x[3 * i + a] - x[3 * j + a]).collect();
        let r = d.iter().map(|v| v * v).sum::<f64>().sqrt();
        let st = r - rest[s];
        gk += 0.5 * st * st;
        for a in 0..3 {
            g[3 * i + a] += k * st * d[a] / r;
            g[3 * j + a] -= k * st * d[a] / r;
            for b in 0..3 {
                let nn = d[a] * d[b] / (r * r);
                let eye = if a == b { 1.0 } else { 0.0 };
                let blk = k * (nn + st / r * (eye - nn));
                h[3 * i + a][3 * i + b] += blk;
                h[3 * j + a][3 * j + b] += blk;
                h[3 * i + a][3 * j + b] -= blk;
                h[3 * j + a][3 * i + b] -= blk;
            }
        }
    }
    (g, gk, h)
}

#[test]
fn spring_energy_in_every_mode_against_the_hand_derivatives() {
    let (x, springs, rest) = tetrahedron();
    let k = 3.5;
    let (g, gk, h) = spring_by_hand(&x, &springs, &rest, k);
    let e = spring_energy(&x, &springs, &rest, k);
    let n = x.len();
    // One direction per input, `k` active (its tangent zero) and a constant.
    for j in 0..n {
        let mut dx = vec![0.0; n];
        dx[j] = 1.0;
        let active = spring_energy_frule(Dual::new(&x, &dx), &springs, &rest, Dual::new(k, 0.0));
        let constant = spring_energy_frule(
            Dual::new(&x, &dx),
            &springs,
            &rest,
            Dual::new(k, ConstTangent),
        );
        for out in [active, constant] {
            assert_eq!(out.primal.to_bits(), e.to_bits());
            assert_relative_eq!(out.tangent, g[j], max_relative = 1e-12, epsilon = 1e-12);
        }
    }
    // Along `k`, and along `x` and `k` together.
    let zero = vec![0.0; n];
    let dk = spring_energy_frule(Dual::new(&x, &zero), &springs, &rest, Dual::new(k, 1.0));
    assert_relative_eq!(dk.tangent, gk, max_relative = 1e-12);
    let dir: Vec<f64> = (0..n).map(|j| 0.3 - 0.1 * j as f64).collect();
    let both = spring_energy_frule(Dual::new(&x, &dir), &springs, &rest, Dual::new(k, -0.7));
    let want: f64 = (0..n).map(|j| g[j] * dir[j]).sum::<f64>() - 0.7 * gk;
    assert_relative_eq!(both.tangent, want, max_relative = 1e-12);
    // Batched (the gradient driver's lanes), and second order.
    let f = bind(
        spring_energy {},
        (Wrt, Inactive(&springs[..]), Inactive(&rest[..]), k),
    );
    let (v, gx) = gradient(f, &x);
    assert_eq!(v.to_bits(), e.to_bits());
    for j in 0..n {
        assert_relative_eq!(gx[j], g[j], max_relative = 1e-12, epsilon = 1e-12);
    }
    let (v, gh, hx) = hessian(f, &x);
    assert_eq!(v.to_bits(), e.to_bits());
    for a in 0..n {
        assert_relative_eq!(gh[a], g[a], max_relative = 1e-12, epsilon = 1e-12);
        for b in 0..n {
            assert_relative_eq!(hx[(a, b)], h[a][b], max_relative = 1e-10, epsilon = 1e-10);
        }
    }
}

/// The Lennard-Jones gradient by hand: `∂E/∂d = -24ε s⁶(2s⁶ - 1)/r²·d` for each pair, and
/// `∂E/∂σ = Σ 24ε(2s¹² - s⁶)/σ`, `∂E/∂ε = Σ 4(s¹² - s⁶)`.
fn lj_by_hand(x: &[f64], sigma: f64, eps: f64) -> (Vec<f64>, f64, f64) {
    let n = x.len() / 3;
    let (mut g, mut gs, mut ge) = (vec![0.0; x.len()], 0.0, 0.0);
    for i in 0..n {
        for j in (i + 1)..n {
            let d: Vec<f64> = (0..3).map(|a| x[3 * i + a] - x[3 * j + a]).collect();
            let r2: f64 = d.iter().map(|v| v * v).sum();
            let s6 = (sigma * sigma / r2).powi(3);
            let c = -24.0 * eps * s6 * (2.0 * s6 - 1.0) / r2;
            for a in 0..3 {
                g[3 * i + a] += c * d[a];
                g[3 * j + a] -= c * d[a];
            }
            gs += 24.0 * eps * (2.0 * s6 * s6 - s6) / sigma;
            ge += 4.0 * (s6 * s6 - s6);
        }
    }
    (g, gs, ge)
}

#[test]
fn lennard_jones_in_every_mode_against_the_hand_derivatives() {
    let x = [
        0.0, 0.0, 0.0, 1.15, 0.05, -0.1, 0.1, 1.2, 0.05, 1.1, 1.1, 0.2, 0.6, 0.5, 1.05,
    ];
    let (sigma, eps) = (1.0, 0.8);
    let (g, gs, ge) = lj_by_hand(&x, sigma, eps);
    let e = lj_energy(&x, sigma, eps);
    let n = x.len();
    for j in 0..n {
        let mut dx = [0.0; 15];
        dx[j] = 1.0;
        let active = lj_energy_frule(
            Dual::new(&x, &dx),
            Dual::new(sigma, 0.0),
            Dual::new(eps, 0.0),
        );
        let constant = lj_energy_frule(
            Dual::new(&x, &dx),
            Dual::new(sigma, ConstTangent),
            Dual::new(eps, ConstTangent),
        );
        for out in [active, constant] {
            assert_eq!(out.primal.to_bits(), e.to_bits());
            assert_relative_eq!(out.tangent, g[j], max_relative = 1e-12, epsilon = 1e-12);
        }
    }
    let zero = [0.0; 15];
    let ds = lj_energy_frule(
        Dual::new(&x, &zero),
        Dual::new(sigma, 1.0),
        Dual::new(eps, 0.0),
    );
    assert_relative_eq!(ds.tangent, gs, max_relative = 1e-12);
    let de = lj_energy_frule(
        Dual::new(&x, &zero),
        Dual::new(sigma, 0.0),
        Dual::new(eps, 1.0),
    );
    assert_relative_eq!(de.tangent, ge, max_relative = 1e-12);
    let f = bind(lj_energy {}, (Wrt, sigma, eps));
    let (v, gx) = gradient(f, &x);
    assert_eq!(v.to_bits(), e.to_bits());
    for j in 0..n {
        assert_relative_eq!(gx[j], g[j], max_relative = 1e-12, epsilon = 1e-12);
    }
    // Second order: the Hessian against central differences of the hand gradient.
    let (v, _, hx) = hessian(f, &x);
    assert_eq!(v.to_bits(), e.to_bits());
    for b in 0..n {
        let step = 1e-6;
        let (mut xp, mut xm) = (x, x);
        xp[b] += step;
        xm[b] -= step;
        let (gp, gm) = (lj_by_hand(&xp, sigma, eps).0, lj_by_hand(&xm, sigma, eps).0);
        for a in 0..n {
            let fd = (gp[a] - gm[a]) / (2.0 * step);
            assert_relative_eq!(hx[(a, b)], fd, max_relative = 1e-6, epsilon = 1e-5);
        }
    }
}

#[test]
fn exponential_fit_in_every_mode_against_the_hand_derivatives() {
    let t: Vec<f64> = (0..40).map(|i| i as f64 * 0.1).collect();
    let y: Vec<f64> = t
        .iter()
        .map(|t| 2.0 * (-0.7 * t).exp() + 0.3 + 0.01 * (7.0 * t).sin())
        .collect();
    let p = [1.8, 0.6, 0.25];
    // By hand: r = a·e + c - y with e = exp(-b t); ∂r = (e, -a t e, 1); the Hessian
    // 2 Σ (∂r ∂rᵀ + r ∂²r), ∂²r/∂a∂b = -t e, ∂²r/∂b² = a t² e.
    let (mut g, mut h) = ([0.0; 3], [[0.0; 3]; 3]);
    for i in 0..t.len() {
        let e = (-p[1] * t[i]).exp();
        let r = p[0] * e + p[2] - y[i];
        let dr = [e, -p[0] * t[i] * e, 1.0];
        for a in 0..3 {
            g[a] += 2.0 * r * dr[a];
            for b in 0..3 {
                h[a][b] += 2.0 * dr[a] * dr[b];
            }
        }
        h[0][1] += 2.0 * r * -t[i] * e;
        h[1][0] += 2.0 * r * -t[i] * e;
        h[1][1] += 2.0 * r * p[0] * t[i] * t[i] * e;
    }
    let v0 = exp_fit_sse(&p, &t, &y);
    for j in 0..3 {
        let mut dp = [0.0; 3];
        dp[j] = 1.0;
        let out = exp_fit_sse_frule(Dual::new(&p, &dp), &t, &y);
        assert_eq!(out.primal.to_bits(), v0.to_bits());
        assert_relative_eq!(out.tangent, g[j], max_relative = 1e-12, epsilon = 1e-12);
    }
    let f = bind(exp_fit_sse {}, (Wrt, Inactive(&t[..]), Inactive(&y[..])));
    let (v, gp) = gradient(f, &p);
    assert_eq!(v.to_bits(), v0.to_bits());
    let (v2, _, hp) = hessian(f, &p);
    assert_eq!(v2.to_bits(), v0.to_bits());
    for a in 0..3 {
        assert_relative_eq!(gp[a], g[a], max_relative = 1e-12, epsilon = 1e-12);
        for b in 0..3 {
            assert_relative_eq!(hp[(a, b)], h[a][b], max_relative = 1e-10, epsilon = 1e-10);
        }
    }
}

#[test]
fn a_spring_at_rest_length_zero_keeps_the_rules_derivative_at_the_kink() {
    // Two coincident nodes: `r = 0`, where `sqrt`'s partial is infinite; the tangent of `r`
    // is zero there (`d·ḋ = 0`), and the one-direction rule, line by line or linearised,
    // takes the strong zero: the energy's derivative is `0` in every direction.
    let x = [0.5, -0.2, 0.1, 0.5, -0.2, 0.1];
    let springs = [(0, 1)];
    let rest = [1.0];
    for j in 0..6 {
        let mut dx = [0.0; 6];
        dx[j] = 1.0;
        let out = spring_energy_frule(Dual::new(&x, &dx), &springs, &rest, Dual::new(2.0, 0.0));
        assert_eq!(out.primal, 1.0);
        assert_eq!(out.tangent, 0.0, "direction {j}");
    }
}

/// Beads on a vertical chain of springs in gravity: the beads' potential energy, then the
/// springs'.
#[derive_frule]
fn bead_chain_energy(z: &[f64], rest: f64, k: f64, mg: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..z.len() {
        e += mg * z[i];
    }
    for i in 1..z.len() {
        let s = z[i] - z[i - 1] - rest;
        e += 0.5 * k * s * s;
    }
    e
}

#[test]
fn an_accumulator_started_from_an_active_value_against_the_hand_derivatives() {
    // One direction carries the factor 2 of the springs' `½k·s·s` through the second loop
    // (divided out of the sum's tangent on entry, applied after it): the potential
    // energy's tangent must come out as it went in.
    let z = [0.3, 1.45, 2.4, 3.7, 4.6];
    let (rest, k, mg) = (1.0, 12.0, 0.8);
    let n = z.len();
    // By hand: `∂E/∂zᵢ = mg + k·sᵢ - k·sᵢ₊₁` (the springs below and above bead `i`),
    // `∂E/∂rest = -k·Σ sᵢ`, `∂E/∂k = Σ sᵢ²/2`, `∂E/∂mg = Σ zᵢ`.
    let s: Vec<f64> = (1..n).map(|i| z[i] - z[i - 1] - rest).collect();
    let g: Vec<f64> = (0..n)
        .map(|i| {
            let below = if i >= 1 { k * s[i - 1] } else { 0.0 };
            let above = if i + 1 < n { k * s[i] } else { 0.0 };
            mg + below - above
        })
        .collect();
    let g_rest = -k * s.iter().sum::<f64>();
    let g_k = s.iter().map(|s| 0.5 * s * s).sum::<f64>();
    let g_mg = z.iter().sum::<f64>();
    let e = bead_chain_energy(&z, rest, k, mg);
    let dir = [0.4, -1.1, 0.25, 0.9, -0.35];
    for (dr, dk, dm) in [(0.0, 0.0, 0.0), (0.6, -0.3, 1.7)] {
        let out = bead_chain_energy_frule(
            Dual::new(&z, &dir),
            Dual::new(rest, dr),
            Dual::new(k, dk),
            Dual::new(mg, dm),
        );
        let want = (0..n).map(|i| g[i] * dir[i]).sum::<f64>() + g_rest * dr + g_k * dk + g_mg * dm;
        assert_eq!(out.primal.to_bits(), e.to_bits());
        assert_relative_eq!(out.tangent, want, max_relative = 1e-12);
    }
    let f = bind(bead_chain_energy {}, (Wrt, rest, k, mg));
    let (v, gz) = gradient(f, &z);
    assert_eq!(v.to_bits(), e.to_bits());
    let (v2, gh, hz) = hessian(f, &z);
    assert_eq!(v2.to_bits(), e.to_bits());
    for a in 0..n {
        assert_relative_eq!(gz[a], g[a], max_relative = 1e-12, epsilon = 1e-12);
        assert_relative_eq!(gh[a], g[a], max_relative = 1e-12, epsilon = 1e-12);
        // The Hessian is `k` times the chain's Laplacian.
        for b in 0..n {
            let lap = match a.abs_diff(b) {
                0 => [a >= 1, a + 1 < n].iter().filter(|x| **x).count() as f64,
                1 => -1.0,
                _ => 0.0,
            };
            assert_relative_eq!(hz[(a, b)], k * lap, max_relative = 1e-12, epsilon = 1e-12);
        }
    }
}
