//! A corpus for the `linear` pass: chains of scalar float operations meeting loops,
//! branches, early returns, matches, iterators, closures, stores, calls, methods, generics,
//! `f32` and non-linearised rules. Linearisation only applies with batched tangents, so each
//! function is run in `Batch<f64, 3>` mode and checked (1) with `test_frule_batched`, (2)
//! lane by lane against the one-direction rule (which is never linearised), and (3) where
//! the math is easy, against a derivative written by hand.
// `b - b` and `a + a` in `signed_sums` are the point of that case (zero and doubled unit
// partials), so `eq_op` is off.
#![allow(clippy::needless_range_loop, clippy::eq_op)]

use approx::assert_relative_eq;
use fwdad::drivers::{bind, gradient, inplace, jacobian, jvp, Out, Wrt};
use fwdad::prelude::*;
use fwdad::testing::test_frule_batched;

type B = Batch<f64, 3>;

// ---- helpers ------------------------------------------------------------------------

/// Lane seeds over `k` inputs: two unit vectors (`e_j`, `e_{j+1}`) and a dense direction.
fn seed_sets(k: usize) -> Vec<[Vec<f64>; 3]> {
    (0..k)
        .step_by(2)
        .map(|j| {
            let unit = |i: usize| (0..k).map(|m| f64::from(u8::from(m == i % k))).collect();
            let dense = (0..k)
                .map(|m| ((m + 3 * j) as f64 * 1.7 + 0.4).sin())
                .collect();
            [unit(j), unit(j + 1), dense]
        })
        .collect()
}

fn close(got: f64, want: f64, tol: f64, what: &str) {
    let scale = got.abs().max(want.abs()).max(1e-3);
    assert!(
        (got - want).abs() <= tol * scale,
        "{what}: got {got:e}, want {want:e}"
    );
}

/// Checks a rule over `K` scalar inputs: `test_frule_batched`, then batched lanes against
/// the one-direction rule (and against `grad`, a hand-written gradient, if given).
fn check_scalar<const K: usize>(
    x: [f64; K],
    plain: impl Fn([f64; K]) -> f64,
    batch: impl Fn([Dual<f64, B>; K]) -> Dual<f64, B>,
    single: impl Fn([Dual<f64, f64>; K]) -> Dual<f64, f64>,
    grad: Option<[f64; K]>,
) {
    test_frule_batched::<3, _, _>(
        x,
        |a| plain(*a),
        |a, da| batch(std::array::from_fn(|j| dual(a[j], da[j]))),
    );
    for seeds in seed_sets(K) {
        let out = batch(std::array::from_fn(|j| {
            dual(x[j], Batch(std::array::from_fn(|l| seeds[l][j])))
        }));
        for (l, s) in seeds.iter().enumerate() {
            let one = single(std::array::from_fn(|j| dual(x[j], s[j])));
            assert_eq!(out.primal.to_bits(), one.primal.to_bits());
            close(out.tangent.0[l], one.tangent, 1e-12, "batch vs single");
            if let Some(g) = grad {
                let want: f64 = (0..K).map(|j| g[j] * s[j]).sum();
                close(out.tangent.0[l], want, 1e-10, "batch vs hand");
            }
        }
    }
}

/// [`check_scalar`] for a rule over one slice.
fn check_slice(
    x: &[f64],
    plain: impl Fn(&[f64]) -> f64,
    batch: impl Fn(&[f64], &[B]) -> Dual<f64, B>,
    single: impl Fn(&[f64], &[f64]) -> Dual<f64, f64>,
    grad: Option<&[f64]>,
) {
    test_frule_batched::<3, _, _>((x.to_vec(),), |a| plain(&a.0), |a, da| batch(&a.0, &da.0));
    for seeds in seed_sets(x.len()) {
        let dx: Vec<B> = (0..x.len())
            .map(|j| Batch(std::array::from_fn(|l| seeds[l][j])))
            .collect();
        let out = batch(x, &dx);
        for (l, s) in seeds.iter().enumerate() {
            let one = single(x, s);
            assert_eq!(out.primal.to_bits(), one.primal.to_bits());
            close(out.tangent.0[l], one.tangent, 1e-12, "batch vs single");
            if let Some(g) = grad {
                let want: f64 = g.iter().zip(s).map(|(g, s)| g * s).sum();
                close(out.tangent.0[l], want, 1e-10, "batch vs hand");
            }
        }
    }
}

/// `Dual::new`, short.
fn dual<P: Differentiable, T>(primal: P, tangent: T) -> Dual<P, T> {
    Dual::new(primal, tangent)
}

/// The batched rule of `$f` on duals.
macro_rules! rule {
    ($f:ident, $($d:expr),+ $(,)?) => {
        <$f as Frule<_, B>>::frule(&$f {}, ($($d,)+))
    };
}

// ---- 1. a loop body with several chains and two accumulators ------------------------

#[derive_frule]
fn loop_chains(x: &[f64], mu: f64, sigma: f64) -> f64 {
    let mut ll = 0.0;
    let mut reg = 0.0;
    for i in 0..x.len() {
        let z = (x[i] - mu) / sigma;
        ll -= 0.5 * z * z + sigma.ln();
        let q = x[i] * mu - 1.0;
        reg += q.tanh() * q + (0.1 * x[i]).exp();
    }
    ll + 0.01 * reg
}

