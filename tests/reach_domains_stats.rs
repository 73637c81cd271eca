//! Econometrics and statistics as practitioners write them, annotated unmodified: a
//! GARCH(1,1) log-likelihood with variance targeting, logistic regression with an L2
//! penalty over a struct of features, a local-level Kalman filter's log-likelihood, the
//! Huber and pinball (quantile) losses behind a loss enum, and a two-component Student-t
//! mixture with a hand-written `ln_gamma`. Each is checked against central differences in
//! every mode (`check_modes!`, primals bit for bit) and against closed forms where there
//! is one.
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::drivers::Var;
use fwdad::prelude::*;
use std::f64::consts::PI;

/// Returns of a made-up asset, a deterministic stand-in for data.
fn returns(n: usize) -> Vec<f64> {
    let mut state = 12345u64;
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            0.02 * (u - 0.5) * (1.0 + (u * 7.0).sin())
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Program 13: GARCH(1,1) Gaussian log-likelihood.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Garch {
    pub omega: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive_frule]
impl Garch {
    pub fn is_stationary(&self) -> bool {
        self.alpha + self.beta < 1.0
    }

    pub fn log_likelihood(&self, r: &[f64]) -> f64 {
        if !self.is_stationary() || self.omega <= 0.0 {
            return f64::NEG_INFINITY;
        }
        let mut sigma2 = self.omega / (1.0 - self.alpha - self.beta);
        let mut ll = 0.0;
        for &rt in r {
            ll -= 0.5 * ((2.0 * PI).ln() + sigma2.ln() + rt * rt / sigma2);
            sigma2 = self.omega + self.alpha * rt * rt + self.beta * sigma2;
        }
        ll
    }
}

#[derive_frule]
pub fn garch_nll(theta: &[f64], r: &[f64]) -> f64 {
    let g = Garch {
        omega: theta[0].exp(),
        alpha: theta[1],
        beta: theta[2],
    };
    -g.log_likelihood(r) / r.len() as f64
}

// ---------------------------------------------------------------------------------------
// Program 14: logistic regression with an L2 penalty.

#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Vec<f64>,
    pub label: bool,
}

#[derive_frule]
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

#[derive_frule]
pub fn log1p_exp(z: f64) -> f64 {
    if z > 35.0 {
        z
    } else {
        z.exp().ln_1p()
    }
}

/// The penalised negative log-likelihood; `w[0]` is the intercept (not penalised).
#[derive_frule(inactive(xs, ys))]
pub fn logistic_loss(w: &[f64], xs: &[f64], ys: &[f64], lambda: f64) -> f64 {
    let d = w.len() - 1;
    let mut nll = 0.0;
    for (x, &y) in xs.chunks_exact(d).zip(ys) {
        let z = w[0] + w[1..].iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
        // −[y log σ(z) + (1 − y) log(1 − σ(z))] = log(1 + eᶻ) − y z
        nll += log1p_exp(z) - y * z;
    }
    let penalty: f64 = w[1..].iter().map(|v| v * v).sum();
    nll / ys.len() as f64 + 0.5 * lambda * penalty
}

// ---------------------------------------------------------------------------------------
// Program 15: the local-level model's Kalman filter log-likelihood.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct LocalLevel {
    pub obs_var: f64,
    pub level_var: f64,
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Filtered {
    pub mean: f64,
    pub var: f64,
}

#[derive_frule]
impl LocalLevel {
    /// One predict–update step; returns the new state and the observation's
    /// log-density.
    pub fn step(&self, prior: Filtered, y: f64) -> (Filtered, f64) {
        let pred = Filtered {
            mean: prior.mean,
            var: prior.var + self.level_var,
        };
        let innovation = y - pred.mean;
        let s = pred.var + self.obs_var;
        let gain = pred.var / s;
        let post = Filtered {
            mean: pred.mean + gain * innovation,
            var: (1.0 - gain) * pred.var,
        };
        let log_density = -0.5 * ((2.0 * PI * s).ln() + innovation * innovation / s);
        (post, log_density)
    }

    pub fn log_likelihood(&self, ys: &[f64]) -> f64 {
        let mut state = Filtered {
            mean: ys[0],
            var: 1e4,
        };
        ys.iter()
            .skip(1)
            .map(|&y| {
                let (next, ld) = self.step(state, y);
                state = next;
                ld
            })
            .sum()
    }
}

