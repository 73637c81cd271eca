//! Statistics and econometrics code as it is written, annotated unmodified: a negative
//! binomial log-likelihood with a hand-written `ln_gamma` (Lanczos, `const` coefficient
//! table, reflection by early return, as statrs writes it), an ARMA(1, 1) filter whose
//! conditional likelihood returns `Result` through `?` on a stationarity check, a
//! Kaplan-Meier-like survival product from logistic hazards (`scan`, `take_while`), and a
//! Poisson regression over a link enum and `impl Fn` weights. Each is checked in every mode
//! against central differences (`check_modes!`, primals bit for bit) and against closed
//! forms.
#![allow(clippy::needless_range_loop, clippy::excessive_precision)]

mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use std::f64::consts::PI;
use std::fmt;

// ---------------------------------------------------------------------------------------
// A hand-written log-gamma and a negative binomial likelihood.

const LANCZOS_G: f64 = 7.0;
const LANCZOS_COEF: [f64; 9] = [
    0.999_999_999_999_809_93,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_13,
    -176.615_029_162_140_59,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_571_6e-6,
    1.505_632_735_149_311_6e-7,
];

/// `ln Γ(x)` by the Lanczos approximation, reflected below 1/2.
#[derive_frule]
pub fn ln_gamma(x: f64) -> f64 {
    if x < 0.5 {
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = LANCZOS_COEF[0];
    let t = x + LANCZOS_G + 0.5;
    for (i, &c) in LANCZOS_COEF.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The negative binomial log-likelihood of counts, mean `mu`, dispersion `r`.
#[derive_frule]
pub fn neg_binomial_loglik(counts: &[u32], mu: f64, r: f64) -> f64 {
    let p = r / (r + mu);
    counts
        .iter()
        .map(|&k| {
            let k = f64::from(k);
            ln_gamma(k + r) - ln_gamma(r) - ln_gamma(k + 1.0) + r * p.ln() + k * (1.0 - p).ln()
        })
        .sum()
}

#[test]
fn negative_binomial_in_every_mode() {
    let counts = [0u32, 3, 1, 7, 2, 4, 0, 5];
    check_modes!(
        bind(nb_of {}, (Wrt, &counts[..])),
        |p: &[f64]| nb_of(p, &counts),
        [2.5, 1.7]
    );
    // Closed form: ∂ℓ/∂μ = Σ (k/μ − (k + r)/(μ + r)).
    let (mu, r) = (2.5, 1.7);
    let (v, g) = gradient(bind(nb_of {}, (Wrt, &counts[..])), &[mu, r]);
    assert_eq!(v.to_bits(), neg_binomial_loglik(&counts, mu, r).to_bits());
    let want: f64 = counts
        .iter()
        .map(|&k| k as f64 / mu - (k as f64 + r) / (mu + r))
        .sum();
    assert_close(g[0], want, 1e-12, "d loglik / d mu");
}

#[derive_frule]
fn nb_of(p: &[f64], counts: &[u32]) -> f64 {
    neg_binomial_loglik(counts, p[0], p[1])
}

#[test]
fn ln_gamma_derivative_is_digamma() {
    // ψ(x) by recurrence up to 10 and the asymptotic series there, independent of the code.
    fn digamma(mut x: f64) -> f64 {
        let mut acc = 0.0;
        while x < 10.0 {
            acc -= 1.0 / x;
            x += 1.0;
        }
        let x2 = 1.0 / (x * x);
        acc + x.ln() - 0.5 / x - x2 * (1.0 / 12.0 - x2 * (1.0 / 120.0 - x2 / 252.0))
    }
    for x in [0.3, 1.0, 2.5, 7.2] {
        let (v, d) = derivative(ln_gamma {}, x);
        assert_eq!(v.to_bits(), ln_gamma(x).to_bits());
        assert_close(d, digamma(x), 1e-10, "digamma");
    }
}

// ---------------------------------------------------------------------------------------
// ARMA(1, 1) with a stationarity check.

#[derive(Debug, Clone, PartialEq)]
pub enum ArmaError {
    NonStationary(f64),
    NonInvertible(f64),
    NoData,
}

impl fmt::Display for ArmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArmaError::NonStationary(phi) => write!(f, "AR coefficient {phi} outside (-1, 1)"),
            ArmaError::NonInvertible(theta) => {
                write!(f, "MA coefficient {theta} outside (-1, 1)")
            }
            ArmaError::NoData => write!(f, "empty series"),
        }
    }
}

