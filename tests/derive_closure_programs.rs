//! Closures and iterator chains as ML, physics and optimisation code writes them,
//! annotated unmodified: a function returning `impl Fn(f64) -> f64 + '_`,
//! `&dyn Fn(&[f64]) -> f64` parameters, `FnMut` accumulators, closures returning tuples,
//! functions passed by name to methods (`q.integrate(rhs, ..)`, also with slice
//! parameters) and to `map`
//! (`Self::f`), and the adaptors `scan`, `take_while`, `skip_while`, `step_by`, `rev`,
//! `windows`, `chunks_exact`, `partition`, `unzip`, `min_by`/`max_by`, `fold` with tuple
//! state, `try_fold`, `zip` of three, `cycle`, `flat_map`, `reduce`,
//! `std::iter::successors` and `from_fn`. (Closures stored in a struct's field, boxed
//! closures in a `Vec` and `peekable` are errors: `docs/limits.md` §4.) Each is checked
//! against central differences of the plain function in one direction, in batches of
//! four and at second order (`check_modes!`), primals bit for bit, and, where there is
//! one, against a closed form.
// Written as users write them (and a function named beside the closure calling it):
// these are the idioms under test.
#![allow(
    clippy::needless_range_loop,
    clippy::type_complexity,
    clippy::redundant_closure
)]
use fwdad::drivers::{bind, Wrt};
use fwdad::prelude::*;

mod common;
use common::modes::assert_close;

// ---------------------------------------------------------------------------------------
// A function returning `impl Fn`

/// The mean squared error of a constant model `m` against the data, as a closure.
#[derive_frule]
fn make_loss(data: &[f64]) -> impl Fn(f64) -> f64 + '_ {
    move |m| data.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / data.len() as f64
}

/// The loss at the weighted mean of its own data.
#[derive_frule]
fn loss_at_center(x: &[f64]) -> f64 {
    let loss = make_loss(x);
    let center = 0.25 * x[0] + 0.75 * x[x.len() - 1];
    loss(center)
}

#[test]
fn function_returning_impl_fn() {
    let x = [0.4, 1.1, -0.7, 2.0];
    check_modes!(loss_at_center {}, loss_at_center, x);
}

// ---------------------------------------------------------------------------------------
// `&dyn Fn(&[f64]) -> f64` parameters

/// One step of gradient descent with a gradient by central differences of `f`, then `f`.
#[derive_frule]
fn descend(f: &dyn Fn(&[f64]) -> f64, x: &[f64], lr: f64) -> f64 {
    let h = 1e-3;
    let mut next = x.to_vec();
    for i in 0..x.len() {
        let mut xp = x.to_vec();
        let mut xm = x.to_vec();
        xp[i] += h;
        xm[i] -= h;
        next[i] = x[i] - lr * (f(&xp) - f(&xm)) / (2.0 * h);
    }
    f(&next)
}

/// A quadratic bowl with a cross term, descended once.
#[derive_frule]
fn bowl_after_step(x: &[f64]) -> f64 {
    let c = x[2];
    descend(
        &|v: &[f64]| v[0] * v[0] + c * v[0] * v[1] + 2.0 * v[1] * v[1],
        &x[..2],
        0.1,
    )
}

#[test]
fn dyn_fn_of_a_slice() {
    check_modes!(bowl_after_step {}, bowl_after_step, [0.7, -0.4, 0.5]);
}

// ---------------------------------------------------------------------------------------
// `FnMut` accumulators

/// Visits every pair of a slice and hands each to `visit`.
#[derive_frule]
fn for_each_pair<F: FnMut(f64, f64)>(x: &[f64], mut visit: F) {
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            visit(x[i], x[j]);
        }
    }
}