/// (∂/∂x, ∂/∂mu, ∂/∂sigma) by hand.
fn loop_chains_grad(x: &[f64], mu: f64, sigma: f64) -> (Vec<f64>, f64, f64) {
    let (mut gx, mut gmu, mut gs) = (vec![0.0; x.len()], 0.0, 0.0);
    for i in 0..x.len() {
        let z = (x[i] - mu) / sigma;
        let q = x[i] * mu - 1.0;
        let dq = q.tanh() + q * (1.0 - q.tanh().powi(2));
        gx[i] = -z / sigma + 0.01 * (dq * mu + 0.1 * (0.1 * x[i]).exp());
        gmu += z / sigma + 0.01 * dq * x[i];
        gs += z * z / sigma - 1.0 / sigma;
    }
    (gx, gmu, gs)
}

#[test]
fn loop_with_several_chains() {
    let x = vec![0.3, -1.2, 2.1, 0.7, -0.4];
    let (mu, sigma) = (0.4, 1.3);
    let (gx, gmu, gs) = loop_chains_grad(&x, mu, sigma);
    test_frule_batched::<3, _, _>(
        (x.clone(), mu, sigma),
        |a| loop_chains(&a.0, a.1, a.2),
        |a, da| {
            rule!(
                loop_chains,
                dual(&a.0[..], &da.0[..]),
                dual(a.1, da.1),
                dual(a.2, da.2)
            )
        },
    );
    check_slice(
        &x,
        |x| loop_chains(x, mu, sigma),
        |x, dx| {
            let (m, s) = (dual(mu, B::default()), dual(sigma, B::default()));
            rule!(loop_chains, dual(x, dx), m, s)
        },
        |x, dx| loop_chains_frule(dual(x, dx), dual(mu, 0.0), dual(sigma, 0.0)),
        None,
    );
    // With the scalar seeds above: lane 0 adds ∂/∂mu, lane 1 ∂/∂sigma, lane 2 their mix.
    let dx0 = vec![B::default(); x.len()];
    let out = rule!(
        loop_chains,
        dual(&x[..], &dx0[..]),
        dual(mu, Batch([1.0, 0.0, 0.5])),
        dual(sigma, Batch([0.0, 1.0, -0.5]))
    );
    close(out.tangent.0[0], gmu, 1e-12, "d/dmu");
    close(out.tangent.0[1], gs, 1e-12, "d/dsigma");
    close(out.tangent.0[2], 0.5 * gmu - 0.5 * gs, 1e-12, "mix");
    // Width 8 over all of x, linearised, against the hand gradient.
    let (v, g) = gradient(bind(loop_chains {}, (Wrt, mu, sigma)), &x);
    assert_eq!(v.to_bits(), loop_chains(&x, mu, sigma).to_bits());
    for j in 0..x.len() {
        close(g[j], gx[j], 1e-12, "gradient");
    }
}

// ---- 2. a chain value in an `if` condition and in both branches ---------------------

#[derive_frule]
fn branchy(x: f64, y: f64) -> f64 {
    let t = x * y - y.sin();
    let r = if t > 0.5 {
        let u = t * t + x;
        u.sqrt() * y
    } else {
        let v = (t - 1.0).exp();
        v / (1.0 + x * x)
    };
    r + t * 0.25
}

fn branchy_grad(x: f64, y: f64) -> [f64; 2] {
    let t = x * y - y.sin();
    let (tx, ty) = (y, x - y.cos());
    let (rx, ry) = if t > 0.5 {
        let su = (t * t + x).sqrt();
        (y * (2.0 * t * tx + 1.0) / (2.0 * su), y * t * ty / su + su)
    } else {
        let (v, d) = ((t - 1.0).exp(), 1.0 + x * x);
        (v * tx / d - v * 2.0 * x / (d * d), v * ty / d)
    };
    [rx + 0.25 * tx, ry + 0.25 * ty]
}

#[test]
fn chain_in_condition_and_branches() {
    for (x, y) in [(1.5, 0.8), (0.2, 0.3), (-0.7, 1.9)] {
        check_scalar(
            [x, y],
            |[a, b]| branchy(a, b),
            |[a, b]| rule!(branchy, a, b),
            |[a, b]| branchy_frule(a, b),
            Some(branchy_grad(x, y)),
        );
    }
}

// ---- 3. a `while` loop converging (Newton on y³ + p·y = a) ---------------------------

#[derive_frule]
fn newton_cubic(a: f64, p: f64) -> f64 {
    let mut y = a / p;
    let mut step: f64 = 1.0;
    let mut k = 0;
    while step.abs() > 1e-15 && k < 60 {
        let f = y * y * y + p * y - a;
        let df = 3.0 * y * y + p;
        step = f / df;
        y -= step;
        k += 1;
    }
    y
}

#[test]
fn newton_iteration() {
    for (a, p) in [(2.0, 1.0), (-5.0, 3.0), (0.3, 0.5)] {
        let y = newton_cubic(a, p);
        assert!((y * y * y + p * y - a).abs() < 1e-12);
        // Implicit function theorem: dy/da = 1/(3y² + p), dy/dp = −y/(3y² + p).
        let d = 3.0 * y * y + p;
        check_scalar(
            [a, p],
            |[a, p]| newton_cubic(a, p),
            |[a, p]| rule!(newton_cubic, a, p),
            |[a, p]| newton_cubic_frule(a, p),
            Some([1.0 / d, -y / d]),
        );
    }
}

