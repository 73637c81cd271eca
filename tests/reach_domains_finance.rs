//! Quantitative finance as quants write it, annotated unmodified: Black–Scholes prices and
//! greeks over a market struct and an option-kind enum, a Cox–Ross–Rubinstein binomial
//! tree for an American put, Hagan's SABR implied volatility, a yield curve bootstrapped
//! from par swaps by Newton's method (with an error type and `?`), and a Monte Carlo price
//! over a seeded `Lcg` struct. Each is checked against central differences of the plain
//! function in one direction, in batches and at second order, primals bit for bit
//! (`check_modes!`), and against closed forms where there is one (Black–Scholes greeks,
//! put–call parity, the derivative of a bootstrapped discount factor).
#![allow(clippy::needless_range_loop)]

mod common;

use common::modes::assert_close;
use fwdad::drivers::{Const, Var};
use fwdad::prelude::*;
use std::f64::consts::{PI, SQRT_2};
use std::fmt;

// ---------------------------------------------------------------------------------------
// Program 1: Black–Scholes with a market struct, an option-kind enum and greeks.

/// erfc by the Chebyshev fit of Numerical Recipes (fractional error below 1.2e-7).
#[derive_frule]
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let ans = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398
                                    + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 {
        ans
    } else {
        2.0 - ans
    }
}

#[derive_frule]
pub fn norm_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

#[derive_frule]
pub fn norm_pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * PI).sqrt()
}

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    Call,
    Put,
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Market {
    pub spot: f64,
    pub rate: f64,
    pub dividend: f64,
    pub vol: f64,
}

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct EuropeanOption {
    pub kind: OptionKind,
    pub strike: f64,
    pub expiry: f64,
}

#[derive(Differentiable, Clone, Copy, Debug, Default)]
pub struct Greeks {
    pub price: f64,
    pub delta: f64,
    pub gamma: f64,
    pub vega: f64,
}

#[derive_frule]
impl EuropeanOption {
    fn d1_d2(&self, m: &Market) -> (f64, f64) {
        let sig_sqrt_t = m.vol * self.expiry.sqrt();
        let d1 = ((m.spot / self.strike).ln()
            + (m.rate - m.dividend + 0.5 * m.vol * m.vol) * self.expiry)
            / sig_sqrt_t;
        (d1, d1 - sig_sqrt_t)
    }

    pub fn price(&self, m: &Market) -> f64 {
        let (d1, d2) = self.d1_d2(m);
        let df = (-m.rate * self.expiry).exp();
        let qf = (-m.dividend * self.expiry).exp();
        match self.kind {
            OptionKind::Call => m.spot * qf * norm_cdf(d1) - self.strike * df * norm_cdf(d2),
            OptionKind::Put => self.strike * df * norm_cdf(-d2) - m.spot * qf * norm_cdf(-d1),
        }
    }

    /// Analytic greeks, as a pricing library returns them beside the price.
    pub fn greeks(&self, m: &Market) -> Greeks {
        let (d1, _) = self.d1_d2(m);
        let qf = (-m.dividend * self.expiry).exp();
        let sqrt_t = self.expiry.sqrt();
        let delta = match self.kind {
            OptionKind::Call => qf * norm_cdf(d1),
            OptionKind::Put => qf * (norm_cdf(d1) - 1.0),
        };
        Greeks {
            price: self.price(m),
            delta,
            gamma: qf * norm_pdf(d1) / (m.spot * m.vol * sqrt_t),
            vega: m.spot * qf * norm_pdf(d1) * sqrt_t,
        }
    }
}

/// A delta-hedged book: Σ positionᵢ (priceᵢ − deltaᵢ · spot), the P&L sensitivity a desk
/// differentiates with respect to spot and vol.
#[derive_frule]
pub fn hedged_book(options: &[EuropeanOption], positions: &[f64], spot: f64, vol: f64) -> f64 {
    let m = Market {
        spot,
        rate: 0.03,
        dividend: 0.01,
        vol,
    };
    let mut value = 0.0;
    for (opt, &n) in options.iter().zip(positions) {
        let g = opt.greeks(&m);
        value += n * (g.price - g.delta * m.spot);
    }
    value
}

