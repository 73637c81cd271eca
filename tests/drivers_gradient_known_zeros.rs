//! `MaybeZero` tangents (a batch that knows when it is zero) through derived rules: the
//! same derivatives as `Batch`, checked against finite differences and hand-derived
//! formulas, in one direction, in batches and at second order, and through `gradient`'s
//! plans.

// The functions index slices in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{
    bind, gradient_with, hessian_with, GradientPlan, GradientWorkspace, Inactive, SliceRule, Wrt,
};
use fwdad::prelude::*;
use fwdad::{Hyper, Lanes, MaybeZero, ScalarTangent};

/// A chain of springs with a quartic on-site potential (each term reads two inputs).
#[derive_frule]
fn chain_energy(x: &[f64]) -> f64 {
    let mut e = 0.0;
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] - 1.0;
        e += 0.5 * d * d + 0.25 * x[i].powi(4);
    }
    e
}

/// A soft-max attention score: every value soon depends on every input.
#[derive_frule]
fn log_sum_exp_norm(x: &[f64]) -> f64 {
    let mut m = x[0];
    for i in 1..x.len() {
        if x[i] > m {
            m = x[i];
        }
    }
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (x[i] - m).exp();
    }
    let norm: f64 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    m + s.ln() + 0.1 * norm
}

/// A pendulum chain's potential with a local buffer filled and updated in place.
#[derive_frule]
fn pendulum_potential(theta: &[f64]) -> f64 {
    let n = theta.len();
    let mut height = vec![0.0; n];
    let mut y = 0.0;
    for i in 0..n {
        y -= theta[i].cos();
        height[i] = y;
    }
    let mut v = 0.0;
    for i in 0..n {
        let w = 1.0 / (1.0 + i as f64);
        v += w * height[i] + 0.05 * (theta[i] / (1.0 + theta[i] * theta[i]));
    }
    v
}

/// Negative log-likelihood of points under a Gaussian mixture (ADBench's GMM without the
/// prior): component `c` has log-weight `α_c`, mean `μ_c` and precision factor
/// `Q_c = diag(exp q_c) + L_c` (`L_c` strictly lower triangular, row by row). Each point's
/// centred coordinates and their product with `Q_c` go through buffers reused for every
/// point and component.
#[derive_frule(inactive(points))]
fn mixture_nll(params: &[f64], points: &[f64], d: usize, k: usize) -> f64 {
    let n = points.len() / d;
    let tri = d * (d - 1) / 2;
    let (mu, q, l) = (k, k + k * d, k + 2 * k * d);
    let mut centred = vec![0.0; d];
    let mut scaled = vec![0.0; d];
    let mut log_p = vec![0.0; k];
    let mut nll = 0.0;
    for p in 0..n {
        for c in 0..k {
            for j in 0..d {
                centred[j] = points[p * d + j] - params[mu + c * d + j];
            }
            let mut log_det = 0.0;
            for j in 0..d {
                let qj = params[q + c * d + j];
                log_det += qj;
                scaled[j] = qj.exp() * centred[j];
            }
            let mut idx = l + c * tri;
            for i in 0..d {
                for j in i + 1..d {
                    scaled[j] += params[idx] * centred[i];
                    idx += 1;
                }
            }
            let mut sq = 0.0;
            for j in 0..d {
                sq += scaled[j] * scaled[j];
            }
            log_p[c] = params[c] + log_det - 0.5 * sq;
        }
        let mut m = log_p[0];
        for c in 1..k {
            if log_p[c] > m {
                m = log_p[c];
            }
        }
        let mut s = 0.0;
        for c in 0..k {
            s += (log_p[c] - m).exp();
        }
        nll -= m + s.ln();
    }
    nll
}

fn chain_grad(x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for i in 0..x.len() - 1 {
        let d = x[i + 1] - x[i] - 1.0;
        g[i] += -d + x[i].powi(3);
        g[i + 1] += d;
    }
    g
}