// ---- 4. early return from inside a loop ---------------------------------------------

#[derive_frule]
fn first_crossing(x: &[f64], level: f64) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        let e = (x[i] * level).sin() + x[i] * x[i];
        acc += e;
        if acc > level {
            let over = acc - level;
            return over * over / e;
        }
    }
    acc / level
}

#[test]
fn early_return_in_loop() {
    for level in [0.9, 1.7, 50.0] {
        let x = vec![0.4, -0.3, 0.8, 1.1];
        check_slice(
            &x,
            |x| first_crossing(x, level),
            |x, dx| rule!(first_crossing, dual(x, dx), dual(level, B::default())),
            |x, dx| first_crossing_frule(dual(x, dx), dual(level, 0.0)),
            None,
        );
        if level == 50.0 {
            // Never crosses: acc / level, acc = Σ sin(xᵢ·level) + xᵢ².
            let g: Vec<f64> = x
                .iter()
                .map(|v| ((v * level).cos() * level + 2.0 * v) / level)
                .collect();
            let (_, gg) = gradient(bind(first_crossing {}, (Wrt, level)), &x);
            for j in 0..x.len() {
                close(gg[j], g[j], 1e-12, "gradient");
            }
        }
    }
}

// ---- 5. `match` on an integer with chains in the arms --------------------------------

#[derive_frule]
fn basis(x: f64, s: f64, k: u32) -> f64 {
    let t = (x - s) / s;
    match k {
        0 => 1.0 - t,
        1 => t * t * (3.0 - 2.0 * t),
        2 => {
            let u = t.sin();
            u * u + t.cos() * s
        }
        _ => t.exp() * x - s,
    }
}

fn basis_grad(x: f64, s: f64, k: u32) -> [f64; 2] {
    let t = (x - s) / s;
    let (tx, ts) = (1.0 / s, -x / (s * s));
    match k {
        0 => [-tx, -ts],
        1 => [(6.0 * t - 6.0 * t * t) * tx, (6.0 * t - 6.0 * t * t) * ts],
        2 => {
            let dt = 2.0 * t.sin() * t.cos() - t.sin() * s;
            [dt * tx, dt * ts + t.cos()]
        }
        _ => [t.exp() * tx * x + t.exp(), t.exp() * ts * x - 1.0],
    }
}

#[test]
fn match_arms() {
    for k in 0..4 {
        let (x, s) = (1.3, 0.7);
        check_scalar(
            [x, s],
            |[a, b]| basis(a, b, k),
            |[a, b]| rule!(basis, a, b, Dual::constant(k)),
            |[a, b]| basis_frule(a, b, Dual::constant(k)),
            Some(basis_grad(x, s, k)),
        );
    }
}

// ---- 6. iterators, zip and a closure capturing an active value ----------------------

#[derive_frule]
fn iter_chains(x: &[f64], w: &[f64]) -> f64 {
    let norm: f64 = x.iter().map(|v| v * v).sum();
    let dot: f64 = x
        .iter()
        .zip(w.iter())
        .map(|(a, b)| (a * b).tanh() * a)
        .sum();
    let scale = |v: f64| (v + 1.0).ln() / norm;
    dot / norm.sqrt() + scale(norm)
}

fn iter_chains_grad(x: &[f64], w: &[f64]) -> Vec<f64> {
    let n: f64 = x.iter().map(|v| v * v).sum();
    let dot: f64 = x.iter().zip(w).map(|(a, b)| (a * b).tanh() * a).sum();
    // f = dot·n^(-1/2) + ln(n + 1)/n.
    let dfdn = -0.5 * dot * n.powf(-1.5) + (1.0 / ((n + 1.0) * n) - (n + 1.0).ln() / (n * n));
    (0..x.len())
        .map(|i| {
            let th = (x[i] * w[i]).tanh();
            let ddot = th + x[i] * w[i] * (1.0 - th * th);
            ddot / n.sqrt() + dfdn * 2.0 * x[i]
        })
        .collect()
}

#[test]
fn iterator_chains() {
    let (x, w) = (vec![0.5, -1.5, 0.9, 0.2], vec![1.1, 0.3, -0.8, 2.0]);
    test_frule_batched::<3, _, _>(
        (x.clone(), w.clone()),
        |a| iter_chains(&a.0, &a.1),
        |a, da| {
            rule!(
                iter_chains,
                dual(&a.0[..], &da.0[..]),
                dual(&a.1[..], &da.1[..])
            )
        },
    );
    let zw = vec![B::default(); w.len()];
    let g = iter_chains_grad(&x, &w);
    check_slice(
        &x,
        |x| iter_chains(x, &w),
        |x, dx| rule!(iter_chains, dual(x, dx), dual(&w[..], &zw[..])),
        |x, dx| iter_chains_frule(dual(x, dx), dual(&w[..], &[0.0; 4][..])),
        Some(&g),
    );
}

// ---- 7. `for &v in x`: moments ------------------------------------------------------

#[derive_frule]
fn moments(x: &[f64]) -> f64 {
    let mut m1 = 0.0;
    let mut m2 = 0.0;
    for &v in x {
        m1 += v;
        m2 += v * v;
    }
    let n = x.len() as f64;
    let mean = m1 / n;
    let var = m2 / n - mean * mean;
    var.sqrt() / (1.0 + mean * mean)
}