#[derive_frule]
pub fn kalman_nll(log_vars: &[f64], ys: &[f64]) -> f64 {
    let model = LocalLevel {
        obs_var: log_vars[0].exp(),
        level_var: log_vars[1].exp(),
    };
    -model.log_likelihood(ys)
}

// ---------------------------------------------------------------------------------------
// Program 16: robust and quantile regression losses behind an enum.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Loss {
    Squared,
    Huber { delta: f64 },
    Quantile { tau: f64 },
    LogCosh,
}

#[derive_frule]
impl Loss {
    pub fn eval(&self, residual: f64) -> f64 {
        match self {
            Loss::Squared => 0.5 * residual * residual,
            Loss::Huber { delta } if residual.abs() <= *delta => 0.5 * residual * residual,
            Loss::Huber { delta } => delta * (residual.abs() - 0.5 * delta),
            Loss::Quantile { tau } => {
                if residual >= 0.0 {
                    tau * residual
                } else {
                    (tau - 1.0) * residual
                }
            }
            Loss::LogCosh => residual.cosh().ln(),
        }
    }
}

/// A linear model's empirical risk: `beta` against points `(x, y)`.
#[derive_frule]
pub fn empirical_risk(loss: &Loss, beta: &[f64], x: &[f64], y: &[f64]) -> f64 {
    x.iter()
        .zip(y.iter())
        .map(|(&xi, &yi)| loss.eval(yi - (beta[0] + beta[1] * xi)))
        .sum::<f64>()
        / x.len() as f64
}

// ---------------------------------------------------------------------------------------
// Program 17: a two-component Student-t mixture's log-likelihood.