fn point(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 3.0 - 1.5
        })
        .collect()
}

/// Central differences of `f` along every input.
fn fd_gradient(f: fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let h = 1e-6;
    (0..x.len())
        .map(|i| {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[i] += h;
            b[i] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

fn assert_near(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "{what}, entry {i}: {g} against {w}"
        );
    }
}

type B4 = Batch<f64, 4>;
type Z4 = MaybeZero<B4>;

/// One pass seeding inputs `start..start + 4` in lanes 0..4 (the others zero), with
/// `Batch` and with `MaybeZero` tangents.
fn pass<F>(f: &F, x: &[f64], start: usize) -> ((f64, B4), (f64, Z4), usize)
where
    F: SliceRule<B4, Output = Dual<f64, B4>> + SliceRule<Z4, Output = Dual<f64, Z4>>,
{
    let unit = |i: usize| move |l: usize| if start + l == i { 1.0 } else { 0.0 };
    let db: Vec<B4> = (0..x.len()).map(|i| B4::from_lanes(unit(i))).collect();
    let dz: Vec<Z4> = (0..x.len()).map(|i| Z4::from_lanes(unit(i))).collect();
    let known_zeros = dz.iter().filter(|t| t.is_known_zero()).count();
    let b = SliceRule::<B4>::eval(f, x, &db);
    let z = SliceRule::<Z4>::eval(f, x, &dz);
    ((b.primal, b.tangent), (z.primal, z.tangent), known_zeros)
}

#[test]
fn chunks_with_known_zeros_equal_the_batch_and_the_formula() {
    for n in [5, 9, 23] {
        let x = point(n, n as u64);
        let want = chain_grad(&x);
        let fd = fd_gradient(chain_energy, &x);
        let mut start = 0;
        while start < n {
            let ((vb, tb), (vz, tz), zeros) = pass(&chain_energy {}, &x, start);
            assert_eq!(
                zeros,
                n - (n - start).min(4),
                "seeds outside the chunk are known zeros"
            );
            assert_eq!(vz.to_bits(), chain_energy(&x).to_bits());
            assert_eq!(vb.to_bits(), vz.to_bits());
            for l in 0..4.min(n - start) {
                assert_eq!(tz.lane(l), tb.lane(l), "n = {n}, input {}", start + l);
                let (w, d) = (want[start + l], fd[start + l]);
                assert!((tz.lane(l) - w).abs() <= 1e-12 * (1.0 + w.abs()));
                assert!((tz.lane(l) - d).abs() <= 1e-6 * (1.0 + d.abs()));
            }
            start += 4;
        }
    }
}

#[test]
fn branches_maxima_iterators_and_buffers_agree_with_batch_and_finite_differences() {
    for n in [6, 13] {
        let x = point(n, 7 + n as u64);
        for (name, f, rule) in [
            (
                "log_sum_exp_norm",
                log_sum_exp_norm as fn(&[f64]) -> f64,
                0usize,
            ),
            ("pendulum_potential", pendulum_potential, 1),
        ] {
            let fd = fd_gradient(f, &x);
            let mut start = 0;
            while start < n {
                let ((vb, tb), (vz, tz), _) = if rule == 0 {
                    pass(&log_sum_exp_norm {}, &x, start)
                } else {
                    pass(&pendulum_potential {}, &x, start)
                };
                assert_eq!(vz.to_bits(), f(&x).to_bits(), "{name}");
                assert_eq!(vb.to_bits(), vz.to_bits(), "{name}");
                for l in 0..4.min(n - start) {
                    assert_eq!(tz.lane(l), tb.lane(l), "{name}, input {}", start + l);
                    let d = fd[start + l];
                    assert!(
                        (tz.lane(l) - d).abs() <= 1e-6 * (1.0 + d.abs()),
                        "{name}, input {}: {} against {d}",
                        start + l,
                        tz.lane(l)
                    );
                }
                start += 4;
            }
        }
    }
}

#[test]
fn dense_directions_are_the_batch_bit_for_bit() {
    // Every seed live: `MaybeZero` runs `Batch`'s operations (`a + b` as `b + 1·a`,
    // `a - b` as `a + (-1)·b`, each exact).
    let x = point(11, 3);
    let dirs: Vec<[f64; 4]> = (0..11)
        .map(|i| [1.0, -0.5 * i as f64, 0.25, (i % 3) as f64])
        .collect();
    let db: Vec<B4> = dirs.iter().map(|d| Batch(*d)).collect();
    let dz: Vec<Z4> = db.iter().map(|&d| MaybeZero::new(d)).collect();
    for (b, z) in [
        (
            SliceRule::<B4>::eval(&chain_energy {}, &x, &db),
            SliceRule::<Z4>::eval(&chain_energy {}, &x, &dz),
        ),
        (
            SliceRule::<B4>::eval(&pendulum_potential {}, &x, &db),
            SliceRule::<Z4>::eval(&pendulum_potential {}, &x, &dz),
        ),
    ] {
        assert_eq!(b.primal.to_bits(), z.primal.to_bits());
        assert_eq!(
            b.tangent.0.map(f64::to_bits),
            z.tangent.get().0.map(f64::to_bits)
        );
    }
}

#[test]
fn one_direction_with_known_zeros_is_the_plain_rule() {
    let x = point(8, 5);
    let fd = fd_gradient(pendulum_potential, &x);
    for i in 0..8 {
        let dz: Vec<MaybeZero<f64>> = (0..8)
            .map(|k| {
                if k == i {
                    MaybeZero::new(1.0)
                } else {
                    MaybeZero::zero()
                }
            })
            .collect();
        let d: Vec<f64> = (0..8).map(|k| if k == i { 1.0 } else { 0.0 }).collect();
        let z = SliceRule::<MaybeZero<f64>>::eval(&pendulum_potential {}, &x, &dz);
        let p = pendulum_potential_frule(Dual::new(&x[..], &d[..]));
        assert_eq!(z.primal.to_bits(), p.primal.to_bits());
        assert_eq!(z.tangent.get(), p.tangent, "input {i}");
        assert!((p.tangent - fd[i]).abs() <= 1e-6 * (1.0 + fd[i].abs()));
    }
}

#[test]
fn second_order_with_known_zeros_matches_the_hessian() {
    // `Hyper` with `MaybeZero` first-order lanes: `d1` seeds a chunk of inputs (the
    // others known zero), `d2` one column; `d12` is that column of the Hessian.
    type H = Hyper<f64, Z4>;
    let n = 7;
    let x = point(n, 11);
    let (_, _, hess) = hessian_with::<4>(chain_energy {}, &x);
    let h = 1e-6;
    for j in 0..n {
        // The column from central differences of the hand-derived gradient.
        let (mut a, mut b) = (x.clone(), x.clone());
        a[j] += h;
        b[j] -= h;
        let (ga, gb) = (chain_grad(&a), chain_grad(&b));
        let mut start = 0;
        while start < n {
            let dx: Vec<H> = (0..n)
                .map(|i| Hyper {
                    d1: Z4::from_lanes(|l| if start + l == i { 1.0 } else { 0.0 }),
                    d2: if i == j { 1.0 } else { 0.0 },
                    d12: Z4::zero(),
                })
                .collect();
            let y = SliceRule::<H>::eval(&chain_energy {}, &x, &dx);
            assert_eq!(y.primal.to_bits(), chain_energy(&x).to_bits());
            for l in 0..4.min(n - start) {
                let i = start + l;
                assert_eq!(y.tangent.d12.lane(l), hess[(i, j)], "({i}, {j})");
                let fd = (ga[i] - gb[i]) / (2.0 * h);
                assert!((y.tangent.d12.lane(l) - fd).abs() <= 1e-6 * (1.0 + fd.abs()));
            }
            start += 4;
        }
    }
}

#[test]
fn every_plan_of_the_workspace_gives_the_same_gradient() {
    let mut ws = GradientWorkspace::new();
    for n in [17, 40, 100] {
        let x = point(n, 100 + n as u64);
        let want = chain_grad(&x);
        let dense = gradient_with::<8>(chain_energy {}, &x);
        assert_near(&dense.1, &want, 1e-12, "Batch 8");
        for plan in GradientPlan::CANDIDATES {
            let (v, g) = ws.gradient_with_plan(chain_energy {}, &x, plan);
            assert_eq!(v.to_bits(), dense.0.to_bits());
            assert_eq!(g, &dense.1[..], "n = {n}, {plan:?}");
        }
        let fd = fd_gradient(log_sum_exp_norm, &x);
        let dense = gradient_with::<16>(log_sum_exp_norm {}, &x);
        assert_near(&dense.1, &fd, 1e-6, "log_sum_exp_norm");
        for plan in GradientPlan::CANDIDATES {
            let (_, g) = ws.gradient_with_plan(log_sum_exp_norm {}, &x, plan);
            assert_eq!(g, &dense.1[..], "n = {n}, {plan:?}");
        }
    }
}

#[test]
fn a_known_zero_adds_nothing_and_skips_an_infinite_partial() {
    // √x at 0 has an infinite derivative. Along a direction that does not move x[0]
    // the product x[1]·√x[0] has derivative √0 = 0: `Batch` keeps it by its strong zero,
    // `MaybeZero` by knowing the tangent zero.
    #[derive_frule]
    fn root_product(x: &[f64]) -> f64 {
        x[1] * x[0].sqrt() + x[2] * x[1]
    }
    let x = [0.0, 2.0, 3.0];
    let ((_, tb), (_, tz), zeros) = pass(&root_product {}, &x, 1);
    assert_eq!(zeros, 1);
    // Lanes 0 and 1 are ∂/∂x₁ = √x₀ + x₂ = 3 and ∂/∂x₂ = x₁ = 2.
    assert_eq!((tz.lane(0), tz.lane(1)), (3.0, 2.0));
    assert_eq!((tb.lane(0), tb.lane(1)), (3.0, 2.0));
}

#[test]
fn buffers_rewritten_per_point_hold_known_zeros_and_live_tangents_in_turn() {
    // d = 3, k = 3: 30 parameters, so every plan runs several passes; in a pass that seeds
    // one component's parameters the buffers hold live tangents for that component and
    // known zeros for the others, rewritten in turn at every point.
    let (d, k) = (3, 3);
    let points: Vec<f64> = point(7 * d, 5);
    let mut params = point(k + 3 * k * d, 11);
    for v in &mut params[k + k * d..k + 2 * k * d] {
        *v *= 0.3; // log-diagonal entries: moderate precisions
    }
    let nll = |p: &[f64]| mixture_nll(p, &points, d, k);
    let h = 1e-6;
    let fd: Vec<f64> = (0..params.len())
        .map(|i| {
            let (mut a, mut b) = (params.clone(), params.clone());
            a[i] += h;
            b[i] -= h;
            (nll(&a) - nll(&b)) / (2.0 * h)
        })
        .collect();
    let rule = || bind(mixture_nll {}, (Wrt, Inactive(&points[..]), d, k));
    let dense = gradient_with::<8>(rule(), &params);
    assert_eq!(dense.0.to_bits(), nll(&params).to_bits());
    assert_near(&dense.1, &fd, 1e-6, "Batch 8 against central differences");
    let mut ws = GradientWorkspace::new();
    for plan in GradientPlan::CANDIDATES {
        let (v, g) = ws.gradient_with_plan(rule(), &params, plan);
        assert_eq!(v.to_bits(), dense.0.to_bits(), "{plan:?}");
        assert_eq!(g, &dense.1[..], "{plan:?}");
    }
}