#[test]
fn for_pattern_moments() {
    let x = vec![0.3, 1.9, -0.6, 1.2, 0.05];
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| v * v).sum::<f64>() / n - m * m;
    let sd = var.sqrt();
    let g: Vec<f64> = x
        .iter()
        .map(|v| {
            let dsd = (2.0 * v / n - 2.0 * m / n) / (2.0 * sd);
            dsd / (1.0 + m * m) - sd * 2.0 * m / n / (1.0 + m * m).powi(2)
        })
        .collect();
    check_slice(
        &x,
        moments,
        |x, dx| rule!(moments, dual(x, dx)),
        |x, dx| moments_frule(dual(x, dx)),
        Some(&g),
    );
    let (_, gg) = gradient(moments {}, &x);
    for j in 0..x.len() {
        close(gg[j], g[j], 1e-11, "gradient");
    }
}

// ---- 8. stores into an output buffer, then re-reads of stored values ----------------

#[derive_frule]
fn lorenz_step(x: &[f64], h: f64, out: &mut [f64]) {
    let (s, r, b) = (10.0, 28.0, 8.0 / 3.0);
    let dx = s * (x[1] - x[0]);
    let dy = x[0] * (r - x[2]) - x[1];
    let dz = x[0] * x[1] - b * x[2];
    out[0] = x[0] + h * dx;
    out[1] = x[1] + h * dy;
    out[2] = x[2] + h * dz;
    out[0] += out[1] * out[2] * h;
}

#[test]
fn output_buffer() {
    let (x, h) = (vec![1.2, -0.7, 20.5], 0.01);
    test_frule_batched::<3, _, _>(
        (x.clone(), h, vec![0.0; 3]),
        |a| lorenz_step(&a.0, a.1, &mut a.2),
        |a, da| {
            rule!(
                lorenz_step,
                dual(&a.0[..], &da.0[..]),
                dual(a.1, da.1),
                dual(&mut a.2[..], &mut da.2[..])
            )
        },
    );
    // The Jacobian by hand.
    let (s, r, b) = (10.0, 28.0, 8.0 / 3.0);
    let mut o = [0.0; 3];
    lorenz_step(&x, h, &mut o);
    let j1 = [h * (r - x[2]), 1.0 - h, -h * x[0]];
    let j2 = [h * x[1], h * x[0], 1.0 - h * b];
    let o2 = x[2] + h * (x[0] * x[1] - b * x[2]);
    let o1 = x[1] + h * (x[0] * (r - x[2]) - x[1]);
    let j0 = [1.0 - h * s, h * s, 0.0];
    let want: Vec<[f64; 3]> = vec![
        std::array::from_fn(|k| j0[k] + h * (j1[k] * o2 + o1 * j2[k])),
        j1,
        j2,
    ];
    let f = || inplace(bind(lorenz_step {}, (Wrt, h, Out)), 3);
    let (y, jac) = jacobian(f(), &x);
    assert_eq!(y, o);
    for i in 0..3 {
        for k in 0..3 {
            close(jac[(i, k)], want[i][k], 1e-12, "jacobian");
            let mut e = [0.0; 3];
            e[k] = 1.0;
            let (_, t): (Vec<f64>, Vec<f64>) = jvp(f(), &x, &e);
            close(jac[(i, k)], t[i], 1e-12, "jvp");
        }
    }
}

// ---- 9. a derived function called in the middle of a chain --------------------------

#[derive_frule]
fn softplus(z: f64) -> f64 {
    (1.0 + z.exp()).ln()
}

#[derive_frule]
fn calls_inner(x: f64, y: f64) -> f64 {
    let a = x * y + 1.0;
    let b = softplus(a - y) * a;
    let c = b / (x * x + 1.0);
    c.sin() + softplus(c) * y
}

fn calls_inner_grad(x: f64, y: f64) -> [f64; 2] {
    let sp = |z: f64| (1.0 + z.exp()).ln();
    let sg = |z: f64| 1.0 / (1.0 + (-z).exp());
    let a = x * y + 1.0;
    let (ax, ay) = (y, x);
    let b = sp(a - y) * a;
    let (bx, by) = (
        sg(a - y) * ax * a + sp(a - y) * ax,
        sg(a - y) * (ay - 1.0) * a + sp(a - y) * ay,
    );
    let d = x * x + 1.0;
    let c = b / d;
    let (cx, cy) = (bx / d - b * 2.0 * x / (d * d), by / d);
    let k = c.cos() + sg(c) * y;
    [k * cx, k * cy + sp(c)]
}

#[test]
fn call_inside_chain() {
    for (x, y) in [(0.6, -0.4), (1.4, 2.2)] {
        check_scalar(
            [x, y],
            |[a, b]| calls_inner(a, b),
            |[a, b]| rule!(calls_inner, a, b),
            |[a, b]| calls_inner_frule(a, b),
            Some(calls_inner_grad(x, y)),
        );
    }
}

// ---- 10. reused subexpressions ------------------------------------------------------

#[derive_frule]
fn reused(x: f64, y: f64) -> f64 {
    let t = x * y + x.cos();
    let a = t * t;
    let b = t.sin() + 2.0;
    let c = a / b;
    let d = c * t - a.sqrt();
    d + c
}