#[derive(Differentiable, Clone, Debug)]
pub struct Arma {
    pub c: f64,
    pub phi: f64,
    pub theta: f64,
    pub sigma: f64,
}

#[derive_frule]
impl Arma {
    fn check(&self) -> Result<(), ArmaError> {
        if self.phi.abs() >= 1.0 {
            return Err(ArmaError::NonStationary(self.phi));
        }
        if self.theta.abs() >= 1.0 {
            return Err(ArmaError::NonInvertible(self.theta));
        }
        Ok(())
    }

    /// The innovations `e_t = y_t − c − φ y_{t−1} − θ e_{t−1}`, started at zero.
    pub fn residuals(&self, y: &[f64]) -> Result<Vec<f64>, ArmaError> {
        self.check()?;
        if y.is_empty() {
            return Err(ArmaError::NoData);
        }
        let mut e = Vec::with_capacity(y.len());
        let mut prev_e = 0.0;
        let mut prev_y = None;
        for &yt in y {
            let pred = match prev_y {
                Some(p) => self.c + self.phi * p + self.theta * prev_e,
                None => self.c / (1.0 - self.phi),
            };
            let et = yt - pred;
            e.push(et);
            prev_e = et;
            prev_y = Some(yt);
        }
        Ok(e)
    }

    pub fn conditional_loglik(&self, y: &[f64]) -> Result<f64, ArmaError> {
        let e = self.residuals(y)?;
        let n = e.len() as f64;
        let ss: f64 = e.iter().map(|v| v * v).sum();
        Ok(-0.5 * n * (2.0 * PI * self.sigma * self.sigma).ln()
            - ss / (2.0 * self.sigma * self.sigma))
    }
}

#[derive_frule]
pub fn arma_objective(p: &[f64], y: &[f64]) -> f64 {
    let model = Arma {
        c: p[0],
        phi: p[1].tanh(),
        theta: p[2].tanh(),
        sigma: p[3].exp(),
    };
    match model.conditional_loglik(y) {
        Ok(ll) => -ll,
        Err(_) => f64::INFINITY,
    }
}

fn series() -> Vec<f64> {
    let mut y = vec![0.4];
    let mut e_prev = 0.1;
    for t in 1..40 {
        let e = 0.3 * ((t * 37 % 11) as f64 / 11.0 - 0.5);
        y.push(0.2 + 0.6 * y[t - 1] + e + 0.3 * e_prev);
        e_prev = e;
    }
    y
}

#[test]
fn arma_likelihood_in_every_mode() {
    let y = series();
    check_modes!(
        bind(arma_objective {}, (Wrt, &y[..])),
        |p: &[f64]| arma_objective(p, &y),
        [0.15, 0.5, 0.2, -1.5]
    );
    // Closed form in σ: ∂(−ℓ)/∂ log σ = n − SS/σ².
    let p = [0.15, 0.5, 0.2, -1.5];
    let (_, g) = gradient(bind(arma_objective {}, (Wrt, &y[..])), &p);
    let model = Arma {
        c: p[0],
        phi: p[1].tanh(),
        theta: p[2].tanh(),
        sigma: p[3].exp(),
    };
    let ss: f64 = model.residuals(&y).unwrap().iter().map(|e| e * e).sum();
    let s2 = model.sigma * model.sigma;
    assert_close(g[3], y.len() as f64 - ss / s2, 1e-10, "d / d log sigma");
}

// ---------------------------------------------------------------------------------------
// A survival curve from logistic hazards.

#[derive_frule]
fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Survival `S(t) = Π_{s ≤ t} (1 − h_s)` with discrete hazards `h_s = σ(a + b s + c x)`, the
/// curve up to where it drops below `floor`.
#[derive_frule]
pub fn survival_curve(coef: &[f64], covariate: f64, horizon: usize, floor: f64) -> Vec<f64> {
    (0..horizon)
        .map(|s| logistic(coef[0] + coef[1] * s as f64 + coef[2] * covariate))
        .scan(1.0, |surv, h| {
            *surv *= 1.0 - h;
            Some(*surv)
        })
        .take_while(|&s| s > floor)
        .collect()
}