// ---------------------------------------------------------------------------------------
// Program 2: a CRR binomial tree for an American put.

#[derive(Differentiable, Clone, Copy, Debug)]
pub enum Exercise {
    European,
    American,
}

#[derive_frule]
pub fn binomial_put(
    s0: f64,
    k: f64,
    r: f64,
    sigma: f64,
    t: f64,
    steps: usize,
    ex: Exercise,
) -> f64 {
    let dt = t / steps as f64;
    let u = (sigma * dt.sqrt()).exp();
    let d = 1.0 / u;
    let disc = (-r * dt).exp();
    let p = ((r * dt).exp() - d) / (u - d);

    // Payoffs at maturity, node j having j up-moves.
    let mut values: Vec<f64> = (0..=steps)
        .map(|j| {
            let st = s0 * u.powi(j as i32) * d.powi((steps - j) as i32);
            (k - st).max(0.0)
        })
        .collect();

    for i in (0..steps).rev() {
        for j in 0..=i {
            let cont = disc * (p * values[j + 1] + (1.0 - p) * values[j]);
            values[j] = match ex {
                Exercise::European => cont,
                Exercise::American => {
                    let st = s0 * u.powi(j as i32) * d.powi((i - j) as i32);
                    cont.max(k - st)
                }
            };
        }
    }
    values[0]
}

// ---------------------------------------------------------------------------------------
// Program 3: Hagan's SABR implied volatility (lognormal), with the ATM limit.

#[derive(Differentiable, Clone, Copy, Debug)]
pub struct Sabr {
    pub alpha: f64,
    pub beta: f64,
    pub rho: f64,
    pub nu: f64,
}

#[derive_frule]
impl Sabr {
    pub fn implied_vol(&self, f: f64, k: f64, t: f64) -> f64 {
        let Sabr {
            alpha,
            beta,
            rho,
            nu,
        } = *self;
        let one_b = 1.0 - beta;
        let fk_mid = (f * k).powf(0.5 * one_b);
        let log_fk = (f / k).ln();
        let corr = 1.0
            + (one_b * one_b / 24.0 * alpha * alpha / (fk_mid * fk_mid)
                + 0.25 * rho * beta * nu * alpha / fk_mid
                + (2.0 - 3.0 * rho * rho) / 24.0 * nu * nu)
                * t;
        if log_fk.abs() < 1e-12 {
            return alpha / f.powf(one_b) * corr;
        }
        let z = nu / alpha * fk_mid * log_fk;
        let x_z = (((1.0 - 2.0 * rho * z + z * z).sqrt() + z - rho) / (1.0 - rho)).ln();
        let denom = fk_mid
            * (1.0
                + one_b.powi(2) / 24.0 * log_fk.powi(2)
                + one_b.powi(4) / 1920.0 * log_fk.powi(4));
        alpha / denom * (z / x_z) * corr
    }
}

/// The calibration loss of SABR against a smile of quoted vols.
#[derive_frule]
pub fn sabr_smile_loss(params: &[f64], strikes: &[f64], quotes: &[f64]) -> f64 {
    let model = Sabr {
        alpha: params[0],
        beta: 0.5,
        rho: params[1].tanh(),
        nu: params[2].exp(),
    };
    strikes
        .iter()
        .zip(quotes)
        .map(|(&k, &q)| {
            let e = model.implied_vol(0.03, k, 2.0) - q;
            e * e
        })
        .sum::<f64>()
}

// ---------------------------------------------------------------------------------------
// Program 4: a discount curve bootstrapped from par swap rates by Newton's method.

#[derive(Debug, Clone, PartialEq)]
pub enum CurveError {
    NoConvergence { maturity: usize },
    NegativeDiscount(f64),
}

impl fmt::Display for CurveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CurveError::NoConvergence { maturity } => {
                write!(f, "Newton did not converge at maturity {maturity}")
            }
            CurveError::NegativeDiscount(df) => write!(f, "negative discount factor {df}"),
        }
    }
}

impl std::error::Error for CurveError {}