fn reused_grad(x: f64, y: f64) -> [f64; 2] {
    let t = x * y + x.cos();
    let g = t.sin() + 2.0;
    // f(t) = t³/g + t²/g − |t|.
    let df = (3.0 * t * t * g - t.powi(3) * t.cos()) / (g * g)
        + (2.0 * t * g - t * t * t.cos()) / (g * g)
        - t.signum();
    [df * (y - x.sin()), df * x]
}

#[test]
fn reused_subexpressions() {
    for (x, y) in [(0.8, 1.1), (-1.3, 0.4), (2.0, -2.5)] {
        check_scalar(
            [x, y],
            |[a, b]| reused(a, b),
            |[a, b]| rule!(reused, a, b),
            |[a, b]| reused_frule(a, b),
            Some(reused_grad(x, y)),
        );
    }
}

// ---- 11. re-reading elements: same place, same index variable, after a store --------

#[derive_frule]
fn reread(x: &[f64], i: usize) -> f64 {
    let a = x[i] * x[i] - x[i];
    let b = (x[i] + a) / (x[i + 1] + x[i] * 2.0);
    let mut k = i;
    let first = x[k];
    k += 1;
    let second = x[k];
    let mut buf = [x[i], x[i + 1]];
    let c = buf[0] * buf[0];
    buf[0] = second * 3.0;
    let d = buf[0] * buf[0] + buf[1];
    a * b + first * second * second + c * d
}

fn reread_grad(x: &[f64], i: usize) -> Vec<f64> {
    let (u, v) = (x[i], x[i + 1]);
    let a = u * u - u;
    let (num, den) = (u + a, v + 2.0 * u);
    let b = num / den;
    let (c, d) = (u * u, 9.0 * v * v + v);
    let da_u = 2.0 * u - 1.0;
    let db_u = ((1.0 + da_u) * den - num * 2.0) / (den * den);
    let db_v = -num / (den * den);
    let mut g = vec![0.0; x.len()];
    g[i] = da_u * b + a * db_u + v * v + 2.0 * u * d;
    g[i + 1] = a * db_v + 2.0 * u * v + c * (18.0 * v + 1.0);
    g
}

#[test]
fn element_rereads() {
    let x = vec![0.7, -1.3, 0.45, 1.6];
    for i in 0..3 {
        let g = reread_grad(&x, i);
        check_slice(
            &x,
            |x| reread(x, i),
            |x, dx| rule!(reread, dual(x, dx), Dual::constant(i)),
            |x, dx| reread_frule(dual(x, dx), Dual::constant(i)),
            Some(&g),
        );
        let (_, gg) = gradient(bind(reread {}, (Wrt, i)), &x);
        for j in 0..x.len() {
            close(gg[j], g[j], 1e-12, "gradient");
        }
    }
}

// ---- 12. division by active values, and signed sums ---------------------------------

#[derive_frule]
fn divisions(x: f64, y: f64, z: f64) -> f64 {
    let a = x / y;
    let b = (a - z) / (y * z);
    let c = 1.0 / (b + x) - z / a;
    c / (x / (y / z))
}

#[derive_frule]
fn signed_sums(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let s = a - (b - (c - d));
    let t = -(s - a) + (-b);
    let u = t - s + a + a;
    let z = (a + a) * (b - b + c);
    3.0 * u - 0.5 * (s + t) + s * t + z
}

#[test]
fn divisions_and_signs() {
    for (x, y, z) in [(1.5, 0.6, -0.8), (-2.0, 1.7, 0.3)] {
        check_scalar(
            [x, y, z],
            |[a, b, c]| divisions(a, b, c),
            |[a, b, c]| rule!(divisions, a, b, c),
            |[a, b, c]| divisions_frule(a, b, c),
            None,
        );
    }
    let (a, b, c, d) = (0.3, -1.1, 2.4, 0.9);
    let (s, t) = (a - b + c - d, d - c);
    // du = (1, 1, −2, 2), ds = (1, −1, 1, −1), dt = (0, 0, −1, 1), dz = 2c·da + 2a·dc.
    let (du, ds, dt) = (
        [1.0, 1.0, -2.0, 2.0],
        [1.0, -1.0, 1.0, -1.0],
        [0.0, 0.0, -1.0, 1.0],
    );
    let dz = [2.0 * c, 0.0, 2.0 * a, 0.0];
    let g: [f64; 4] = std::array::from_fn(|k| {
        3.0 * du[k] - 0.5 * (ds[k] + dt[k]) + t * ds[k] + s * dt[k] + dz[k]
    });
    close(
        signed_sums(a, b, c, d),
        3.0 * (a + b - 2.0 * c + 2.0 * d) - 0.5 * (s + t) + s * t + 2.0 * a * c,
        1e-14,
        "primal",
    );
    check_scalar(
        [a, b, c, d],
        |[a, b, c, d]| signed_sums(a, b, c, d),
        |[a, b, c, d]| rule!(signed_sums, a, b, c, d),
        |[a, b, c, d]| signed_sums_frule(a, b, c, d),
        Some(g),
    );
}

// ---- 13. f32 and a generic float ----------------------------------------------------

#[derive_frule]
fn f32_chain(x: f32, y: f32) -> f32 {
    let t = x * y - 0.5;
    let u = t.exp() / (1.0 + y * y);
    u.sqrt() + t.tanh() * x
}

