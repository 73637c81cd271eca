//! Rosenbrock and Ackley gradients for n = 10, 100, 1000: forward mode needs n directions,
//! pushed through the function in chunks of [`W`] lanes (`⌈n/W⌉` passes), so its cost
//! grows like `n²` while a hand-written (reverse, analytic) gradient costs `O(n)`.
//!
//! Variants: the derived rule through [`fwdad::gradient`]; a hand-written chunked
//! Jacobian-vector product (the same algorithm written by hand: what the AD overhead is
//! measured against); the hand-written analytic gradient; num-dual with
//! `DualSVec64<W>` in the same chunks; central finite differences (`2n` evaluations).

use fwdad::prelude::*;
use nalgebra::{Const, U1};
use num_dual::{Derivative, DualDVec64, DualNum, DualSVec64};

/// The chunk width of every forward-mode gradient here (fwdad's
/// [`DEFAULT_WIDTH`](fwdad::drivers::DEFAULT_WIDTH)).
pub const W: usize = fwdad::drivers::DEFAULT_WIDTH;

/// A hand-written Jacobian-vector product along `N` directions: `(value, derivatives)`.
pub type Jvp<const N: usize> = fn(&[f64], &[[f64; N]]) -> (f64, [f64; N]);

/// The sizes of the suite.
pub const SIZES: [usize; 3] = [10, 100, 1000];

// --- Rosenbrock -------------------------------------------------------------------------

/// `Σᵢ 100 (xᵢ₊₁ - xᵢ²)² + (1 - xᵢ)²`.
#[derive_frule]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        s += 100.0 * t * t + u * u;
    }
    s
}

/// [`rosenbrock`] written with `powi(2)` (as in the drivers' docs): the rule of `powi`
/// scales the tangent once by `2t`, where `t * t` costs two scalings and an addition.
#[derive_frule]
pub fn rosenbrock_powi(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += 100.0 * (x[i + 1] - x[i].powi(2)).powi(2) + (1.0 - x[i]).powi(2);
    }
    s
}

/// Hand-written analytic gradient (`O(n)`).
pub fn rosenbrock_grad_hand(x: &[f64], g: &mut [f64]) -> f64 {
    g.fill(0.0);
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        s += 100.0 * t * t + u * u;
        g[i] += -400.0 * x[i] * t - 2.0 * u;
        g[i + 1] += 200.0 * t;
    }
    s
}

/// Hand-written Jacobian-vector product along `N` directions at once, as an expert writes
/// it: the scalar partials `∂/∂xᵢ = -400 t xᵢ - 2u`, `∂/∂xᵢ₊₁ = 200 t` once per term, one
/// multiply-add per lane and partial, `dx` re-cut to `x`'s length (no bounds checks).
pub fn rosenbrock_jvp_hand<const N: usize>(x: &[f64], dx: &[[f64; N]]) -> (f64, [f64; N]) {
    let dx = &dx[..x.len()];
    let mut s = 0.0;
    let mut ds = [0.0; N];
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = 1.0 - x[i];
        s += 100.0 * t * t + u * u;
        let (p1, p0) = (200.0 * t, -400.0 * t * x[i] - 2.0 * u);
        let (a, b) = (&dx[i], &dx[i + 1]);
        for k in 0..N {
            ds[k] += p0 * a[k] + p1 * b[k];
        }
    }
    (s, ds)
}

/// Generic for num-dual.
pub fn rosenbrock_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let mut s = D::from(0.0);
    for i in 0..x.len() - 1 {
        let t = x[i + 1] - x[i] * x[i];
        let u = -x[i] + 1.0;
        s += t * t * 100.0 + u * u;
    }
    s
}

// --- Ackley -----------------------------------------------------------------------------

/// `-20 exp(-0.2 √(Σxᵢ²/n)) - exp(Σ cos(2πxᵢ)/n) + 20 + e`.
#[derive_frule]
pub fn ackley(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut s2 = 0.0;
    let mut sc = 0.0;
    for i in 0..x.len() {
        s2 += x[i] * x[i];
        sc += (std::f64::consts::TAU * x[i]).cos();
    }
    -20.0 * (-0.2 * (s2 / n).sqrt()).exp() - (sc / n).exp() + 20.0 + std::f64::consts::E
}

