//! ADBench Gaussian mixture model: the negative log-likelihood of `n` points in `D`
//! dimensions under `K` Gaussians with a Wishart prior, and its gradient in the
//! `K + K·D + K·D(D+1)/2` parameters `θ = [α (K), μ (K×D), icf (K × D(D+1)/2)]`.
//!
//! `icf_k` holds `D` log-diagonal entries `q` and then the strictly lower entries `l` of
//! `Q_k = diag(exp q_k) + L_k`, column by column. The objective is
//! `-nD/2·log 2π + Σᵢ logsumexp_k(α_k + Σ q_k - ½|Q_k (xᵢ - μ_k)|²) - n·logsumexp(α)`
//! `+ Σ_k (½γ²(|exp q_k|² + |l_k|²) - m Σ q_k)`; ADBench's constant `-K·C(γ, m)` (it has
//! no derivative) is left out.
//!
//! Forward mode needs one direction per parameter (1650 for `d10_K25`), so the gradient
//! costs `⌈P / 8⌉` passes of the objective: the wrong tool at this scale, measured to show
//! how its cost grows.

use fwdad::prelude::*;
use num_dual::{Dual64, DualNum, DualSVec64};

/// `log Σ exp(vᵢ)`, subtracting the maximum.
#[derive_frule]
pub fn logsumexp(v: &[f64]) -> f64 {
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

/// The GMM objective at `theta` for the points `x` (`n × d`, row-major). The points are
/// data, declared `inactive`.
#[derive_frule(inactive(x))]
pub fn gmm_objective(theta: &[f64], x: &[f64], d: usize, k: usize, gamma: f64, m: f64) -> f64 {
    let n = x.len() / d;
    let icf_sz = d * (d + 1) / 2;
    let moff = k;
    let ioff = k + k * d;
    let mut qdiag = vec![0.0; k * d];
    let mut sumq = vec![0.0; k];
    for ik in 0..k {
        let mut s = 0.0;
        for j in 0..d {
            let q = theta[ioff + ik * icf_sz + j];
            s += q;
            qdiag[ik * d + j] = q.exp();
        }
        sumq[ik] = s;
    }
    let mut xc = vec![0.0; d];
    let mut qx = vec![0.0; d];
    let mut main = vec![0.0; k];
    let mut slse = 0.0;
    for ix in 0..n {
        for ik in 0..k {
            for j in 0..d {
                xc[j] = x[ix * d + j] - theta[moff + ik * d + j];
            }
            for j in 0..d {
                qx[j] = qdiag[ik * d + j] * xc[j];
            }
            let mut li = ioff + ik * icf_sz + d;
            for i in 0..d {
                for j in i + 1..d {
                    qx[j] += theta[li] * xc[i];
                    li += 1;
                }
            }
            let mut sq = 0.0;
            for j in 0..d {
                sq += qx[j] * qx[j];
            }
            main[ik] = theta[ik] + sumq[ik] - 0.5 * sq;
        }
        slse += logsumexp(&main[..]);
    }
    let lse_alpha = logsumexp(&theta[0..k]);
    let mut prior = 0.0;
    for ik in 0..k {
        let mut frob = 0.0;
        for j in 0..d {
            frob += qdiag[ik * d + j] * qdiag[ik * d + j];
        }
        for j in d..icf_sz {
            let l = theta[ioff + ik * icf_sz + j];
            frob += l * l;
        }
        prior += 0.5 * gamma * gamma * frob - m * sumq[ik];
    }
    let nf = n as f64;
    -nf * (d as f64) * 0.5 * 1.8378770664093453 + slse - nf * lse_alpha + prior
}

/// Generic for num-dual (the points are plain data).
pub fn gmm_objective_nd<D: DualNum<Primitive = f64> + Copy>(
    theta: &[D],
    x: &[f64],
    d: usize,
    k: usize,
    gamma: f64,
    m: f64,
) -> D {
    let n = x.len() / d;
    let icf_sz = d * (d + 1) / 2;
    let (moff, ioff) = (k, k + k * d);
    let zero = D::from(0.0);
    let mut qdiag = vec![zero; k * d];
    let mut sumq = vec![zero; k];
    for ik in 0..k {
        let mut s = zero;
        for j in 0..d {
            let q = theta[ioff + ik * icf_sz + j];
            s += q;
            qdiag[ik * d + j] = q.exp();
        }
        sumq[ik] = s;
    }
    let mut xc = vec![zero; d];
    let mut qx = vec![zero; d];
    let mut main = vec![zero; k];
    let mut slse = zero;
    for ix in 0..n {
        for ik in 0..k {
            for j in 0..d {
                xc[j] = -theta[moff + ik * d + j] + x[ix * d + j];
            }
            for j in 0..d {
                qx[j] = qdiag[ik * d + j] * xc[j];
            }
            let mut li = ioff + ik * icf_sz + d;
            for i in 0..d {
                for j in i + 1..d {
                    qx[j] += theta[li] * xc[i];
                    li += 1;
                }
            }
            let mut sq = zero;
            for j in 0..d {
                sq += qx[j] * qx[j];
            }
            main[ik] = theta[ik] + sumq[ik] - sq * 0.5;
        }
        slse += logsumexp_nd(&main);
    }
    let lse_alpha = logsumexp_nd(&theta[0..k]);
    let mut prior = zero;
    for ik in 0..k {
        let mut frob = zero;
        for j in 0..d {
            frob += qdiag[ik * d + j] * qdiag[ik * d + j];
        }
        for j in d..icf_sz {
            let l = theta[ioff + ik * icf_sz + j];
            frob += l * l;
        }
        prior += frob * (0.5 * gamma * gamma) - sumq[ik] * m;
    }
    let nf = n as f64;
    slse - lse_alpha * nf + prior - nf * (d as f64) * 0.5 * 1.8378770664093453
}

/// [`logsumexp`] for num-dual.
pub fn logsumexp_nd<D: DualNum<Primitive = f64> + Copy>(v: &[D]) -> D {
    let mut mx = v[0];
    for &vi in &v[1..] {
        if vi.re() > mx.re() {
            mx = vi;
        }
    }
    let mut s = D::from(0.0);
    for &vi in v {
        s += (vi - mx).exp();
    }
    s.ln() + mx
}

fn lse_plain(v: &[f64]) -> (f64, f64) {
    let mx = v.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let s: f64 = v.iter().map(|&vi| (vi - mx).exp()).sum();
    (s.ln() + mx, mx)
}

/// The hand-derived (analytic, reverse-style) gradient, written to `g`; returns the value.
///
/// With `yᵢₖ = Q_k(xᵢ - μ_k)` and `pᵢₖ` the softmax over `k` of the main terms:
/// `∂/∂α_k = Σᵢ pᵢₖ - n softmax(α)_k`, `∂/∂μ_k = Σᵢ pᵢₖ Q_kᵀ yᵢₖ`,
/// `∂/∂q_kj = Σᵢ pᵢₖ (1 - yᵢₖⱼ e^{q_kj} (xᵢ - μ_k)ⱼ) + γ² e^{2q_kj} - m`,
/// `∂/∂l_k(r,c) = -Σᵢ pᵢₖ yᵢₖᵣ (xᵢ - μ_k)_c + γ² l_k(r,c)`.
#[allow(clippy::too_many_arguments)]
pub fn gmm_grad_hand(
    theta: &[f64],
    x: &[f64],
    d: usize,
    k: usize,
    gamma: f64,
    m: f64,
    g: &mut [f64],
) -> f64 {
    let n = x.len() / d;
    let icf_sz = d * (d + 1) / 2;
    let (moff, ioff) = (k, k + k * d);
    g.fill(0.0);
    let mut qdiag = vec![0.0; k * d];
    let mut sumq = vec![0.0; k];
    for ik in 0..k {
        for j in 0..d {
            let q = theta[ioff + ik * icf_sz + j];
            sumq[ik] += q;
            qdiag[ik * d + j] = q.exp();
        }
    }
    let mut xc = vec![0.0; k * d];
    let mut qx = vec![0.0; k * d];
    let mut main = vec![0.0; k];
    let mut slse = 0.0;
    for ix in 0..n {
        for ik in 0..k {
            let xc = &mut xc[ik * d..(ik + 1) * d];
            let qx = &mut qx[ik * d..(ik + 1) * d];
            for j in 0..d {
                xc[j] = x[ix * d + j] - theta[moff + ik * d + j];
                qx[j] = qdiag[ik * d + j] * xc[j];
            }
            let mut li = ioff + ik * icf_sz + d;
            for i in 0..d {
                for j in i + 1..d {
                    qx[j] += theta[li] * xc[i];
                    li += 1;
                }
            }
            let sq: f64 = qx.iter().map(|v| v * v).sum();
            main[ik] = theta[ik] + sumq[ik] - 0.5 * sq;
        }
        // Softmax weights, one exponential per component.
        let mx = main.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let mut se = 0.0;
        for ik in 0..k {
            main[ik] = (main[ik] - mx).exp();
            se += main[ik];
        }
        slse += se.ln() + mx;
        for ik in 0..k {
            let p = main[ik] / se;
            let xc = &xc[ik * d..(ik + 1) * d];
            let y = &qx[ik * d..(ik + 1) * d];
            g[ik] += p;
            let base = ioff + ik * icf_sz;
            // μ: p · Qᵀ y; q: p (1 - y_j e^{q_j} xc_j); l(r, c): -p y_r xc_c.
            let mut li = base + d;
            for c in 0..d {
                let mut qty = qdiag[ik * d + c] * y[c];
                g[base + c] += p * (1.0 - y[c] * qdiag[ik * d + c] * xc[c]);
                for r in c + 1..d {
                    qty += theta[li] * y[r];
                    g[li] -= p * y[r] * xc[c];
                    li += 1;
                }
                g[moff + ik * d + c] += p * qty;
            }
        }
    }
    let (lse_alpha, _) = lse_plain(&theta[..k]);
    let nf = n as f64;
    let mut prior = 0.0;
    for ik in 0..k {
        g[ik] -= nf * (theta[ik] - lse_alpha).exp();
        let base = ioff + ik * icf_sz;
        let mut frob = 0.0;
        for j in 0..d {
            let e = qdiag[ik * d + j];
            frob += e * e;
            g[base + j] += gamma * gamma * e * e - m;
        }
        for j in d..icf_sz {
            let l = theta[base + j];
            frob += l * l;
            g[base + j] += gamma * gamma * l;
        }
        prior += 0.5 * gamma * gamma * frob - m * sumq[ik];
    }
    -nf * (d as f64) * 0.5 * 1.8378770664093453 + slse - nf * lse_alpha + prior
}

/// The hand-written derivative along one direction `dtheta` (a Jacobian-vector product,
/// the same algorithm as the derived rule in one direction). Returns `(value, derivative)`.
#[allow(clippy::too_many_arguments)]
pub fn gmm_jvp_hand(
    theta: &[f64],
    dtheta: &[f64],
    x: &[f64],
    d: usize,
    k: usize,
    gamma: f64,
    m: f64,
) -> (f64, f64) {
    let n = x.len() / d;
    let icf_sz = d * (d + 1) / 2;
    let (moff, ioff) = (k, k + k * d);
    let mut qdiag = vec![0.0; k * d];
    let mut dqdiag = vec![0.0; k * d];
    let mut sumq = vec![0.0; k];
    let mut dsumq = vec![0.0; k];
    for ik in 0..k {
        for j in 0..d {
            let at = ioff + ik * icf_sz + j;
            sumq[ik] += theta[at];
            dsumq[ik] += dtheta[at];
            let e = theta[at].exp();
            qdiag[ik * d + j] = e;
            dqdiag[ik * d + j] = e * dtheta[at];
        }
    }
    let (mut xc, mut dxc) = (vec![0.0; d], vec![0.0; d]);
    let (mut qx, mut dqx) = (vec![0.0; d], vec![0.0; d]);
    let (mut main, mut dmain) = (vec![0.0; k], vec![0.0; k]);
    let (mut slse, mut dslse) = (0.0, 0.0);
    for ix in 0..n {
        for ik in 0..k {
            for j in 0..d {
                xc[j] = x[ix * d + j] - theta[moff + ik * d + j];
                dxc[j] = -dtheta[moff + ik * d + j];
                let (q, dq) = (qdiag[ik * d + j], dqdiag[ik * d + j]);
                qx[j] = q * xc[j];
                dqx[j] = dq * xc[j] + q * dxc[j];
            }
            let mut li = ioff + ik * icf_sz + d;
            for i in 0..d {
                for j in i + 1..d {
                    qx[j] += theta[li] * xc[i];
                    dqx[j] += dtheta[li] * xc[i] + theta[li] * dxc[i];
                    li += 1;
                }
            }
            let (mut sq, mut dsq) = (0.0, 0.0);
            for j in 0..d {
                sq += qx[j] * qx[j];
                dsq += 2.0 * qx[j] * dqx[j];
            }
            main[ik] = theta[ik] + sumq[ik] - 0.5 * sq;
            dmain[ik] = dtheta[ik] + dsumq[ik] - 0.5 * dsq;
        }
        // log-sum-exp and its tangent, one exponential per component.
        let mx = main.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let (mut se, mut sde) = (0.0, 0.0);
        for ik in 0..k {
            let e = (main[ik] - mx).exp();
            se += e;
            sde += e * dmain[ik];
        }
        slse += se.ln() + mx;
        dslse += sde / se;
    }
    let (lse_alpha, _) = lse_plain(&theta[..k]);
    let mut dlse_alpha = 0.0;
    for ik in 0..k {
        dlse_alpha += (theta[ik] - lse_alpha).exp() * dtheta[ik];
    }
    let (mut prior, mut dprior) = (0.0, 0.0);
    for ik in 0..k {
        let (mut frob, mut dfrob) = (0.0, 0.0);
        for j in 0..d {
            let (e, de) = (qdiag[ik * d + j], dqdiag[ik * d + j]);
            frob += e * e;
            dfrob += 2.0 * e * de;
        }
        for j in d..icf_sz {
            let at = ioff + ik * icf_sz + j;
            frob += theta[at] * theta[at];
            dfrob += 2.0 * theta[at] * dtheta[at];
        }
        prior += 0.5 * gamma * gamma * frob - m * sumq[ik];
        dprior += 0.5 * gamma * gamma * dfrob - m * dsumq[ik];
    }
    let nf = n as f64;
    (
        -nf * (d as f64) * 0.5 * 1.8378770664093453 + slse - nf * lse_alpha + prior,
        dslse - nf * dlse_alpha + dprior,
    )
}

// --- instances --------------------------------------------------------------------------

/// A GMM instance.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Dimension.
    pub d: usize,
    /// Number of components.
    pub k: usize,
    /// Parameters `[α, μ, icf]`.
    pub theta: Vec<f64>,
    /// Points, `n × d`.
    pub x: Vec<f64>,
    /// Wishart γ.
    pub gamma: f64,
    /// Wishart m.
    pub m: f64,
}