#[derive_frule]
fn generic_logistic<T: num_traits::Float>(x: T, k: T) -> T {
    let one = T::one();
    let z = k * (x - one);
    let s = one / (one + (-z).exp());
    s * (one - s) + z.sin() / k
}

fn generic_logistic_grad(x: f64, k: f64) -> [f64; 2] {
    let z = k * (x - 1.0);
    let s = 1.0 / (1.0 + (-z).exp());
    let dfdz = s * (1.0 - s) * (1.0 - 2.0 * s) + z.cos() / k;
    [dfdz * k, dfdz * (x - 1.0) - z.sin() / (k * k)]
}

#[test]
fn f32_and_generic() {
    let (x, y) = (0.9_f32, 1.4_f32);
    test_frule_batched::<3, _, _>(
        (x, y),
        |a| f32_chain(a.0, a.1),
        |a, da| rule!(f32_chain, dual(a.0, da.0), dual(a.1, da.1)),
    );
    let t = x * y - 0.5;
    let d = 1.0 + y * y;
    let u = t.exp() / d;
    let (ux, uy) = (u * y, u * x - u * 2.0 * y / d);
    let sech2 = 1.0 - t.tanh() * t.tanh();
    let g = [
        ux / (2.0 * u.sqrt()) + sech2 * y * x + t.tanh(),
        uy / (2.0 * u.sqrt()) + sech2 * x * x,
    ];
    let out = rule!(
        f32_chain,
        dual(x, Batch([1.0_f32, 0.0, 0.6])),
        dual(y, Batch([0.0_f32, 1.0, -0.8]))
    );
    assert_eq!(out.primal, f32_chain(x, y));
    let seeds = [[1.0_f32, 0.0], [0.0, 1.0], [0.6, -0.8]];
    for (l, s) in seeds.iter().enumerate() {
        let one = f32_chain_frule(dual(x, s[0]), dual(y, s[1]));
        assert_relative_eq!(out.tangent.0[l], one.tangent, max_relative = 1e-5);
        assert_relative_eq!(
            out.tangent.0[l],
            g[0] * s[0] + g[1] * s[1],
            max_relative = 1e-4
        );
    }

    for (x, k) in [(1.7, 2.5), (-0.4, 0.8)] {
        check_scalar(
            [x, k],
            |[a, b]| generic_logistic(a, b),
            |[a, b]| rule!(generic_logistic, a, b),
            |[a, b]| generic_logistic_frule(a, b),
            Some(generic_logistic_grad(x, k)),
        );
    }
}

// ---- 14. more than 8 roots: ten inputs ----------------------------------------------

#[derive_frule]
fn ten_inputs(x: &[f64]) -> f64 {
    let p = x[0] * x[1] * x[2] * x[3] * x[4] * x[5] * x[6] * x[7] * x[8] * x[9];
    let s = x[0] - x[1] + x[2] - x[3] + x[4] - x[5] + x[6] - x[7] + x[8] - x[9];
    let q = x[0] * x[9] + x[1] * x[8] + x[2] * x[7] + x[3] * x[6] + x[4] * x[5];
    p * s + s.sin() * q
}

#[test]
fn more_than_eight_roots() {
    let x: Vec<f64> = (0..10)
        .map(|i| 0.9 + 0.05 * i as f64 - 0.3 * (i % 3) as f64)
        .collect();
    let p: f64 = x.iter().product();
    let s: f64 = (0..10).map(|i| if i % 2 == 0 { x[i] } else { -x[i] }).sum();
    let q: f64 = (0..5).map(|i| x[i] * x[9 - i]).sum();
    let g: Vec<f64> = (0..10)
        .map(|i| {
            let ds = if i % 2 == 0 { 1.0 } else { -1.0 };
            p / x[i] * s + p * ds + s.cos() * ds * q + s.sin() * x[9 - i]
        })
        .collect();
    check_slice(
        &x,
        ten_inputs,
        |x, dx| rule!(ten_inputs, dual(x, dx)),
        |x, dx| ten_inputs_frule(dual(x, dx)),
        Some(&g),
    );
    let (v, gg) = gradient(ten_inputs {}, &x);
    assert_eq!(v.to_bits(), ten_inputs(&x).to_bits());
    for j in 0..10 {
        close(gg[j], g[j], 1e-12, "gradient");
    }
}

// ---- 15. a method in a derived `impl` block -----------------------------------------

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
struct Oscillator {
    omega: f64,
    damping: f64,
}

#[derive_frule]
impl Oscillator {
    fn displacement(&self, t: f64) -> f64 {
        let decay = (-self.damping * t).exp();
        let phase = self.omega * t;
        decay * phase.cos() + decay * decay * self.damping / self.omega
    }
}

#[derive_frule]
fn oscillator_at(o: &Oscillator, t: f64) -> f64 {
    let d = o.displacement(t) * t;
    d * d + o.displacement(2.0 * t)
}

/// displacement and its partials (omega, damping, t), by hand.
fn disp_grad(o: &Oscillator, t: f64) -> (f64, [f64; 3]) {
    let (w, c) = (o.omega, o.damping);
    let e = (-c * t).exp();
    let dw = -e * t * (w * t).sin() - e * e * c / (w * w);
    let dc = -t * e * (w * t).cos() + (1.0 - 2.0 * t * c) * e * e / w;
    let dt = -c * e * (w * t).cos() - e * w * (w * t).sin() - 2.0 * c * e * e * c / w;
    (e * (w * t).cos() + e * e * c / w, [dw, dc, dt])
}