/// Hand-written analytic gradient (`O(n)`).
pub fn ackley_grad_hand(x: &[f64], g: &mut [f64]) -> f64 {
    let n = x.len() as f64;
    let tau = std::f64::consts::TAU;
    let (mut s2, mut sc) = (0.0, 0.0);
    for &v in x {
        s2 += v * v;
        sc += (tau * v).cos();
    }
    let r = (s2 / n).sqrt();
    let e1 = (-0.2 * r).exp();
    let e2 = (sc / n).exp();
    // d/dxᵢ [-20 e1] = 4 e1 xᵢ / (n r); d/dxᵢ [-e2] = e2 τ sin(τxᵢ) / n.
    let c1 = 4.0 * e1 / (n * r);
    let c2 = e2 * tau / n;
    for (gi, &v) in g.iter_mut().zip(x) {
        *gi = c1 * v + c2 * (tau * v).sin();
    }
    -20.0 * e1 - e2 + 20.0 + std::f64::consts::E
}

/// Hand-written Jacobian-vector product along `N` directions at once, as an expert writes
/// it: the partials `2xᵢ` and `-τ sin(τxᵢ)` once per element, one multiply-add per lane,
/// and the outer chain's two coefficients once per call.
pub fn ackley_jvp_hand<const N: usize>(x: &[f64], dx: &[[f64; N]]) -> (f64, [f64; N]) {
    let dx = &dx[..x.len()];
    let n = x.len() as f64;
    let tau = std::f64::consts::TAU;
    let (mut s2, mut sc) = (0.0, 0.0);
    let (mut ds2, mut dsc) = ([0.0; N], [0.0; N]);
    for (&v, d) in x.iter().zip(dx) {
        s2 += v * v;
        let (sn, cs) = (tau * v).sin_cos();
        sc += cs;
        let (p2, pc) = (2.0 * v, -tau * sn);
        for k in 0..N {
            ds2[k] += p2 * d[k];
            dsc[k] += pc * d[k];
        }
    }
    let r = (s2 / n).sqrt();
    let e1 = (-0.2 * r).exp();
    let e2 = (sc / n).exp();
    // d/ds2 [-20 e1] = 2 e1 / (n r); d/dsc [-e2] = -e2 / n.
    let (c2, cc) = (2.0 * e1 / (n * r), -e2 / n);
    let mut d = [0.0; N];
    for k in 0..N {
        d[k] = c2 * ds2[k] + cc * dsc[k];
    }
    (-20.0 * e1 - e2 + 20.0 + std::f64::consts::E, d)
}

/// Generic for num-dual.
pub fn ackley_nd<D: DualNum<Primitive = f64> + Copy>(x: &[D]) -> D {
    let n = x.len() as f64;
    let mut s2 = D::from(0.0);
    let mut sc = D::from(0.0);
    for i in 0..x.len() {
        s2 += x[i] * x[i];
        sc += (x[i] * std::f64::consts::TAU).cos();
    }
    -((s2 / n).sqrt() * -0.2).exp() * 20.0 - (sc / n).exp() + 20.0 + std::f64::consts::E
}

/// [`rosenbrock_nd`] for num-dual's dynamically sized duals (`DualDVec64`, the form its
/// documentation shows for a `DVector` input, whose duals are not `Copy`): by reference.
pub fn rosenbrock_nd_dyn(x: &[DualDVec64]) -> DualDVec64 {
    let mut s = DualDVec64::from_re(0.0);
    for i in 0..x.len() - 1 {
        let t = &x[i + 1] - &(&x[i] * &x[i]);
        let u = -x[i].clone() + 1.0;
        s += &t * &t * 100.0 + &u * &u;
    }
    s
}

/// [`ackley_nd`] for `DualDVec64`, as [`rosenbrock_nd_dyn`].
pub fn ackley_nd_dyn(x: &[DualDVec64]) -> DualDVec64 {
    let n = x.len() as f64;
    let mut s2 = DualDVec64::from_re(0.0);
    let mut sc = DualDVec64::from_re(0.0);
    for xi in x {
        s2 += xi * xi;
        sc += (xi.clone() * std::f64::consts::TAU).cos();
    }
    -((s2 / n).sqrt() * -0.2).exp() * 20.0 - (sc / n).exp() + 20.0 + std::f64::consts::E
}

// --- chunked drivers for the hand-written and num-dual variants ---------------------------

/// A gradient from `⌈n/N⌉` passes of a hand-written `N`-direction JVP, seeded like
/// fwdad's driver (`seeds` is work space of length `n`, zero on entry and on return).
pub fn chunked_gradient<const N: usize>(
    jvp: impl Fn(&[f64], &[[f64; N]]) -> (f64, [f64; N]),
    x: &[f64],
    seeds: &mut [[f64; N]],
    g: &mut [f64],
) -> f64 {
    let n = x.len();
    let mut value = 0.0;
    let mut start = 0;
    while start < n {
        let end = (start + N).min(n);
        for (lane, s) in seeds[start..end].iter_mut().enumerate() {
            s[lane] = 1.0;
        }
        let (v, d) = jvp(x, seeds);
        value = v;
        g[start..end].copy_from_slice(&d[..end - start]);
        for s in &mut seeds[start..end] {
            *s = [0.0; N];
        }
        start = end;
    }
    value
}