impl Instance {
    /// Number of parameters.
    pub fn nparams(&self) -> usize {
        self.theta.len()
    }

    /// Number of points.
    pub fn npoints(&self) -> usize {
        self.x.len() / self.d
    }

    /// Parses ADBench's format: `D K n`, α, μ, icf, x, `γ m`.
    ///
    /// # Panics
    /// If the text is too short.
    pub fn parse(text: &str) -> Instance {
        let v = crate::data::numbers(text);
        let (d, k, n) = (v[0] as usize, v[1] as usize, v[2] as usize);
        let np = k + k * d + k * d * (d + 1) / 2;
        let theta = v[3..3 + np].to_vec();
        let x = v[3 + np..3 + np + n * d].to_vec();
        let (gamma, m) = (v[3 + np + n * d], v[4 + np + n * d]);
        Instance {
            d,
            k,
            theta,
            x,
            gamma,
            m,
        }
    }

    /// `gmm/1k/<file>` from the ADBench data, when present.
    pub fn load(file: &str) -> Option<Instance> {
        crate::data::read(&format!("gmm/1k/{file}")).map(|t| Instance::parse(&t))
    }

    /// A generated instance of the same shape (ADBench's generator draws uniform values).
    pub fn generate(d: usize, k: usize, n: usize, seed: u64) -> Instance {
        let mut r = crate::rng::Rng::new(seed);
        let np = k + k * d + k * d * (d + 1) / 2;
        let mut theta = r.vec(k, -1.0, 1.0);
        theta.extend(r.vec(k * d, 0.0, 1.0));
        theta.extend(r.vec(np - k - k * d, 0.0, 1.0));
        Instance {
            d,
            k,
            theta,
            x: r.vec(n * d, -1.0, 1.0),
            gamma: 1.0,
            m: 0.0,
        }
    }