#[test]
fn method_in_chain() {
    let o = Oscillator {
        omega: 2.3,
        damping: 0.4,
    };
    let t = 0.7;
    test_frule_batched::<3, _, _>(
        (o, t),
        |a| oscillator_at(&a.0, a.1),
        |a, da| rule!(oscillator_at, dual(&a.0, &da.0), dual(a.1, da.1)),
    );
    // f = (D(t)·t)² + D(2t).
    let ((d1, g1), (_, g2)) = (disp_grad(&o, t), disp_grad(&o, 2.0 * t));
    let d = d1 * t;
    let want = [
        2.0 * d * g1[0] * t + g2[0],
        2.0 * d * g1[1] * t + g2[1],
        2.0 * d * (g1[2] * t + d1) + 2.0 * g2[2],
    ];
    let (e0, e1, e2) = (
        Batch([1.0, 0.0, 0.0]),
        Batch([0.0, 1.0, 0.0]),
        Batch([0.0, 0.0, 1.0]),
    );
    let ot = OscillatorTangent {
        omega: e0,
        damping: e1,
    };
    let out = rule!(oscillator_at, dual(&o, &ot), dual(t, e2));
    assert_eq!(out.primal, oscillator_at(&o, t));
    let tan = |omega, damping| OscillatorTangent { omega, damping };
    for (l, want) in want.into_iter().enumerate() {
        close(out.tangent.0[l], want, 1e-12, "method");
        let s: [f64; 3] = std::array::from_fn(|k| f64::from(u8::from(k == l)));
        let one = oscillator_at_frule(dual(&o, &tan(s[0], s[1])), dual(t, s[2]));
        close(out.tangent.0[l], one.tangent, 1e-12, "method vs single");
    }
}

// ---- 16. constants, and non-linearised rules next to chains -------------------------

#[derive_frule]
fn gaussian(x: f64, mu: f64, sigma: f64) -> f64 {
    let z = (x - mu) / sigma;
    (-0.5 * z * z).exp() / (sigma * (2.0 * std::f64::consts::PI).sqrt())
        + std::f64::consts::E * z * std::f64::consts::FRAC_1_SQRT_2
}

#[derive_frule]
fn mixed(x: f64, y: f64) -> f64 {
    let a = x * y + 1.0;
    let b = a.mul_add(x, y.sin());
    let c = (b - 2.0).abs() * a;
    let d = c.max(x * x) + b.powi(3) / a;
    d - (a * 0.5).sqrt()
}

fn mixed_grad(x: f64, y: f64) -> [f64; 2] {
    let a = x * y + 1.0;
    let (ax, ay) = (y, x);
    let b = a * x + y.sin();
    let (bx, by) = (ax * x + a, ay * x + y.cos());
    let sg = (b - 2.0).signum();
    let c = (b - 2.0).abs() * a;
    let (cx, cy) = (
        sg * bx * a + (b - 2.0).abs() * ax,
        sg * by * a + (b - 2.0).abs() * ay,
    );
    let (mx, my) = if c > x * x { (cx, cy) } else { (2.0 * x, 0.0) };
    let pw = |bd: f64, ad: f64| 3.0 * b * b * bd / a - b.powi(3) * ad / (a * a);
    let sq = |ad: f64| 0.5 * ad / (2.0 * (a * 0.5).sqrt());
    [mx + pw(bx, ax) - sq(ax), my + pw(by, ay) - sq(ay)]
}

#[test]
fn constants_and_neighbours() {
    let (x, mu, sigma) = (0.4_f64, -0.3, 1.2);
    let z = (x - mu) / sigma;
    let (zx, zm, zs) = (1.0 / sigma, -1.0 / sigma, -z / sigma);
    let k = (2.0 * std::f64::consts::PI).sqrt();
    let e = (-0.5 * z * z).exp();
    let lin = std::f64::consts::E * std::f64::consts::FRAC_1_SQRT_2;
    let dz = -z * e / (sigma * k) + lin;
    let g = [dz * zx, dz * zm, dz * zs - e / (sigma * sigma * k)];
    check_scalar(
        [x, mu, sigma],
        |[a, b, c]| gaussian(a, b, c),
        |[a, b, c]| rule!(gaussian, a, b, c),
        |[a, b, c]| gaussian_frule(a, b, c),
        Some(g),
    );
    // Both sides of `max` and of `abs`.
    for (x, y) in [(0.9, 1.3), (0.5, -0.2), (1.8, -0.3)] {
        check_scalar(
            [x, y],
            |[a, b]| mixed(a, b),
            |[a, b]| rule!(mixed, a, b),
            |[a, b]| mixed_frule(a, b),
            Some(mixed_grad(x, y)),
        );
    }
}

// ---- 17. stores and `&mut` places next to chains ---------------------------------------

/// A chain root read from a buffer element before that element is overwritten, and
/// combined after; a `&mut f64` read and written; chains over `iter_mut`.
#[derive_frule]
fn inplace_hazards(y: &mut [f64], r: &mut f64, x: f64) {
    let a = y[0] * x;
    y[0] = x * 3.0;
    let b = a * 2.0 + y[1];
    y[1] = b;
    let c = *r * x;
    *r = x * x;
    *r = (c * 2.0 + *r) * x;
    for v in y.iter_mut() {
        let e = *v * x;
        *v = e.sin() + *v * 2.0;
    }
}

