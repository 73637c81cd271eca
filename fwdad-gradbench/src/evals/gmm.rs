//! `gmm`: the log posterior of a Gaussian mixture with a Wishart prior on the precision
//! matrices `Σₖ⁻¹ = QₖᵀQₖ`, `Qₖ` lower triangular with diagonal `exp qₖ` and the strictly
//! lower part `lₖ` column by column; `jacobian` is its gradient in `(α, μ, q, l)`.
//!
//! Forward mode needs one direction per parameter, `k(d + 1)(d + 2)/2` of them: 30 at
//! `d = 2, k = 5`, 214,500 at `d = 64, k = 100`, in `⌈P / 32⌉` passes over all the points.

// The objectives take the eval's arrays as they come; `#[allow]` on the function does not
// reach the rule `#[derive_frule]` generates next to it, so it is set for the module.
#![allow(clippy::too_many_arguments)]

use crate::input::{self, Runs};
use crate::protocol::Evaluation;
use fwdad::prelude::*;
use serde_json::{json, Value};

/// `log Σ exp vᵢ`, stably.
#[derive_frule]
pub fn logsumexp(v: &[f64]) -> f64 {
    let mut max = v[0];
    for i in 1..v.len() {
        if v[i] > max {
            max = v[i];
        }
    }
    let mut s = 0.0;
    for i in 0..v.len() {
        s += (v[i] - max).exp();
    }
    s.ln() + max
}

/// `log Γ_d(a)`, the multivariate gamma function, for `a` a multiple of ½ with
/// `a ≥ (d + 1)/2` (the prior's `a = (d + m + 1)/2`).
pub fn log_multigamma(a: f64, d: usize) -> f64 {
    let mut out = 0.25 * (d * (d - 1)) as f64 * std::f64::consts::PI.ln();
    for j in 1..=d {
        out += log_gamma_half_integer(a + 0.5 * (1.0 - j as f64));
    }
    out
}

/// `log Γ(x)` for `x ≥ ½` a multiple of ½: `Γ(1) = 1`, `Γ(½) = √π`, `Γ(x + 1) = xΓ(x)`.
fn log_gamma_half_integer(x: f64) -> f64 {
    assert!(
        x >= 0.5 && (2.0 * x).fract() == 0.0,
        "log Γ({x}) is only needed at halves"
    );
    let (mut t, mut out) = if x.fract() == 0.0 {
        (1.0, 0.0)
    } else {
        (0.5, 0.5 * std::f64::consts::PI.ln())
    };
    while t < x {
        out += t.ln();
        t += 1.0;
    }
    out
}

/// The log posterior. `x` holds the `n × d` points, `alpha` `k` weights, `mu` and `q`
/// `k × d`, `l` `k × d(d − 1)/2`, all row-major.
#[derive_frule(inactive(x))]
pub fn log_posterior(
    alpha: &[f64],
    mu: &[f64],
    q: &[f64],
    l: &[f64],
    x: &[f64],
    d: usize,
    gamma: f64,
    m: usize,
) -> f64 {
    let k = alpha.len();
    let n = x.len() / d;
    let lsz = d * (d - 1) / 2;
    let mut sum_q = vec![0.0; k];
    for ik in 0..k {
        for j in 0..d {
            sum_q[ik] += q[ik * d + j];
        }
    }
    // log p(X | θ, φ) = −N(D/2 log 2π + lse(α)) + Σᵢ lse(βᵢ).
    let mut centered = vec![0.0; d];
    let mut qx = vec![0.0; d];
    let mut beta = vec![0.0; k];
    let mut sum_lse = 0.0;
    for i in 0..n {
        for ik in 0..k {
            for j in 0..d {
                centered[j] = x[i * d + j] - mu[ik * d + j];
            }
            // Qₖ(xᵢ − μₖ): the diagonal, then the strictly lower part column by column.
            for j in 0..d {
                qx[j] = q[ik * d + j].exp() * centered[j];
            }
            let mut li = ik * lsz;
            for col in 0..d {
                for row in col + 1..d {
                    qx[row] += l[li] * centered[col];
                    li += 1;
                }
            }
            let mut sq = 0.0;
            for j in 0..d {
                sq += qx[j] * qx[j];
            }
            beta[ik] = alpha[ik] - 0.5 * sq + sum_q[ik];
        }
        sum_lse += logsumexp(&beta);
    }
    let two_pi = 2.0 * std::f64::consts::PI;
    let likelihood = -(n as f64) * (0.5 * d as f64 * two_pi.ln() + logsumexp(alpha)) + sum_lse;
    // log p(θ) = K(nD log(γ/√2) − log Γ_D(n/2)) − γ²/2 Σₖ‖Qₖ‖²_F + m Σₖ Σⱼ qₖⱼ.
    let dof = d + m + 1;
    let constant =
        (dof * d) as f64 * (gamma / 2f64.sqrt()).ln() - log_multigamma(0.5 * dof as f64, d);
    let mut frobenius = 0.0;
    for i in 0..k * d {
        frobenius += (2.0 * q[i]).exp();
    }
    for i in 0..k * lsz {
        frobenius += l[i] * l[i];
    }
    let mut sum_all_q = 0.0;
    for ik in 0..k {
        sum_all_q += sum_q[ik];
    }
    let prior = k as f64 * constant - 0.5 * gamma * gamma * frobenius + m as f64 * sum_all_q;
    likelihood + prior
}