/// Lanczos approximation (g = 7, n = 9), as Numerical Recipes prints it.
#[derive_frule]
pub fn ln_gamma(x: f64) -> f64 {
    const COEFS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = COEFS[0];
    let t = x + 7.5;
    for (i, &c) in COEFS.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct StudentT {
    pub loc: f64,
    pub scale: f64,
    pub dof: f64,
}

#[derive_frule]
impl StudentT {
    pub fn ln_pdf(&self, x: f64) -> f64 {
        let nu = self.dof;
        let z = (x - self.loc) / self.scale;
        ln_gamma(0.5 * (nu + 1.0))
            - ln_gamma(0.5 * nu)
            - 0.5 * (nu * PI).ln()
            - self.scale.ln()
            - 0.5 * (nu + 1.0) * (z * z / nu).ln_1p()
    }
}

#[derive_frule]
pub fn log_sum_exp2(a: f64, b: f64) -> f64 {
    let m = a.max(b);
    m + ((a - m).exp() + (b - m).exp()).ln()
}

#[derive_frule]
pub fn t_mixture_nll(theta: &[f64], data: &[f64]) -> f64 {
    let w = sigmoid(theta[0]);
    let comps = [
        StudentT {
            loc: theta[1],
            scale: theta[2].exp(),
            dof: 3.0,
        },
        StudentT {
            loc: theta[3],
            scale: theta[4].exp(),
            dof: theta[5].exp() + 1.0,
        },
    ];
    let mut nll = 0.0;
    for &x in data {
        nll -= log_sum_exp2(
            w.ln() + comps[0].ln_pdf(x),
            (1.0 - w).ln() + comps[1].ln_pdf(x),
        );
    }
    nll
}

// ---------------------------------------------------------------------------------------

#[test]
fn garch_in_every_mode() {
    let r = returns(300);
    let plain = |x: &[f64]| garch_nll(x, &r);
    check_modes!(
        bind(garch_nll {}, (Wrt, &r[..])),
        plain,
        [(2e-5f64).ln(), 0.08, 0.85]
    );
    // A non-stationary point is −∞ with a zero derivative, as plain code gives.
    let (v, g) = gradient(
        bind(garch_nll {}, (Wrt, &r[..])),
        &[(2e-5f64).ln(), 0.3, 0.8],
    );
    assert_eq!(v, f64::INFINITY);
    assert_eq!(g, [0.0, 0.0, 0.0]);
}

#[test]
fn logistic_regression_in_every_mode() {
    let samples: Vec<Sample> = (0..40)
        .map(|i| {
            let t = i as f64 / 40.0;
            Sample {
                features: vec![(7.0 * t).sin(), t - 0.5, (3.0 * t).cos()],
                label: (11.0 * t).sin() + t > 0.4,
            }
        })
        .collect();
    let xs: Vec<f64> = samples.iter().flat_map(|s| s.features.clone()).collect();
    let ys: Vec<f64> = samples.iter().map(|s| s.label as u8 as f64).collect();
    let plain = |w: &[f64]| logistic_loss(w, &xs, &ys, 0.1);
    let w = [0.2, -0.7, 1.1, 0.4];
    check_modes!(
        bind(
            logistic_loss {},
            (Wrt, Inactive(&xs[..]), Inactive(&ys[..]), 0.1)
        ),
        plain,
        w
    );
    // Closed form: ∇ = Xᵀ(σ(Xw) − y)/n + λ w (intercept unpenalised).
    let (_, g) = gradient(
        bind(
            logistic_loss {},
            (Wrt, Inactive(&xs[..]), Inactive(&ys[..]), 0.1),
        ),
        &w,
    );
    let mut want = [0.0, 0.1 * w[1], 0.1 * w[2], 0.1 * w[3]];
    for (x, &y) in xs.chunks(3).zip(&ys) {
        let z = w[0] + w[1] * x[0] + w[2] * x[1] + w[3] * x[2];
        let e = (sigmoid(z) - y) / ys.len() as f64;
        want[0] += e;
        for k in 0..3 {
            want[k + 1] += e * x[k];
        }
    }
    for k in 0..4 {
        assert_close(g[k], want[k], 1e-13, &format!("∂L/∂w{k}"));
    }
}

#[test]
fn kalman_filter_in_every_mode() {
    let ys: Vec<f64> = (0..60)
        .map(|i| (i as f64 * 0.2).sin() + 0.3 * ((i * 7 % 11) as f64 / 11.0 - 0.5))
        .collect();
    let plain = |x: &[f64]| kalman_nll(x, &ys);
    check_modes!(bind(kalman_nll {}, (Wrt, &ys[..])), plain, [-3.0, -2.5]);
}

#[test]
fn huber_and_quantile_losses_in_every_mode() {
    let x: Vec<f64> = (0..25).map(|i| i as f64 / 5.0).collect();
    let y: Vec<f64> = x
        .iter()
        .map(|&t| {
            1.0 + 0.5 * t
                + if (t * 3.0) as i32 % 7 == 0 {
                    3.0
                } else {
                    0.1 * t.sin()
                }
        })
        .collect();
    for loss in [
        Loss::Squared,
        Loss::Huber { delta: 0.8 },
        Loss::Quantile { tau: 0.3 },
        Loss::LogCosh,
    ] {
        let plain = |b: &[f64]| empirical_risk(&loss, b, &x, &y);
        check_modes!(
            bind(empirical_risk {}, (&loss, Wrt, &x[..], &y[..])),
            plain,
            [0.93, 0.47]
        );
    }
    // Closed form: the Huber loss's derivative in δ beyond it is |r| − δ.
    let (_, d) = derivative(bind(huber_tail {}, (Var(0),)), 0.8);
    assert_close(d, 2.5 - 0.8, 1e-15, "∂huber/∂δ");
}

#[derive_frule]
fn huber_tail(delta: f64) -> f64 {
    Loss::Huber { delta }.eval(-2.5)
}

#[test]
fn student_t_mixture_in_every_mode() {
    let data: Vec<f64> = (0..50)
        .map(|i| {
            let t = i as f64;
            if i % 3 == 0 {
                2.0 + 0.4 * (t * 1.7).sin()
            } else {
                -0.5 + (t * 0.9).cos()
            }
        })
        .collect();
    let plain = |x: &[f64]| t_mixture_nll(x, &data);
    check_modes!(
        bind(t_mixture_nll {}, (Wrt, &data[..])),
        plain,
        [-0.4, 2.0, -0.9, -0.4, 0.1, 1.0]
    );
    // Closed form: d ln Γ(x)/dx is the digamma function; ψ(1) = −γ, ψ(1/2) = −γ − 2 ln 2.
    let euler = 0.577_215_664_901_532_9;
    let (_, d1) = derivative(ln_gamma {}, 1.0);
    assert_close(d1, -euler, 1e-12, "ψ(1)");
    let (_, dh) = derivative(ln_gamma {}, 0.5);
    assert_close(dh, -euler - 2.0 * 2f64.ln(), 1e-12, "ψ(1/2)");
    let (_, dr) = derivative(ln_gamma {}, 0.25);
    // ψ(1/4) = −γ − π/2 − 3 ln 2, through the reflection branch.
    assert_close(dr, -euler - PI / 2.0 - 3.0 * 2f64.ln(), 1e-12, "ψ(1/4)");
}