#[test]
fn stores_next_to_chains() {
    test_frule_batched::<3, _, _>(
        (vec![0.5, -0.7, 1.1], 0.8, 1.3),
        |a| inplace_hazards(&mut a.0, &mut a.1, a.2),
        |a, da| {
            rule!(
                inplace_hazards,
                dual(&mut a.0[..], &mut da.0[..]),
                dual(&mut a.1, &mut da.1),
                dual(a.2, da.2)
            )
        },
    );
    // d/dx by hand, with y and r held constant.
    let (y0, y1, y2, r0, x) = (0.5_f64, -0.7, 1.1, 0.8, 1.3);
    let (mut y, mut dy) = ([y0, y1, y2], [Batch([0.0; 3]); 3]);
    let (mut r, mut dr) = (r0, Batch([0.0; 3]));
    let bx = Batch([1.0, -0.5, 2.0]);
    rule!(
        inplace_hazards,
        dual(&mut y[..], &mut dy[..]),
        dual(&mut r, &mut dr),
        dual(x, bx)
    );
    // y0' = 3x → sin(3x·x) + 6x; y1' = 2·y0·x + y1 → sin(y1'·x) + 2y1'; y2 → sin(y2·x) + 2y2.
    let u1 = 2.0 * y0 * x + y1;
    let want_y = [
        (6.0 * x) * (3.0 * x * x).cos() + 6.0,
        (2.0 * y0 * x + u1) * (u1 * x).cos() + 4.0 * y0,
        y2 * (y2 * x).cos(),
    ];
    // r' = (2·r0·x + x²)·x.
    let want_r = 4.0 * r0 * x + 3.0 * x * x;
    for l in 0..3 {
        for k in 0..3 {
            close(dy[k].0[l], want_y[k] * bx.0[l], 1e-12, "dy");
        }
        close(dr.0[l], want_r * bx.0[l], 1e-12, "dr");
    }
}

// ---- 18. roots borrowed from a `&mut` owner, and a `&mut f64` root -------------------
//
// Both failed to compile before the fix (found by this corpus): a borrowed root
// (`&p.rest`) was kept borrowed until the chain's tangent was assembled, across the
// `&mut` reborrow that reads `p.k` (E0502); and `lin::Root` did not cover
// `Dual<&mut f64, &mut T>`. Roots that may borrow are now read into an owned dual where
// the chain first uses them.

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
struct Pair {
    k: f64,
    rest: f64,
}

#[derive_frule]
fn field_ref_root(p: &mut Pair) -> f64 {
    p.rest.sin() * p.k
}

#[derive_frule]
impl Pair {
    fn energy(&mut self) -> f64 {
        self.rest.sin() * self.k + self.k * self.k
    }
}

#[derive_frule]
fn method_root(p: &mut Pair) -> f64 {
    p.energy()
}

#[derive_frule]
fn mut_ref_root(r: &mut f64) -> f64 {
    r.sin() * 2.0
}

#[test]
fn borrowed_and_mut_ref_roots() {
    let p = Pair { k: 1.3, rest: 0.4 };
    test_frule_batched::<3, _, _>(
        (p,),
        |a| field_ref_root(&mut a.0),
        |a, da| rule!(field_ref_root, dual(&mut a.0, &mut da.0)),
    );
    test_frule_batched::<3, _, _>(
        (p,),
        |a| method_root(&mut a.0),
        |a, da| rule!(method_root, dual(&mut a.0, &mut da.0)),
    );
    test_frule_batched::<3, _, _>(
        (0.7,),
        |a| mut_ref_root(&mut a.0),
        |a, da| rule!(mut_ref_root, dual(&mut a.0, &mut da.0)),
    );
    // By hand, one lane per input: ∂/∂k = sin(rest) (+ 2k), ∂/∂rest = k·cos(rest).
    let (k, r) = (p.k, p.rest);
    let mut q = p;
    let mut dq = PairTangent::<B> {
        k: Batch([1.0, 0.0, 0.5]),
        rest: Batch([0.0, 1.0, -2.0]),
    };
    let mut dq2 = dq;
    let out = rule!(field_ref_root, dual(&mut q, &mut dq));
    let out2 = rule!(method_root, dual(&mut q, &mut dq2));
    let (gk, gr) = (r.sin(), k * r.cos());
    for (l, (sk, sr)) in [(1.0, 0.0), (0.0, 1.0), (0.5, -2.0)]
        .into_iter()
        .enumerate()
    {
        close(out.tangent.0[l], gk * sk + gr * sr, 1e-12, "field_ref_root");
        close(
            out2.tangent.0[l],
            (gk + 2.0 * k) * sk + gr * sr,
            1e-12,
            "method_root",
        );
    }
    let mut x = 0.7;
    let mut dx = Batch([1.0, -1.0, 3.0]);
    let out = rule!(mut_ref_root, dual(&mut x, &mut dx));
    for l in 0..3 {
        close(
            out.tangent.0[l],
            2.0 * 0.7_f64.cos() * dx.0[l],
            1e-12,
            "mut_ref_root",
        );
    }
}