/// Solves for the discount factor of year `n` that prices the `n`-year par swap at par,
/// given the factors of years 1..n−1; Newton's method on the swap's PV.
#[derive_frule]
pub fn solve_discount(known: &[f64], par_rate: f64, n: usize) -> Result<f64, CurveError> {
    let annuity: f64 = known.iter().sum();
    let mut df = known.last().copied().unwrap_or(1.0);
    for _ in 0..50 {
        // PV of the fixed leg minus PV of the floating leg (1 − df).
        let pv = par_rate * (annuity + df) - (1.0 - df);
        let dpv = par_rate + 1.0;
        let step = pv / dpv;
        df -= step;
        if step.abs() < 1e-15 {
            return if df > 0.0 {
                Ok(df)
            } else {
                Err(CurveError::NegativeDiscount(df))
            };
        }
    }
    Err(CurveError::NoConvergence { maturity: n })
}

#[derive_frule]
pub fn bootstrap(par_rates: &[f64]) -> Result<Vec<f64>, CurveError> {
    let mut dfs = Vec::with_capacity(par_rates.len());
    for (i, &s) in par_rates.iter().enumerate() {
        let df = solve_discount(&dfs, s, i + 1)?;
        dfs.push(df);
    }
    Ok(dfs)
}

/// The PV of a bond's cash flows (annual coupon) on the bootstrapped curve.
#[derive_frule]
pub fn bond_pv(par_rates: &[f64], coupon: f64) -> f64 {
    let curve = match bootstrap(par_rates) {
        Ok(c) => c,
        Err(e) => panic!("bootstrap failed: {e}"),
    };
    let n = curve.len();
    let mut pv = 0.0;
    for (i, df) in curve.iter().enumerate() {
        let cf = if i + 1 == n { 1.0 + coupon } else { coupon };
        pv += cf * df;
    }
    pv
}

// ---------------------------------------------------------------------------------------
// Program 5: a Monte Carlo price of an Asian call with a seeded LCG and Box–Muller.

#[derive(Differentiable, Clone, Debug)]
pub struct Lcg {
    state: u64,
}