/// A gradient from `⌈n/N⌉` passes of num-dual's `DualSVec64<N>` (`xd` is work space of
/// length `n` holding `x` with no derivative part on entry and on return; inputs outside
/// the current chunk carry no derivative vector, which num-dual skips).
pub fn nd_gradient<const N: usize>(
    f: impl Fn(&[DualSVec64<N>]) -> DualSVec64<N>,
    xd: &mut [DualSVec64<N>],
    g: &mut [f64],
) -> f64 {
    let n = xd.len();
    let mut value = 0.0;
    let mut start = 0;
    while start < n {
        let end = (start + N).min(n);
        for (lane, v) in xd[start..end].iter_mut().enumerate() {
            v.eps = Derivative::derivative_generic(Const::<N>, U1, lane);
        }
        let y = f(xd);
        value = y.re;
        let eps = y.eps.unwrap_generic(Const::<N>, U1);
        g[start..end].copy_from_slice(&eps.as_slice()[..end - start]);
        for v in &mut xd[start..end] {
            v.eps = Derivative::none();
        }
        start = end;
    }
    value
}

/// num-dual inputs without derivative parts.
pub fn nd_inputs<const N: usize>(x: &[f64]) -> Vec<DualSVec64<N>> {
    x.iter().map(|&v| DualSVec64::from_re(v)).collect()
}

/// A test point for the gradients (away from Ackley's kink at 0).
pub fn point(n: usize) -> Vec<f64> {
    crate::rng::Rng::new(n as u64).vec(n, -1.5, 1.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};
    use crate::fd;

    fn check_all(
        name: &str,
        f: fn(&[f64]) -> f64,
        rule: impl Fn(&[f64]) -> (f64, Vec<f64>),
        hand: fn(&[f64], &mut [f64]) -> f64,
        jvp: Jvp<W>,
        nd: fn(&[DualSVec64<W>]) -> DualSVec64<W>,
        n: usize,
    ) {
        let x = point(n);
        let mut g = vec![0.0; n];
        let v = hand(&x, &mut g);
        assert_close(&format!("{name} value"), &[f(&x)], &[v]);
        let (rv, rg) = rule(&x);
        assert_eq!(rv, f(&x), "{name}: the rule's primal is the function's");
        assert_close(&format!("{name} rule n={n}"), &rg, &g);
        let mut seeds = vec![[0.0; W]; n];
        let mut jg = vec![0.0; n];
        let jv = chunked_gradient(jvp, &x, &mut seeds, &mut jg);
        assert_close(&format!("{name} hand jvp n={n}"), &[jv], &[v]);
        assert_close(&format!("{name} hand jvp n={n}"), &jg, &g);
        let mut xd = nd_inputs::<W>(&x);
        let mut ng = vec![0.0; n];
        nd_gradient(nd, &mut xd, &mut ng);
        assert_close(&format!("{name} num-dual n={n}"), &ng, &g);
        let mut buf = vec![0.0; n];
        let mut fg = vec![0.0; n];
        fd::gradient(f, &x, &mut buf, &mut fg);
        assert_close_tol(&format!("{name} fd n={n}"), &fg, &g, FD_TOL);
    }

    #[test]
    fn rosenbrock_gradients_agree() {
        for n in [2, 10, 100] {
            check_all(
                "rosenbrock",
                rosenbrock,
                |x| gradient(rosenbrock {}, x),
                rosenbrock_grad_hand,
                rosenbrock_jvp_hand::<W>,
                rosenbrock_nd::<DualSVec64<W>>,
                n,
            );
        }
    }

    #[test]
    fn rosenbrock_powi_gradient_agrees() {
        let x = point(20);
        let mut g = vec![0.0; 20];
        rosenbrock_grad_hand(&x, &mut g);
        assert_close("rosenbrock powi", &gradient(rosenbrock_powi {}, &x).1, &g);
    }

    #[test]
    fn ackley_gradients_agree() {
        for n in [1, 10, 100] {
            check_all(
                "ackley",
                ackley,
                |x| gradient(ackley {}, x),
                ackley_grad_hand,
                ackley_jvp_hand::<W>,
                ackley_nd::<DualSVec64<W>>,
                n,
            );
        }
    }
}