/// A Lennard-Jones-like pair energy, summed by an accumulating closure.
#[derive_frule]
fn pair_energy(x: &[f64]) -> f64 {
    let mut e = 0.0;
    let mut pairs = 0usize;
    for_each_pair(x, |a, b| {
        let r2 = (a - b) * (a - b) + 0.5;
        e += 1.0 / (r2 * r2 * r2) - 1.0 / r2;
        pairs += 1;
    });
    e / pairs as f64
}

#[test]
fn fn_mut_accumulator() {
    check_modes!(pair_energy {}, pair_energy, [0.1, 0.8, 1.9, 2.4]);
}

// ---------------------------------------------------------------------------------------
// Closures returning tuples; `fold` with tuple state

/// Welford's running mean and variance, folded with a tuple state.
#[derive_frule]
fn welford_variance(x: &[f64]) -> f64 {
    let (_, _, m2) = x.iter().fold((0.0, 0.0, 0.0), |(n, mean, m2), &v| {
        let n1 = n + 1.0;
        let d = v - mean;
        let mean1 = mean + d / n1;
        (n1, mean1, m2 + d * (v - mean1))
    });
    m2 / (x.len() as f64 - 1.0)
}

/// Polar to Cartesian by a closure returning a pair, then the centroid's norm.
#[derive_frule]
fn centroid_radius(p: &[f64]) -> f64 {
    let to_xy = |r: f64, th: f64| (r * th.cos(), r * th.sin());
    let mut cx = 0.0;
    let mut cy = 0.0;
    for k in 0..p.len() / 2 {
        let (x, y) = to_xy(p[2 * k], p[2 * k + 1]);
        cx += x;
        cy += y;
    }
    (cx * cx + cy * cy).sqrt()
}

#[test]
fn tuple_state_and_tuple_results() {
    let x = [0.3, 1.2, -0.5, 2.2, 0.9];
    check_modes!(welford_variance {}, welford_variance, x);
    // Against the two-pass formula's gradient: ∂s²/∂xᵢ = 2 (xᵢ − x̄) / (n − 1).
    let (v, g) = gradient(welford_variance {}, &x);
    let mean = x.iter().sum::<f64>() / 5.0;
    assert_close(
        v,
        x.iter().map(|a| (a - mean).powi(2)).sum::<f64>() / 4.0,
        1e-14,
        "variance",
    );
    for i in 0..5 {
        assert_close(g[i], 2.0 * (x[i] - mean) / 4.0, 1e-12, "d var/dx");
    }
    check_modes!(
        centroid_radius {},
        centroid_radius,
        [1.0, 0.3, 2.0, 1.1, 0.5, 2.5]
    );
}

// ---------------------------------------------------------------------------------------
// `scan`, `take_while`, `skip_while`

/// The discounted return of a reward sequence, through the running products of `scan`.
#[derive_frule]
fn discounted_return(p: &[f64]) -> f64 {
    let gamma = p[0];
    p[1..]
        .iter()
        .scan(1.0, |disc, &r| {
            let term = *disc * r;
            *disc *= gamma;
            Some(term)
        })
        .sum::<f64>()
}

/// The energy of a decaying signal until it falls below a threshold, after the warm-up
/// samples above a ceiling are skipped.
#[derive_frule]
fn settled_energy(x: &[f64]) -> f64 {
    x.iter()
        .skip_while(|&&v| v > 2.0)
        .take_while(|&&v| v > 0.05)
        .map(|v| v * v)
        .sum()
}

/// A hinge penalty on the positive residuals, the loop's pattern shadowing the outer `r`
/// under a `filter` and a `take_while` (an internal error before: the `if` they lower to
/// took the shadowing for an assignment).
#[derive_frule]
fn shadowed_hinge(x: &[f64]) -> f64 {
    let r = x[0];
    let mut total = 0.0;
    for r in x.iter().filter(|v| **v > 0.0) {
        total += r * r;
    }
    for r in x[1..].iter().take_while(|v| **v < 2.0) {
        total += 0.5 * r;
    }
    total * r
}