#[derive_frule]
impl Lcg {
    pub fn new(seed: u64) -> Self {
        Lcg { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.state
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    pub fn normal(&mut self) -> f64 {
        let u1 = self.uniform();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * PI * u2).cos()
    }
}

#[derive_frule]
pub fn asian_call_mc(s0: f64, k: f64, r: f64, sigma: f64, t: f64, paths: usize, seed: u64) -> f64 {
    let mut rng = Lcg::new(seed);
    let fixings = 12;
    let dt = t / fixings as f64;
    let drift = (r - 0.5 * sigma * sigma) * dt;
    let vol = sigma * dt.sqrt();
    let mut total = 0.0;
    for _ in 0..paths {
        let mut s = s0;
        let mut avg = 0.0;
        for _ in 0..fixings {
            s *= (drift + vol * rng.normal()).exp();
            avg += s / fixings as f64;
        }
        total += (avg - k).max(0.0);
    }
    (-r * t).exp() * total / paths as f64
}

// ---------------------------------------------------------------------------------------

fn book() -> Vec<EuropeanOption> {
    vec![
        EuropeanOption {
            kind: OptionKind::Call,
            strike: 95.0,
            expiry: 0.5,
        },
        EuropeanOption {
            kind: OptionKind::Put,
            strike: 105.0,
            expiry: 1.0,
        },
        EuropeanOption {
            kind: OptionKind::Call,
            strike: 110.0,
            expiry: 2.0,
        },
    ]
}

#[test]
fn black_scholes_greeks_against_closed_forms() {
    let opt = EuropeanOption {
        kind: OptionKind::Call,
        strike: 100.0,
        expiry: 0.75,
    };
    let price = |spot: f64, vol: f64| {
        opt.price(&Market {
            spot,
            rate: 0.03,
            dividend: 0.01,
            vol,
        })
    };
    let (s, v) = (102.0, 0.25);
    let m = Market {
        spot: s,
        rate: 0.03,
        dividend: 0.01,
        vol: v,
    };
    let g = opt.greeks(&m);

    // Delta and vega of `price` by the drivers, against the analytic greeks (whose
    // normal CDF is the same approximation, so they agree to its error, 1e-7).
    let plain = |x: &[f64]| price(x[0], x[1]);
    let (pv, grad) = gradient(bind(bs_price {}, (Var(0), Var(1))), &[s, v]);
    assert_eq!(pv.to_bits(), plain(&[s, v]).to_bits());
    assert_eq!(pv.to_bits(), g.price.to_bits());
    assert_close(grad[0], g.delta, 1e-6, "delta");
    assert_close(grad[1], g.vega, 1e-6, "vega");
    let (_, _, h) = hessian(bind(bs_price {}, (Var(0), Var(1))), &[s, v]);
    // The analytic gamma uses the exact density; the rule differentiates the fitted CDF
    // twice, whose fit error grows to about 1e-3 relative in its second derivative.
    assert_close(h[(0, 0)], g.gamma, 1e-3, "gamma");
    check_modes!(bind(bs_price {}, (Var(0), Var(1))), plain, [s, v]);
}

/// The price of the option of `black_scholes_greeks_against_closed_forms` as a function of
/// spot and vol, as a user binds a method to differentiate it.
#[derive_frule]
fn bs_price(spot: f64, vol: f64) -> f64 {
    let opt = EuropeanOption {
        kind: OptionKind::Call,
        strike: 100.0,
        expiry: 0.75,
    };
    opt.price(&Market {
        spot,
        rate: 0.03,
        dividend: 0.01,
        vol,
    })
}

#[test]
fn hedged_book_in_every_mode() {
    let opts = book();
    let pos = [10.0, -5.0, 3.0];
    let plain = |x: &[f64]| hedged_book(&opts, &pos, x[0], x[1]);
    check_modes!(
        bind(hedged_book {}, (&opts[..], &pos[..], Var(0), Var(1))),
        plain,
        [101.0, 0.22]
    );
}

#[test]
fn put_call_parity_of_the_derivatives() {
    // C − P = S e^{−qT} − K e^{−rT}: ∂(C − P)/∂S = e^{−qT}, ∂(C − P)/∂σ = 0.
    let (s, v) = (97.0, 0.3);
    let (_, gc) = gradient(bind(parity_gap {}, (Var(0), Var(1))), &[s, v]);
    assert_close(gc[0], (-0.01f64 * 1.5).exp(), 1e-12, "∂(C−P)/∂S");
    assert!(gc[1].abs() < 1e-9, "∂(C−P)/∂σ = {}", gc[1]);
}

#[derive_frule]
fn parity_gap(spot: f64, vol: f64) -> f64 {
    let m = Market {
        spot,
        rate: 0.03,
        dividend: 0.01,
        vol,
    };
    let call = EuropeanOption {
        kind: OptionKind::Call,
        strike: 90.0,
        expiry: 1.5,
    };
    let put = EuropeanOption {
        kind: OptionKind::Put,
        ..call
    };
    call.price(&m) - put.price(&m)
}

#[test]
fn binomial_tree_in_every_mode() {
    for ex in [Exercise::European, Exercise::American] {
        let plain = |x: &[f64]| binomial_put(x[0], 100.0, x[1], x[2], 1.0, 50, ex);
        check_modes!(
            bind(
                binomial_put {},
                (Var(0), 100.0, Var(1), Var(2), 1.0, 50, Const(ex))
            ),
            plain,
            [95.5, 0.05, 0.27]
        );
    }
    // At (97, 0.04, 0.3) the American put's exercise boundary lies within the 1e-4 steps
    // of the finite-difference Hessian, which is then off (−2.55 for ∂²V/∂S∂r); central
    // differences of the first derivatives with a 1e-6 step agree with the rule's.
    let rule = bind(
        binomial_put {},
        (
            Var(0),
            100.0,
            Var(1),
            Var(2),
            1.0,
            50,
            Const(Exercise::American),
        ),
    );
    let x = [97.0, 0.04, 0.3];
    let (_, _, h) = hessian(rule, &x);
    let (mut p, mut m) = (x, x);
    p[1] += 1e-6;
    m[1] -= 1e-6;
    let fd = (gradient(rule, &p).1[0] - gradient(rule, &m).1[0]) / 2e-6;
    assert_close(h[(0, 1)], fd, 1e-6, "∂²V/∂S∂r");
}

#[test]
fn sabr_smile_in_every_mode() {
    let strikes = [0.02, 0.025, 0.03, 0.035, 0.045];
    let quotes = [0.42, 0.37, 0.34, 0.325, 0.31];
    let plain = |x: &[f64]| sabr_smile_loss(x, &strikes, &quotes);
    check_modes!(
        bind(sabr_smile_loss {}, (Wrt, &strikes[..], &quotes[..])),
        plain,
        [0.06, -0.3, -0.4]
    );
    // The ATM branch (log(F/K) = 0) against central differences in α.
    let at = |a: f64| {
        Sabr {
            alpha: a,
            beta: 0.5,
            rho: -0.2,
            nu: 0.6,
        }
        .implied_vol(0.03, 0.03, 2.0)
    };
    let (v, d) = derivative(bind(sabr_atm {}, (Var(0),)), 0.06);
    assert_eq!(v.to_bits(), at(0.06).to_bits());
    assert_close(
        d,
        (at(0.06 + 1e-7) - at(0.06 - 1e-7)) / 2e-7,
        1e-6,
        "ATM ∂σ/∂α",
    );
}

#[derive_frule]
fn sabr_atm(alpha: f64) -> f64 {
    let s = Sabr {
        alpha,
        beta: 0.5,
        rho: -0.2,
        nu: 0.6,
    };
    s.implied_vol(0.03, 0.03, 2.0)
}

#[test]
fn bootstrapped_curve_in_every_mode() {
    let rates = [0.02, 0.024, 0.027, 0.029, 0.03];
    check_modes!(
        bind(bond_pv {}, (Wrt, 0.035)),
        |x: &[f64]| bond_pv(x, 0.035),
        rates
    );
    // The curve's Jacobian: df₁ = 1/(1 + s₁) depends on s₁ alone, and the curve is
    // lower triangular in the rates.
    let (dfs, jac) = jacobian(curve {}, &rates);
    assert_eq!(dfs, bootstrap(&rates).unwrap());
    assert_close(jac[(0, 0)], -1.0 / (1.02f64 * 1.02), 1e-12, "∂df₁/∂s₁");
    for i in 0..rates.len() {
        for j in i + 1..rates.len() {
            assert_eq!(jac[(i, j)], 0.0, "∂df{i}/∂s{j}");
        }
    }
}

#[test]
fn first_discount_factor_against_its_closed_form() {
    let (df, d) = derivative(bind(first_df {}, (Var(0),)), 0.02);
    assert_eq!(df.to_bits(), first_df(0.02).to_bits());
    assert_close(d, -1.0 / (1.02f64 * 1.02), 1e-12, "∂df₁/∂s₁");
    // A rate below −1/(1 + annuity) has no positive discount factor: the error carries
    // the computed one, in the plain function and in the rule.
    let e = solve_discount(&[0.9], -3.0, 2).unwrap_err();
    assert_eq!(e.to_string(), "negative discount factor -1.85");
    let r = solve_discount_frule(
        Dual::new(&[0.9][..], &[1.0][..]),
        Dual::new(-3.0, 1.0),
        Dual::new(2, NoTangent),
    );
    assert_eq!(r.primal, Err(e));
}

#[derive_frule]
fn curve(par_rates: &[f64]) -> Vec<f64> {
    bootstrap(par_rates).expect("the curve bootstraps")
}

#[derive_frule]
fn first_df(s: f64) -> f64 {
    bootstrap(&[s]).map(|c| c[0]).unwrap_or(f64::NAN)
}

#[test]
fn monte_carlo_asian_in_every_mode() {
    let plain = |x: &[f64]| asian_call_mc(x[0], 100.0, x[1], x[2], 1.0, 200, 42);
    check_modes!(
        bind(
            asian_call_mc {},
            (Var(0), 100.0, Var(1), Var(2), 1.0, 200, 42u64)
        ),
        plain,
        [103.0, 0.03, 0.25]
    );
}