    /// The objective at `theta`.
    pub fn objective(&self) -> f64 {
        gmm_objective(&self.theta, &self.x, self.d, self.k, self.gamma, self.m)
    }

    /// The hand-derived gradient at `theta`, written into `g`; returns the objective.
    pub fn grad_hand(&self, g: &mut [f64]) -> f64 {
        gmm_grad_hand(&self.theta, &self.x, self.d, self.k, self.gamma, self.m, g)
    }
}

/// The gradient by fwdad's `gradient` driver, the points, sizes and prior bound as
/// constants (the points passed plain, as `inactive` data).
pub fn gradient_rule(inst: &Instance) -> (f64, Vec<f64>) {
    use fwdad::drivers::{bind, Inactive, Wrt};
    gradient(
        bind(
            gmm_objective {},
            (
                Wrt,
                Inactive(&inst.x[..]),
                inst.d,
                inst.k,
                inst.gamma,
                inst.m,
            ),
        ),
        &inst.theta,
    )
}

/// The derivative along `dtheta` by the derived rule (one direction).
pub fn jvp_rule(inst: &Instance, dtheta: &[f64]) -> (f64, f64) {
    let y = gmm_objective_frule(
        Dual::new(&inst.theta[..], dtheta),
        &inst.x,
        Dual::constant(inst.d),
        Dual::constant(inst.k),
        Dual::constant(inst.gamma),
        Dual::constant(inst.m),
    );
    (y.primal, y.tangent)
}