/// The restricted mean survival time (the area under the curve) of two groups, and the
/// log-likelihood of observed event times, some censored.
#[derive_frule]
pub fn survival_fit(coef: &[f64], events: &[(usize, bool, f64)]) -> f64 {
    let rmst: f64 = [0.0, 1.0]
        .iter()
        .map(|&x| survival_curve(coef, x, 12, 1e-6).iter().sum::<f64>())
        .sum();
    let mut ll = 0.0;
    for &(t, observed, x) in events {
        let curve = survival_curve(coef, x, t + 1, 0.0);
        let s_before = if t == 0 { 1.0 } else { curve[t - 1] };
        ll += if observed {
            (s_before - curve[t]).ln()
        } else {
            curve[t].ln()
        };
    }
    ll + 0.01 * rmst
}

#[test]
fn survival_in_every_mode() {
    let events = [
        (2, true, 0.0),
        (5, false, 1.0),
        (1, true, 1.0),
        (7, true, 0.0),
        (3, false, 0.0),
    ];
    check_modes!(
        bind(survival_fit {}, (Wrt, &events[..])),
        |c: &[f64]| survival_fit(c, &events),
        [-1.5, 0.1, 0.4]
    );
    // Closed form: with a constant hazard h = σ(a), S(t) = (1 − h)^(t+1), whose derivative
    // in a is −(t+1)(1 − h)^(t+1) h.
    #[derive_frule]
    fn s_at_4(a: f64) -> f64 {
        survival_curve(&[a, 0.0, 0.0], 0.0, 10, 0.0)[4]
    }
    let a = -1.2;
    let h = 1.0 / (1.0 + (1.2f64).exp());
    let (v, d) = derivative(s_at_4 {}, a);
    assert_close(v, (1.0 - h).powi(5), 1e-14, "S(4)");
    assert_close(d, -5.0 * (1.0 - h).powi(5) * h, 1e-13, "dS(4)/da");
}

// ---------------------------------------------------------------------------------------
// Poisson regression with a link enum and observation weights.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Link {
    Log,
    Identity,
    Sqrt,
}

#[derive_frule]
fn inverse_link(link: Link, eta: f64) -> f64 {
    match link {
        Link::Log => eta.exp(),
        Link::Identity => eta,
        Link::Sqrt => eta * eta,
    }
}

/// The weighted Poisson deviance of `y` under the linear predictor `X β`.
#[derive_frule]
pub fn poisson_deviance(
    beta: &[f64],
    x: &[Vec<f64>],
    y: &[f64],
    link: Link,
    weight: impl Fn(usize) -> f64,
) -> f64 {
    let mut dev = 0.0;
    for (i, (row, &yi)) in x.iter().zip(y).enumerate() {
        let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
        let mu = inverse_link(link, eta);
        let term = if yi > 0.0 { yi * (yi / mu).ln() } else { 0.0 };
        dev += 2.0 * weight(i) * (term - (yi - mu));
    }
    dev
}

#[derive_frule]
fn deviance_all_links(beta: &[f64], x: &[Vec<f64>], y: &[f64]) -> f64 {
    let w = |i: usize| 1.0 / (1.0 + 0.1 * i as f64);
    [Link::Log, Link::Identity, Link::Sqrt]
        .into_iter()
        .map(|l| poisson_deviance(beta, x, y, l, w))
        .sum()
}

#[test]
fn poisson_regression_in_every_mode() {
    let x: Vec<Vec<f64>> = (0..8)
        .map(|i| vec![1.0, 0.2 * i as f64, ((i * 3) % 5) as f64 * 0.1])
        .collect();
    let y = [1.0, 2.0, 0.0, 3.0, 2.0, 4.0, 3.0, 6.0];
    check_modes!(
        bind(deviance_all_links {}, (Wrt, &x[..], &y[..])),
        |b: &[f64]| deviance_all_links(b, &x, &y),
        [0.9, 0.6, 0.3]
    );
    // Closed form for the log link: ∂D/∂β = −2 Σ w_i (y_i − μ_i) x_i.
    let beta = [0.9, 0.6, 0.3];
    #[derive_frule]
    fn unweighted_log(beta: &[f64], x: &[Vec<f64>], y: &[f64]) -> f64 {
        poisson_deviance(beta, x, y, Link::Log, |_| 1.0)
    }
    let (_, g) = gradient(bind(unweighted_log {}, (Wrt, &x[..], &y[..])), &beta);
    for k in 0..3 {
        let want: f64 = x
            .iter()
            .zip(&y)
            .map(|(row, yi)| {
                let mu = (row[0] * beta[0] + row[1] * beta[1] + row[2] * beta[2]).exp();
                -2.0 * (yi - mu) * row[k]
            })
            .sum();
        assert_close(g[k], want, 1e-11, "d deviance / d beta");
    }
}