#[test]
fn scan_take_while_skip_while() {
    check_modes!(
        shadowed_hinge {},
        shadowed_hinge,
        [0.5, -1.0, 1.5, 2.5, 0.3]
    );
    let p = [0.9, 1.0, 2.0, 0.5, -1.0];
    check_modes!(discounted_return {}, discounted_return, p);
    // ∂/∂γ Σ γᵏ rₖ = Σ k γᵏ⁻¹ rₖ.
    let (_, g) = gradient(discounted_return {}, &p);
    let want: f64 = (1..4)
        .map(|k| k as f64 * p[0].powi(k - 1) * p[1 + k as usize])
        .sum();
    assert_close(g[0], want, 1e-13, "d/dgamma");
    check_modes!(
        settled_energy {},
        settled_energy,
        [3.1, 2.5, 1.5, 0.8, 0.3, 0.01, 0.9]
    );
}

// ---------------------------------------------------------------------------------------
// `step_by`, `rev`, `windows`, `chunks_exact`

/// Horner's scheme from the highest coefficient down, every second coefficient (the even
/// part of the polynomial), through `rev` and `step_by`.
#[derive_frule]
fn even_part(p: &[f64]) -> f64 {
    let x = p[0];
    let c = &p[1..];
    c.iter()
        .step_by(2)
        .rev()
        .fold(0.0, |acc, &a| acc * x * x + a)
}

/// The total variation of a signal plus a smoothness penalty on its second differences.
#[derive_frule]
fn roughness(x: &[f64]) -> f64 {
    let tv: f64 = x.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
    let curv: f64 = x
        .windows(3)
        .map(|w| (w[0] - 2.0 * w[1] + w[2]).powi(2))
        .sum();
    tv + 0.5 * curv
}

/// The sum of squared norms of 3-vectors stored flat.
#[derive_frule]
fn packed_norms(x: &[f64]) -> f64 {
    x.chunks_exact(3)
        .map(|v| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt())
        .sum()
}

#[test]
fn step_by_rev_windows_chunks_exact() {
    let p = [0.7, 1.0, 0.4, -2.0, 0.3, 0.5];
    check_modes!(even_part {}, even_part, p);
    // c0 + c2 x² + c4 x⁴ for c = p[1..]: ∂/∂x = 2 c2 x + 4 c4 x³.
    let (v, g) = gradient(even_part {}, &p);
    let x = p[0];
    assert_close(
        v,
        p[1] + p[3] * x * x + p[5] * x.powi(4),
        1e-14,
        "even part",
    );
    assert_close(g[0], 2.0 * p[3] * x + 4.0 * p[5] * x.powi(3), 1e-13, "d/dx");
    check_modes!(roughness {}, roughness, [0.1, 0.9, 0.4, 1.6, 1.1]);
    check_modes!(
        packed_norms {},
        packed_norms,
        [0.1, 0.9, 0.4, 1.6, 1.1, -0.3, 7.0]
    );
}

// ---------------------------------------------------------------------------------------
// `partition`, `unzip`

/// A hinge loss over positive and negative margins, split with `partition`.
#[derive_frule]
fn split_hinge(m: &[f64]) -> f64 {
    let (pos, neg): (Vec<f64>, Vec<f64>) = m.iter().partition(|&&v| v >= 0.0);
    let a: f64 = pos.iter().map(|v| (1.0 - v).max(0.0)).sum();
    let b: f64 = neg.iter().map(|v| v * v).sum();
    a + 2.0 * b
}