/// The derivative along `dtheta` by num-dual (`Dual64`).
pub fn jvp_nd(inst: &Instance, td: &[Dual64]) -> (f64, f64) {
    let y = gmm_objective_nd(td, &inst.x, inst.d, inst.k, inst.gamma, inst.m);
    (y.re, y.eps)
}

/// The gradient by num-dual in chunks of `N` (`DualSVec64<N>`).
pub fn gradient_nd<const N: usize>(
    inst: &Instance,
    work: &mut [DualSVec64<N>],
    g: &mut [f64],
) -> f64 {
    crate::optim::nd_gradient(
        |t| gmm_objective_nd(t, &inst.x, inst.d, inst.k, inst.gamma, inst.m),
        work,
        g,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{assert_close, assert_close_tol, FD_TOL};
    use crate::optim::{nd_inputs, W};
    use crate::rng::Rng;

    fn small() -> Instance {
        Instance::generate(3, 4, 20, 9)
    }

    #[test]
    fn gradients_agree_with_the_hand_derived_one() {
        let inst = small();
        let np = inst.nparams();
        let mut g = vec![0.0; np];
        let v = inst.grad_hand(&mut g);
        assert_close("gmm value", &[inst.objective()], &[v]);
        let (rv, rg) = gradient_rule(&inst);
        assert_eq!(rv, inst.objective());
        assert_close("gmm rule gradient", &rg, &g);
        let mut work = nd_inputs::<W>(&inst.theta);
        let mut ng = vec![0.0; np];
        gradient_nd(&inst, &mut work, &mut ng);
        assert_close("gmm num-dual gradient", &ng, &g);
        let mut buf = vec![0.0; np];
        let mut fg = vec![0.0; np];
        crate::fd::gradient(
            |t| gmm_objective(t, &inst.x, inst.d, inst.k, inst.gamma, inst.m),
            &inst.theta,
            &mut buf,
            &mut fg,
        );
        assert_close_tol("gmm fd gradient", &fg, &g, FD_TOL);
    }

    #[test]
    fn directional_derivatives_agree() {
        let inst = small();
        let dt = Rng::new(3).vec(inst.nparams(), -1.0, 1.0);
        let (hv, hd) = gmm_jvp_hand(
            &inst.theta,
            &dt,
            &inst.x,
            inst.d,
            inst.k,
            inst.gamma,
            inst.m,
        );
        let mut g = vec![0.0; inst.nparams()];
        inst.grad_hand(&mut g);
        let gd: f64 = g.iter().zip(&dt).map(|(a, b)| a * b).sum();
        assert_close("gmm hand jvp vs gradient", &[hd], &[gd]);
        let (rv, rd) = jvp_rule(&inst, &dt);
        assert_close("gmm rule jvp", &[rv, rd], &[hv, hd]);
        let td: Vec<Dual64> = inst
            .theta
            .iter()
            .zip(&dt)
            .map(|(&a, &b)| Dual64::new(a, b))
            .collect();
        let (nv, nd) = jvp_nd(&inst, &td);
        assert_close("gmm num-dual jvp", &[nv, nd], &[hv, hd]);
    }

    #[test]
    fn parses_adbench_format() {
        // D = 1, K = 2, n = 2: α (2), μ (2), icf (2 × 1), x (2), γ m.
        let inst = Instance::parse("1 2 2\n0.1\n0.2\n0.3\n0.4\n0.5\n0.6\n1.0\n2.0\n1.0 0\n");
        assert_eq!(inst.theta, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
        assert_eq!(inst.x, [1.0, 2.0]);
        assert_eq!((inst.gamma, inst.m), (1.0, 0.0));
    }
}