/// [`log_posterior`] of the parameters packed as `[α, μ, q, l]`, for the gradient driver.
#[derive_frule(inactive(x))]
pub fn log_posterior_packed(
    params: &[f64],
    x: &[f64],
    d: usize,
    k: usize,
    gamma: f64,
    m: usize,
) -> f64 {
    let (alpha, rest) = params.split_at(k);
    let (mu, rest) = rest.split_at(k * d);
    let (q, l) = rest.split_at(k * d);
    log_posterior(alpha, mu, q, l, x, d, gamma, m)
}

/// The GMM problem as the eval sends it.
pub struct Gmm {
    pub d: usize,
    pub k: usize,
    pub gamma: f64,
    pub m: usize,
    /// `[α, μ, q, l]`, each row-major.
    pub params: Vec<f64>,
    pub x: Vec<f64>,
}

impl Gmm {
    pub fn objective(&self) -> f64 {
        log_posterior_packed(&self.params, &self.x, self.d, self.k, self.gamma, self.m)
    }

    /// The gradient, packed like `params`.
    pub fn gradient(&self) -> Vec<f64> {
        let f = bind(
            log_posterior_packed {},
            (
                Wrt,
                Inactive(&self.x[..]),
                self.d,
                self.k,
                self.gamma,
                self.m,
            ),
        );
        gradient(f, &self.params).1
    }

    /// The gradient as the eval's `Independent`: `{alpha, mu, q, l}`.
    pub fn unpack(&self, g: &[f64]) -> Value {
        let (k, d) = (self.k, self.d);
        let (alpha, rest) = g.split_at(k);
        let (mu, rest) = rest.split_at(k * d);
        let (q, l) = rest.split_at(k * d);
        let lsz = d * (d - 1) / 2;
        let l_rows = if lsz == 0 {
            Value::from(vec![Vec::<f64>::new(); k])
        } else {
            input::to_rows(l, lsz)
        };
        json!({ "alpha": alpha, "mu": input::to_rows(mu, d), "q": input::to_rows(q, d), "l": l_rows })
    }

    pub fn from_input(input: &Value) -> Result<Gmm, String> {
        let d = input::int(input, "d")?;
        let k = input::int(input, "k")?;
        let gamma = input::float(input, "gamma")?;
        let m = input::int(input, "m")?;
        let alpha = input::floats(input, "alpha")?;
        let (mu, _) = input::rows(input, "mu")?;
        let (q, _) = input::rows(input, "q")?;
        let l = match input.get("l").and_then(Value::as_array) {
            Some(rows) => rows
                .iter()
                .map(|r| input::floats_of(r, "l"))
                .collect::<Result<Vec<_>, _>>()?
                .concat(),
            None => return Err("input has no field `l`".into()),
        };
        let (x, dx) = input::rows(input, "x")?;
        let lsz = d * (d - 1) / 2;
        if alpha.len() != k
            || mu.len() != k * d
            || q.len() != k * d
            || l.len() != k * lsz
            || dx != d
        {
            return Err("the shapes of alpha, mu, q, l or x do not match d and k".into());
        }
        let params = [alpha, mu, q, l].concat();
        Ok(Gmm {
            d,
            k,
            gamma,
            m,
            params,
            x,
        })
    }
}

pub fn evaluate(function: &str, input: &Value) -> Result<Evaluation, String> {
    let gmm = Gmm::from_input(input)?;
    let runs = Runs::of(input);
    match function {
        "objective" => Ok(runs.measure(|| gmm.objective(), Value::from)),
        "jacobian" => Ok(runs.measure(|| gmm.gradient(), |g| gmm.unpack(&g))),
        _ => Err(format!("`gmm` has no function `{function}`")),
    }
}