/// Least-squares slope of points given interleaved, split with `unzip`.
#[derive_frule]
fn fitted_slope(p: &[f64]) -> f64 {
    let (xs, ys): (Vec<f64>, Vec<f64>) = p.chunks_exact(2).map(|c| (c[0], c[1])).unzip();
    let n = xs.len() as f64;
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

#[test]
fn partition_unzip() {
    check_modes!(split_hinge {}, split_hinge, [0.5, 1.7, -0.3, -0.8, 0.6]);
    check_modes!(
        fitted_slope {},
        fitted_slope,
        [0.0, 1.1, 1.0, 2.9, 2.0, 5.2, 3.0, 6.8]
    );
}

// ---------------------------------------------------------------------------------------
// `min_by`/`max_by` with `partial_cmp`, `reduce(f64::max)`, `try_fold`

/// The spread of a sample between its largest and smallest values.
#[derive_frule]
fn spread(x: &[f64]) -> f64 {
    let hi = x
        .iter()
        .copied()
        .max_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    let lo = x
        .iter()
        .copied()
        .min_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    hi - lo
}

/// A numerically stable log-sum-exp, its shift the `reduce`d maximum.
#[derive_frule]
fn logsumexp(x: &[f64]) -> f64 {
    let m = x.iter().copied().reduce(f64::max).unwrap();
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

/// A budgeted sum: `try_fold` stops (with `None`) as soon as the running cost exceeds
/// the budget, and the loss is then the budget itself.
#[derive_frule]
fn budgeted_cost(x: &[f64]) -> f64 {
    let budget = 10.0;
    x.iter()
        .try_fold(0.0, |acc, &v| {
            let next = acc + v * v;
            if next > budget {
                None
            } else {
                Some(next)
            }
        })
        .unwrap_or(budget)
}

/// The log-likelihood of positive samples, `try_fold` with a `Result` that stops at the
/// first sample out of the support.
#[derive_frule]
fn log_likelihood(x: &[f64]) -> f64 {
    let ll: Result<f64, &str> = x.iter().try_fold(0.0, |acc, &v| {
        if v > 0.0 {
            Ok(acc + v.ln() - v)
        } else {
            Err("sample out of the support")
        }
    });
    ll.unwrap_or(-1.0e6)
}

#[test]
fn extrema_reduce_try_fold() {
    let x = [0.4, 2.1, -1.3, 0.7];
    check_modes!(spread {}, spread, x);
    let (_, g) = gradient(spread {}, &x);
    assert_eq!(g, [0.0, 1.0, -1.0, 0.0]);
    check_modes!(logsumexp {}, logsumexp, x);
    // ∇ log Σ eˣ is the softmax.
    let (_, g) = gradient(logsumexp {}, &x);
    let z: f64 = x.iter().map(|v| v.exp()).sum();
    for i in 0..4 {
        assert_close(g[i], x[i].exp() / z, 1e-14, "softmax");
    }
    check_modes!(budgeted_cost {}, budgeted_cost, [0.4, 2.1, -1.3, 0.7]);
    // Over budget at the second sample: the constant budget, a zero gradient.
    let over = [2.4, 2.1, -1.3];
    let (v, g) = gradient(budgeted_cost {}, &over);
    assert_eq!(v.to_bits(), budgeted_cost(&over).to_bits());
    assert_eq!((v, g), (10.0, [0.0; 3]));
    check_modes!(log_likelihood {}, log_likelihood, [0.4, 2.1, 1.3]);
    // ∂/∂xᵢ Σ (ln x − x) = 1/xᵢ − 1; a non-positive sample stops the fold.
    let (_, g) = gradient(log_likelihood {}, &[0.4, 2.1]);
    assert_close(g[0], 1.0 / 0.4 - 1.0, 1e-15, "d/dx0");
    assert_close(g[1], 1.0 / 2.1 - 1.0, 1e-15, "d/dx1");
    let (v, g) = gradient(log_likelihood {}, &[0.4, -2.1, 1.3]);
    assert_eq!((v, g), (-1.0e6, [0.0; 3]));
}

// ---------------------------------------------------------------------------------------
// `zip` of three, `cycle().take(n)`, `flat_map` over nested `Vec`s

/// A weighted residual sum over three aligned columns.
#[derive_frule]
fn weighted_residuals(p: &[f64]) -> f64 {
    let n = p.len() / 3;
    let (w, rest) = p.split_at(n);
    let (y, f) = rest.split_at(n);
    w.iter()
        .zip(y.iter())
        .zip(f.iter())
        .map(|((w, y), f)| w * (y - f) * (y - f))
        .sum::<f64>()
}

/// A periodic forcing: `n` steps of a damped sum with the pattern cycled.
#[derive_frule]
fn cycled_forcing(p: &[f64]) -> f64 {
    let k = p[0];
    let pattern = &p[1..];
    let mut y = 0.0;
    for f in pattern.iter().cycle().take(7) {
        y = k * y + f;
    }
    y
}

/// The Frobenius norm² of a ragged matrix held as rows, flattened with `flat_map`.
#[derive_frule]
fn ragged_energy(x: &[f64]) -> f64 {
    let rows: Vec<Vec<f64>> = vec![x[..2].to_vec(), x[2..].to_vec()];
    rows.iter()
        .flat_map(|r| r.iter())
        .map(|v| v * v)
        .sum::<f64>()
        * x[0]
}

#[test]
fn zip_of_three_cycle_flat_map() {
    check_modes!(
        weighted_residuals {},
        weighted_residuals,
        [0.5, 1.5, 1.0, 2.0, 0.3, 1.7]
    );
    check_modes!(cycled_forcing {}, cycled_forcing, [0.8, 1.0, -0.5, 0.25]);
    check_modes!(ragged_energy {}, ragged_energy, [0.8, 1.0, -0.5, 0.25, 1.1]);
}

// ---------------------------------------------------------------------------------------
// `std::iter::successors` and `std::iter::from_fn`

/// √a by Newton's iteration x ← x − (x² − a) / 2x, as a sequence of iterates.
#[derive_frule]
fn newton_sqrt(p: &[f64]) -> f64 {
    let a = p[0];
    std::iter::successors(Some(1.0), |&x| Some(x - (x * x - a) / (2.0 * x)))
        .take(30)
        .last()
        .unwrap()
        * p[1]
}

/// The sum of the first ten Fibonacci-like terms with a growth factor, by `from_fn`.
#[derive_frule]
fn damped_fibonacci(p: &[f64]) -> f64 {
    let r = p[0];
    let mut a = p[1];
    let mut b = p[2];
    std::iter::from_fn(|| {
        let next = a + r * b;
        a = b;
        b = next;
        Some(a)
    })
    .take(10)
    .sum::<f64>()
}

/// The sum of the iterates of a contraction until one falls below a tolerance (`use`d
/// `successors`, its step returning `None` early with `return`).
#[derive_frule]
fn contraction_sum(p: &[f64]) -> f64 {
    use std::iter::successors;
    let tol = 0.1;
    successors(Some(p[0]), |&x| {
        if x.abs() < tol {
            return None;
        }
        Some(0.5 * x + 0.01 * p[1])
    })
    .sum::<f64>()
}

/// A truncated geometric series by `from_fn`, ending with `None` after eight terms.
#[derive_frule]
fn geometric_terms(p: &[f64]) -> f64 {
    let r = p[1];
    let mut term = p[0];
    let mut k = 0;
    std::iter::from_fn(|| {
        k += 1;
        if k > 8 {
            None
        } else {
            term *= r;
            Some(term)
        }
    })
    .sum::<f64>()
}

/// Gradient descent on a quadratic bowl as a trajectory of iterates (tuple items), the
/// step a closure bound with `let`; the loss at the last iterate plus the trajectory's
/// mean height, collected and through `map`.
#[derive_frule]
fn descent_trajectory(p: &[f64]) -> f64 {
    let (a, b, lr) = (p[0], p[1], 0.1);
    let loss = |x: f64, y: f64| a * x * x + b * y * y + x * y;
    let step =
        |&(x, y): &(f64, f64)| Some((x - lr * (2.0 * a * x + y), y - lr * (2.0 * b * y + x)));
    let path: Vec<(f64, f64)> = std::iter::successors(Some((p[2], p[3])), step)
        .take(12)
        .collect();
    let heights: f64 = std::iter::successors(Some((p[2], p[3])), step)
        .map(|(x, y)| loss(x, y))
        .take(12)
        .sum();
    let (x, y) = path[path.len() - 1];
    let mut visited = 0.0;
    for (x, _) in std::iter::successors(Some((p[2], p[3])), step).take(3) {
        visited += x;
    }
    loss(x, y) + heights / 12.0 + visited
}

#[test]
fn successors_and_from_fn() {
    let p = [2.0, 1.5];
    check_modes!(newton_sqrt {}, newton_sqrt, p);
    // Converged: √a · c, with ∂/∂a = c / (2√a).
    let (v, g) = gradient(newton_sqrt {}, &p);
    assert_close(v, 2f64.sqrt() * 1.5, 1e-15, "sqrt");
    assert_close(g[0], 1.5 / (2.0 * 2f64.sqrt()), 1e-14, "d/da");
    check_modes!(damped_fibonacci {}, damped_fibonacci, [0.9, 1.0, 0.5]);
    // Iterates 1.3, 0.654, 0.331, 0.1695, 0.0888 (the last below the tolerance, still
    // yielded): the sum is linear in p with slopes Σ 2⁻ᵏ and 0.01 Σₖ Σⱼ<ₖ 2⁻ʲ.
    let p = [1.3, 0.4];
    check_modes!(contraction_sum {}, contraction_sum, p);
    let (_, g) = gradient(contraction_sum {}, &p);
    assert_close(g[0], 1.0 + 0.5 + 0.25 + 0.125 + 0.0625, 1e-15, "d/dx0");
    assert_close(g[1], 0.01 * (1.0 + 1.5 + 1.75 + 1.875), 1e-15, "d/dc");
    check_modes!(
        descent_trajectory {},
        descent_trajectory,
        [1.2, 0.7, 1.0, -0.5]
    );
    let p = [0.7, 0.8];
    check_modes!(geometric_terms {}, geometric_terms, p);
    // Σₖ₌₁⁸ a rᵏ: ∂/∂a = Σ rᵏ, ∂/∂r = Σ k a rᵏ⁻¹.
    let (_, g) = gradient(geometric_terms {}, &p);
    let da: f64 = (1..=8).map(|k| p[1].powi(k)).sum();
    let dr: f64 = (1..=8).map(|k| k as f64 * p[0] * p[1].powi(k - 1)).sum();
    assert_close(g[0], da, 1e-14, "d/da");
    assert_close(g[1], dr, 1e-14, "d/dr");
}

// ---------------------------------------------------------------------------------------
// Functions passed by name to methods and to `map`

/// A fixed-step integrator of the user's, taking the right-hand side as a function value.
#[derive(Differentiable, Clone, Debug)]
pub struct Euler {
    pub dt: f64,
    pub steps: usize,
}

#[derive_frule]
impl Euler {
    /// `steps` explicit Euler steps of y' = f(y) from `y0`.
    pub fn integrate<F: Fn(f64) -> f64>(&self, f: F, y0: f64) -> f64 {
        let mut y = y0;
        for _ in 0..self.steps {
            y += self.dt * f(y);
        }
        y
    }

    /// `steps` explicit Euler steps of the system y' = f(t, y), in place, the right-hand
    /// side writing into a buffer.
    pub fn integrate_system<F: Fn(f64, &[f64], &mut [f64])>(&self, f: F, y: &mut [f64]) {
        let mut dy = vec![0.0; y.len()];
        for s in 0..self.steps {
            f(s as f64 * self.dt, y, &mut dy);
            for i in 0..y.len() {
                y[i] += self.dt * dy[i];
            }
        }
    }

    /// The softplus of each sample through an associated function named in `map`.
    fn softplus(x: f64) -> f64 {
        (1.0 + x.exp()).ln()
    }

    /// The mean softplus of `x`, by `Self::softplus` and by `Euler::softplus`.
    pub fn mean_softplus(&self, x: &[f64]) -> f64 {
        let a = x.iter().copied().map(Self::softplus).sum::<f64>();
        let b: f64 = x.iter().copied().map(Euler::softplus).sum();
        0.5 * (a + b) / x.len() as f64
    }
}

/// The logistic right-hand side r y (1 − y), r fixed.
#[derive_frule]
fn logistic_rhs(y: f64) -> f64 {
    1.5 * y * (1.0 - y)
}

/// The logistic state at t = 1 from `y0` (by method syntax and by path, halved), plus a
/// mean softplus.
#[derive_frule]
fn grown(p: &[f64]) -> f64 {
    let solver = Euler {
        dt: 0.001,
        steps: 1000,
    };
    let a = solver.integrate(logistic_rhs, p[0]);
    let b = Euler::integrate(&solver, logistic_rhs, p[0]);
    0.5 * (a + b) + solver.mean_softplus(&p[1..])
}

/// A harmonic oscillator y'' = −y as a first-order system.
#[derive_frule]
fn oscillator_rhs(_t: f64, y: &[f64], dy: &mut [f64]) {
    dy[0] = y[1];
    dy[1] = -y[0];
}

/// The oscillator's position at t = 1 from (p₀, p₁), by a function named to a method
/// (its parameters borrow slices), plus the same through a closure.
#[derive_frule]
fn oscillator_at_one(p: &[f64]) -> f64 {
    let solver = Euler {
        dt: 0.001,
        steps: 1000,
    };
    let mut y = [p[0], p[1]];
    solver.integrate_system(oscillator_rhs, &mut y);
    let mut z = [p[0], p[1]];
    solver.integrate_system(|t, y, dy| oscillator_rhs(t, y, dy), &mut z);
    y[0] + z[0]
}

#[test]
fn functions_by_name_to_methods_and_map() {
    let p = [0.3, -0.8];
    check_modes!(oscillator_at_one {}, oscillator_at_one, p);
    // y(1) = p₀ cos 1 + p₁ sin 1 (twice), within Euler's O(dt).
    let (_, g) = gradient(oscillator_at_one {}, &p);
    assert!((g[0] - 2.0 * 1f64.cos()).abs() < 2e-3, "d/dp0 {}", g[0]);
    assert!((g[1] - 2.0 * 1f64.sin()).abs() < 2e-3, "d/dp1 {}", g[1]);
    let p = [0.2, 0.5, -1.0];
    check_modes!(grown {}, grown, p);
    // The logistic flow y(1) = y0 e^r / (1 − y0 + y0 e^r): ∂/∂y0 = e^r / (1 − y0 + y0 e^r)²,
    // within Euler's O(dt) of the steps; the softplus' derivative is the logistic σ.
    let (_, g) = gradient(grown {}, &p);
    let e = 1.5f64.exp();
    let want = e / (1.0 - p[0] + p[0] * e).powi(2);
    assert!((g[0] - want).abs() < 1e-2 * want, "{} against {want}", g[0]);
    let sigma = |x: f64| 1.0 / (1.0 + (-x).exp());
    assert_close(g[1], sigma(p[1]) / 2.0, 1e-14, "d/dx1");
    assert_close(g[2], sigma(p[2]) / 2.0, 1e-14, "d/dx2");
}

#[test]
fn bound_wrt_arguments() {
    // The same rules through `bind`, as a caller fixing nothing but the point.
    let x = [0.4, 1.1, -0.7, 2.0];
    let (v, _) = gradient(bind(loss_at_center {}, (Wrt,)), &x);
    assert_eq!(v.to_bits(), loss_at_center(&x).to_bits());
}
