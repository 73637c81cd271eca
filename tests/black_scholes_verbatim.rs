//! black_scholes 0.11.1 (MIT, Copyright (c) Daniel Stahl,
//! <https://github.com/danielhstahl/black_scholes_rust>, commit bff7e5b): Black-Scholes
//! prices of European calls and puts, their greeks written out by hand (delta, gamma,
//! vega, theta, rho, vanna, vomma, charm), Corrado and Miller's implied-volatility guess,
//! `compute_all`, Black-Scholes-Merton with a dividend yield and Black 76, all in one
//! `PricesAndGreeks`. The crate's `src/lib.rs` is copied below (module `verbatim`, under
//! `#[rustfmt::skip]`) with `#[fwdad::derive_frule]` on every function but the four
//! implied-volatility solvers, `fwdad::Differentiable` added to the derive list of
//! `PricesAndGreeks`, and one `use crate::rules::*;`; left out: its tests.
//!
//! The normal distribution function is `(x * FRAC_1_SQRT_2).error() * 0.5 + 0.5`, the
//! method `error` of the `special` crate's extension trait `Error` on `f64`. Another crate's
//! `impl` cannot take `#[derive_frule]`: the method's rule is written once by hand, in the
//! module `rules`, with `#[primitive(d = .., method)]` (erf' = 2/√π e^(−x²)).
//!
//! Left plain: `call_iv_guess`, `put_iv_guess` and the `call_iv`/`put_iv` calling them, which
//! hand two closures to `nrfind::find_root`, a generic Newton iteration of another crate
//! with no rule (its 2015-edition `&Fn(N) -> N` parameters; with the attribute, the error
//! says so at the call: `` `nrfind::find_root` is a function of the crate `nrfind`, which
//! has no forward rules … ``); an implied volatility's derivative is one over the vega,
//! which `fwdad::implicit_root` would give.
//!
//! Checked against the crate's own greeks (every first derivative of the price, gamma, vanna
//! and vomma as second derivatives, charm as the derivative of delta in time), central
//! differences of the published crate and, in every mode, central differences of the plain
//! functions; primals bit for bit against the published crate.

// The crate's `-1.0 * k * ..`.
#![allow(clippy::excessive_precision, clippy::neg_multiply)]

mod common;

/// The rule of `special::Error::error` on `f64`, which `cum_norm` calls as a method.
mod rules {
    use fwdad::prelude::*;
    use std::f64::consts::FRAC_2_SQRT_PI;

    /// erf, with erf'(x) = 2/√π e^(−x²).
    #[primitive(d = FRAC_2_SQRT_PI * (-x * x).exp(), method)]
    pub fn error(x: f64) -> f64 {
        special::Error::error(x)
    }
}

// ---- black_scholes 0.11.1, src/lib.rs ----

#[allow(dead_code)]
#[rustfmt::skip]
pub mod verbatim {
//! # black_scholes
//! A Black Scholes option pricing library.
//!
//! This library provides implementations of the Black-Scholes option pricing model
//! along with the Black 76 model for options on futures and the Black-Scholes-Merton
//! model for options on dividend-paying stocks.
//!
//! ## Features
//! - European call and put option pricing
//! - Full set of Greeks (Delta, Gamma, Theta, Vega, Rho, Vanna, Vomma, Charm)
//! - Implied volatility calculation
//! - Support for multiple option models
//! - High-performance calculations with caching
use serde::Serialize;
use special::Error;
use std::f64::consts::{FRAC_1_PI, FRAC_1_SQRT_2, FRAC_2_SQRT_PI, SQRT_2};
use crate::rules::*;

/// 1/sqrt(2π)
#[allow(clippy::excessive_precision)]
const FRAC_1_SQRT_2PI: f64 = 0.3989422804014326779399460599343818684758586311649346576659258296;

/// Cumulative distribution function of standard normal distribution.
///
/// # Arguments
/// * `x` - Input value
///
/// # Returns
/// The cumulative probability up to `x`
#[fwdad::derive_frule]
fn cum_norm(x: f64) -> f64 {
    (x * FRAC_1_SQRT_2).error() * 0.5 + 0.5
}

/// Probability density function of standard normal distribution.
///
/// # Arguments
/// * `x` - Input value
///
/// # Returns
/// The probability density at `x`
#[fwdad::derive_frule]
fn inc_norm(x: f64) -> f64 {
    (-x.powi(2) * 0.5).exp() * FRAC_1_SQRT_2PI
}

/// Helper function to calculate d1 in the Black-Scholes formula.
///
/// # Arguments
/// * `s` - Stock price
/// * `k` - Strike price
/// * `discount` - Discount factor (e^(-rate * maturity))
/// * `sqrt_maturity_sigma` - Square root of (maturity * sigma^2)
///
/// # Returns
/// The calculated d1 value
#[fwdad::derive_frule]
fn d1(s: f64, k: f64, discount: f64, sqrt_maturity_sigma: f64) -> f64 {
    // equiv. to : ((s / k).ln() + (rate + 0.5 * sigma.powi(2)) * maturity) / sqrt_maturity_sigma
    (s / (k * discount)).ln() / sqrt_maturity_sigma + 0.5 * sqrt_maturity_sigma
}

#[inline(always)]
#[fwdad::derive_frule]
fn max_or_zero(v: f64) -> f64 {
    v.max(0.0)
}

/// Returns BS call option formula with discount and volatility already computed.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `discount` - Discount factor (e^(-rate * maturity))
/// * `sqrt_maturity_sigma` - Square root of (maturity * volatility^2)
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let discount = 0.99;
/// let sigma = 0.3;
/// let maturity: f64 = 2.0;
/// let sqrt_maturity_sigma = sigma * maturity.sqrt();
/// let price = black_scholes::call_discount(
///     stock, strike, discount,
///     sqrt_maturity_sigma
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_discount(s: f64, k: f64, discount: f64, sqrt_maturity_sigma: f64) -> f64 {
    if sqrt_maturity_sigma > 0.0 {
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        s * cum_norm(d1) - k * discount * cum_norm(d1 - sqrt_maturity_sigma)
    } else {
        max_or_zero(s - k)
    }
}

/// Returns standard BS call option formula.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let call = black_scholes::call(stock, strike, rate, sigma, maturity);
/// ```
#[fwdad::derive_frule]
pub fn call(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    call_discount(s, k, (-rate * maturity).exp(), maturity.sqrt() * sigma)
}

/// Returns delta of a BS call option
///
/// Delta measures the rate of change of the option price with respect to changes in the underlying asset price.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let delta = black_scholes::call_delta(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_delta(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_maturity_sigma = maturity.sqrt() * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        cum_norm(d1)
    } else if s > k {
        1.0
    } else {
        0.0
    }
}

/// Returns gamma of a BS call option
///
/// Gamma measures the rate of change in the delta with respect to changes in the underlying price.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let gamma = black_scholes::call_gamma(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_gamma(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_maturity_sigma = maturity.sqrt() * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        inc_norm(d1) / (s * sqrt_maturity_sigma)
    } else {
        0.0
    }
}
/// Returns vega of a BS call option
///
/// Vega measures sensitivity to volatility. Vega is the derivative of the option value with respect to the volatility of the underlying asset.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let vega = black_scholes::call_vega(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_vega(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_maturity_sigma = maturity.sqrt() * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        s * inc_norm(d1) * sqrt_maturity_sigma / sigma
    } else {
        0.0
    }
}
/// Returns theta of a BS call option
///
/// Theta measures the sensitivity of the option price to time decay. It represents the rate of change of the option value with respect to time.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let theta = black_scholes::call_theta(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_theta(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_t = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_t * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        -s * inc_norm(d1) * sigma / (2.0 * sqrt_t)
            - rate * k * discount * cum_norm(d1 - sqrt_maturity_sigma)
    } else {
        0.0
    }
}

/// Returns rho of a BS call option
///
/// Rho measures sensitivity to the interest rate. It is the derivative of the option value with respect to the risk-free interest rate.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let rho = black_scholes::call_rho(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_rho(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_t = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_t * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        k * discount * maturity * cum_norm(d1 - sqrt_maturity_sigma)
    } else {
        0.0
    }
}

/// Returns BS put option formula with discount and volatility already computed.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `discount` - Discount factor (e^(-rate * maturity))
/// * `sqrt_maturity_sigma` - Square root of (maturity * volatility^2)
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let discount = 0.99;
/// let sigma = 0.3;
/// let maturity: f64 = 2.0;
/// let sqrt_maturity_sigma = sigma * maturity.sqrt();
/// let price = black_scholes::put_discount(
///     stock, strike, discount,
///     sqrt_maturity_sigma
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_discount(s: f64, k: f64, discount: f64, sqrt_maturity_sigma: f64) -> f64 {
    if sqrt_maturity_sigma > 0.0 {
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        k * discount * cum_norm(sqrt_maturity_sigma - d1) - s * cum_norm(-d1)
    } else {
        max_or_zero(k - s)
    }
}

/// Returns BS put option formula.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let put = black_scholes::put(stock, strike, rate, sigma, maturity);
/// ```
#[fwdad::derive_frule]
pub fn put(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    put_discount(s, k, (-rate * maturity).exp(), maturity.sqrt() * sigma)
}

/// Returns delta of a BS put option
///
/// Delta measures the rate of change of the option price with respect to changes in the underlying asset price.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let delta = black_scholes::put_delta(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_delta(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_maturity_sigma = maturity.sqrt() * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        cum_norm(d1) - 1.0
    } else if k > s {
        -1.0
    } else {
        0.0
    }
}

/// Returns gamma of a BS put option
///
/// Gamma measures the rate of change in the delta with respect to changes in the underlying price.
/// For put options, gamma is identical to call options.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let gamma = black_scholes::put_gamma(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_gamma(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    call_gamma(s, k, rate, sigma, maturity) //same as call
}

/// Returns vega of a BS put option
///
/// Vega measures sensitivity to volatility. For put options, vega is identical to call options.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let vega = black_scholes::put_vega(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_vega(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    call_vega(s, k, rate, sigma, maturity) //same as call
}

/// Returns theta of a BS put option
///
/// Theta measures the sensitivity of the option price to time decay. It represents the rate of change of the option value with respect to time.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let theta = black_scholes::put_theta(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_theta(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_t = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_t * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        -s * inc_norm(d1) * sigma / (2.0 * sqrt_t)
            + rate * k * discount * cum_norm(-d1 + sqrt_maturity_sigma)
    } else {
        0.0
    }
}
/// Returns rho of a BS put option
///
/// Rho measures sensitivity to the interest rate. It is the derivative of the option value with respect to the risk-free interest rate.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let rho = black_scholes::put_rho(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_rho(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_t = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_t * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);

        -1.0 * k * discount * maturity * cum_norm(-d1 + sqrt_maturity_sigma)
    } else {
        0.0
    }
}

/// Returns vanna of a BS call option
///
/// Vanna measures the sensitivity of delta to changes in volatility. It is the second-order derivative of the option price with respect to the underlying price and volatility.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let vanna = black_scholes::call_vanna(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_vanna(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_t = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_t * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        -inc_norm(d1) * (d1 - sqrt_maturity_sigma) / sigma
    } else {
        0.0
    }
}
/// Returns vanna of a BS put option
///
/// Vanna measures the sensitivity of delta to changes in volatility. For put options, vanna is identical to call options.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let vanna = black_scholes::put_vanna(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_vanna(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    call_vanna(s, k, rate, sigma, maturity)
}
/// Returns vomma of a BS call option
///
/// Vomma (Volga) measures the second-order sensitivity of the option price to changes in volatility. It is the second derivative of the option price with respect to volatility.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let vomma = black_scholes::call_vomma(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_vomma(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_t = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_t * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        let d2 = d1 - sqrt_maturity_sigma;
        s * inc_norm(d1) * d1 * d2 * maturity / (sqrt_maturity_sigma)
    } else {
        0.0
    }
}

/// Returns vomma of a BS put option
///
/// Vomma (Volga) measures the second-order sensitivity of the option price to changes in volatility. For put options, vomma is identical to call options.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let vomma = black_scholes::put_vomma(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_vomma(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    call_vomma(s, k, rate, sigma, maturity)
}

/// Returns charm of a BS call option
///
/// Charm (Delta decay) measures the rate of change of delta over time. It is the second-order derivative of the option price with respect to time and underlying price.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let charm = black_scholes::call_charm(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn call_charm(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    let sqrt_t = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_t * sigma;
    if sqrt_maturity_sigma > 0.0 {
        let discount = (-rate * maturity).exp();
        let d1 = d1(s, k, discount, sqrt_maturity_sigma);
        let d2 = d1 - sqrt_maturity_sigma;
        -inc_norm(d1) * (2.0 * rate * maturity - d2 * sqrt_maturity_sigma)
            / (2.0 * maturity * sqrt_maturity_sigma)
    } else {
        0.0 // TODO: check that this is true....
    }
}

/// Returns charm of a BS put option
///
/// Charm (Delta decay) measures the rate of change of delta over time. For put options, charm is identical to call options.
///
/// # Arguments
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let sigma = 0.3;
/// let maturity = 1.0;
/// let charm = black_scholes::put_charm(
///     stock, strike, rate, sigma, maturity
/// );
/// ```
#[fwdad::derive_frule]
pub fn put_charm(s: f64, k: f64, rate: f64, sigma: f64, maturity: f64) -> f64 {
    call_charm(s, k, rate, sigma, maturity)
}

const SQRT_TWO_PI: f64 = 2.0 * SQRT_2 / FRAC_2_SQRT_PI;
//Corrado and Miller (1996)
#[fwdad::derive_frule]
fn approximate_vol(price: f64, s: f64, k: f64, rate: f64, maturity: f64) -> f64 {
    let discount = (-rate * maturity).exp();
    let x = k * discount;
    let coef = SQRT_TWO_PI / (s + x);
    let helper_1 = s - x;
    let c1 = price - helper_1 * 0.5;
    let c2 = c1.powi(2);
    let c3 = helper_1.powi(2) * FRAC_1_PI;
    let bridge_1 = c2 - c3;
    let bridge_m = bridge_1.max(0.0).sqrt();
    coef * (c1 + bridge_m) / maturity.sqrt()
}
/// Returns implied volatility from a call option with initial guess
///
/// Calculates the implied volatility that would result in the given option price using Newton-Raphson method.
///
/// # Arguments
/// * `price` - Market price of the option
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `maturity` - Time to maturity in years
/// * `initial_guess` - Initial guess for the volatility
///
/// # Returns
/// * `Ok(volatility)` if the algorithm converges
/// * `Err(error_code)` if the algorithm fails to converge
///
/// # Examples
///
/// ```
/// let price = 1.0;
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let maturity = 1.0;
/// let initial_guess = 0.3;
/// let iv = black_scholes::call_iv_guess(
///     price, stock, strike, rate,
///     maturity, initial_guess
/// ).unwrap();
/// ```
pub fn call_iv_guess(
    price: f64,
    s: f64,
    k: f64,
    rate: f64,
    maturity: f64,
    initial_guess: f64,
) -> Result<f64, f64> {
    let obj_fn = |sigma| call(s, k, rate, sigma, maturity) - price;
    let dfn = |sigma| call_vega(s, k, rate, sigma, maturity);
    let precision = 0.000001;
    let iterations = 10000;
    nrfind::find_root(&obj_fn, &dfn, initial_guess, precision, iterations)
}
/// Returns implied volatility from a call option
///
/// Calculates the implied volatility that would result in the given option price using Newton-Raphson method.
/// Uses an approximation formula for the initial guess.
///
/// # Arguments
/// * `price` - Market price of the option
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `maturity` - Time to maturity in years
///
/// # Returns
/// * `Ok(volatility)` if the algorithm converges
/// * `Err(error_code)` if the algorithm fails to converge
///
/// # Examples
///
/// ```
/// let price = 1.0;
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let maturity = 1.0;
/// let iv = black_scholes::call_iv(
///     price, stock, strike, rate,
///     maturity
/// ).unwrap();
/// ```
pub fn call_iv(price: f64, s: f64, k: f64, rate: f64, maturity: f64) -> Result<f64, f64> {
    let initial_guess = approximate_vol(price, s, k, rate, maturity);
    call_iv_guess(price, s, k, rate, maturity, initial_guess)
}

/// Returns implied volatility from a put option with initial guess
///
/// Calculates the implied volatility that would result in the given option price using Newton-Raphson method.
///
/// # Arguments
/// * `price` - Market price of the option
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `maturity` - Time to maturity in years
/// * `initial_guess` - Initial guess for the volatility
///
/// # Returns
/// * `Ok(volatility)` if the algorithm converges
/// * `Err(error_code)` if the algorithm fails to converge
///
/// # Examples
///
/// ```
/// let price = 0.3;
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let maturity = 1.0;
/// let initial_guess = 0.3;
/// let iv = black_scholes::put_iv_guess(
///     price, stock, strike, rate,
///     maturity, initial_guess
/// ).unwrap();
/// ```
pub fn put_iv_guess(
    price: f64,
    s: f64,
    k: f64,
    rate: f64,
    maturity: f64,
    initial_guess: f64,
) -> Result<f64, f64> {
    let obj_fn = |sigma| put(s, k, rate, sigma, maturity) - price;
    let dfn = |sigma| put_vega(s, k, rate, sigma, maturity);
    let precision = 0.000001;
    let iterations = 10000;
    nrfind::find_root(&obj_fn, &dfn, initial_guess, precision, iterations)
}
/// Returns implied volatility from a put option
///
/// Calculates the implied volatility that would result in the given option price using Newton-Raphson method.
/// Uses put-call parity to convert the put price to an equivalent call price for the initial guess.
///
/// # Arguments
/// * `price` - Market price of the option
/// * `s` - Current stock price
/// * `k` - Strike price
/// * `rate` - Risk-free interest rate
/// * `maturity` - Time to maturity in years
///
/// # Returns
/// * `Ok(volatility)` if the algorithm converges
/// * `Err(error_code)` if the algorithm fails to converge
///
/// # Examples
///
/// ```
/// let price = 0.3;
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let maturity = 1.0;
/// let initial_guess = 0.3;
/// let iv = black_scholes::put_iv(
///     price, stock, strike, rate,
///     maturity
/// ).unwrap();
/// ```
pub fn put_iv(price: f64, s: f64, k: f64, rate: f64, maturity: f64) -> Result<f64, f64> {
    let c_price = price + s - k * (-rate * maturity).exp();
    let initial_guess = approximate_vol(c_price, s, k, rate, maturity);
    put_iv_guess(price, s, k, rate, maturity, initial_guess)
}

/// Container for option prices and Greeks.
///
/// Contains all the calculated prices and Greeks for both call and put options.
#[derive(Debug, Serialize, fwdad::Differentiable)]
pub struct PricesAndGreeks {
    /// Price of the call option
    pub call_price: f64,
    /// Delta of the call option
    pub call_delta: f64,
    /// Gamma of the call option
    pub call_gamma: f64,
    /// Theta of the call option
    pub call_theta: f64,
    /// Vega of the call option
    pub call_vega: f64,
    /// Rho of the call option
    pub call_rho: f64,
    /// Vanna of the call option
    pub call_vanna: f64,
    /// Vomma of the call option
    pub call_vomma: f64,
    /// Charm of the call option
    pub call_charm: f64,
    /// Price of the put option
    pub put_price: f64,
    /// Delta of the put option
    pub put_delta: f64,
    /// Gamma of the put option
    pub put_gamma: f64,
    /// Theta of the put option
    pub put_theta: f64,
    /// Vega of the put option
    pub put_vega: f64,
    /// Rho of the put option
    pub put_rho: f64,
    /// Vanna of the put option
    pub put_vanna: f64,
    /// Vomma of the put option
    pub put_vomma: f64,
    /// Charm of the put option
    pub put_charm: f64,
}
/// Returns call and put prices and Greeks.
/// Due to caching the complex computations
/// (such as N(d1)), this implementation is
/// faster if you need to obtain all the
/// information for a given stock price
/// and strike price.
///
/// # Arguments
/// * `stock` - Current stock price
/// * `strike` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Returns
/// A `PricesAndGreeks` struct containing all prices and Greeks
///
/// # Examples
///
/// ```
/// let sigma = 0.3;
/// let stock = 5.0;
/// let strike = 4.5;
/// let rate = 0.05;
/// let maturity = 1.0;
/// let all_prices_and_greeks = black_scholes::compute_all(
///     stock,
///     strike,
///     rate,
///     sigma,
///     maturity,
/// );
/// ```
// Not using annualised dividend yield (i.e. using Black-Scholes, not Merton formula):
// See https://github.com/danielhstahl/black_scholes_rust/issues/25 referring to https://www.macroption.com/black-scholes-formula/
#[fwdad::derive_frule]
pub fn compute_all(
    stock: f64,
    strike: f64,
    rate: f64,
    sigma: f64,
    maturity: f64,
) -> PricesAndGreeks {
    let discount = (-rate * maturity).exp();
    let sqrt_maturity = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_maturity * sigma;
    let k_discount = strike * discount;
    if sqrt_maturity_sigma > 0.0 {
        let d1 = d1(stock, strike, discount, sqrt_maturity_sigma);
        let d2 = d1 - sqrt_maturity_sigma;
        let cdf_d1 = cum_norm(d1);
        let cdf_d2 = cum_norm(d2);
        let pdf_d1 = inc_norm(d1);

        let call_price = stock * cdf_d1 - k_discount * cdf_d2;
        let call_delta = cdf_d1;
        let call_gamma = pdf_d1 / (stock * sqrt_maturity_sigma);
        let call_theta =
            -stock * pdf_d1 * sigma / (2.0 * sqrt_maturity) - rate * k_discount * cdf_d2;
        let call_vega = stock * pdf_d1 * sqrt_maturity;
        let call_rho = k_discount * maturity * cdf_d2;
        let call_vanna = call_vega / stock * (1.0 - d1 / sqrt_maturity_sigma);
        let call_vomma = call_vega * d1 * d2 / sigma;
        let call_charm = -pdf_d1 * (2.0 * rate * maturity - d2 * sqrt_maturity_sigma)
            / (2.0 * maturity * sqrt_maturity_sigma);
        let put_price = call_price + k_discount - stock;
        let put_delta = cdf_d1 - 1.0;
        let put_gamma = call_gamma;
        let put_theta =
            -stock * pdf_d1 * sigma / (2.0 * sqrt_maturity) + rate * k_discount * (1.0 - cdf_d2);
        let put_vega = call_vega;
        let put_rho = -1.0 * k_discount * maturity * (1.0 - cdf_d2);
        let put_vanna = call_vanna;
        let put_vomma = call_vomma;
        let put_charm = call_charm;
        PricesAndGreeks {
            call_price,
            call_delta,
            call_gamma,
            call_theta,
            call_vega,
            call_rho,
            call_vanna,
            call_vomma,
            call_charm,
            put_price,
            put_delta,
            put_gamma,
            put_theta,
            put_vega,
            put_rho,
            put_vanna,
            put_vomma,
            put_charm,
        }
    } else {
        PricesAndGreeks {
            call_price: max_or_zero(stock - strike),
            call_delta: if stock > strike { 1.0 } else { 0.0 },
            call_gamma: 0.0,
            call_theta: 0.0,
            call_vega: 0.0,
            call_rho: 0.0,
            call_vanna: 0.0,
            call_vomma: 0.0,
            call_charm: 0.0,
            put_price: max_or_zero(strike - stock),
            put_delta: if strike > stock { -1.0 } else { 0.0 },
            put_gamma: 0.0,
            put_theta: 0.0,
            put_vega: 0.0,
            put_rho: 0.0,
            put_vanna: 0.0,
            put_vomma: 0.0,
            put_charm: 0.0,
        }
    }
}

/// Returns call and put prices and Greeks using Black-Scholes-Merton formula.
///
/// The Black-Scholes-Merton model extends the Black-Scholes model to account for continuous dividends.
/// If `dividend_yield` is 0, this gives same results as `compute_all` using Black-Scholes formula
/// but `compute_all` will be slightly less compute intensive.
///
/// # Arguments
/// * `stock` - Current stock price
/// * `strike` - Strike price
/// * `sigma` - Volatility of the underlying asset
/// * `risk_free_rate` - Annualized continuously compounded risk-free interest rate
/// * `dividend_yield` - Annualized continuously compounded dividend yield
/// * `maturity` - Time to maturity in years
///
/// # Returns
/// A `PricesAndGreeks` struct containing all prices and Greeks
///
/// # Examples
///
/// ```
/// let stock = 5.0;
/// let strike = 4.5;
/// let sigma = 0.3;
/// let risk_free_rate = 0.05;
/// let dividend_yield = 0.02;
/// let maturity = 1.0;
/// let all_prices_and_greeks = black_scholes::bsm_compute_all(
///     stock,
///     strike,
///     sigma,
///     risk_free_rate,
///     dividend_yield,
///     maturity,
/// );
/// ```
#[fwdad::derive_frule]
pub fn bsm_compute_all(
    stock: f64,
    strike: f64,
    sigma: f64,
    risk_free_rate: f64,
    dividend_yield: f64,
    maturity: f64,
) -> PricesAndGreeks {
    let dividend = (-dividend_yield * maturity).exp();
    let discount = (-risk_free_rate * maturity).exp();
    let sqrt_maturity = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_maturity * sigma;
    let k_discount = strike * discount;
    if sqrt_maturity_sigma > 0.0 {
        let d1 = ((stock / strike).ln()
            + (risk_free_rate - dividend_yield + 0.5 * sigma.powi(2)) * maturity)
            / sqrt_maturity_sigma;
        let d2 = d1 - sqrt_maturity_sigma;
        let cdf_d1 = cum_norm(d1);
        let cdf_d2 = cum_norm(d2);
        let pdf_d1 = inc_norm(d1);

        let call_price = stock * dividend * cdf_d1 - k_discount * cdf_d2;
        let call_delta = dividend * cdf_d1;
        let call_gamma = dividend * pdf_d1 / (stock * sqrt_maturity_sigma);
        let call_theta = -dividend * stock * pdf_d1 * sigma / (2.0 * sqrt_maturity)
            - risk_free_rate * k_discount * cdf_d2
            + dividend_yield * stock * dividend * cdf_d1;
        let call_vega = stock * pdf_d1 * sqrt_maturity;
        let call_rho = k_discount * maturity * cdf_d2;
        let call_vanna = call_vega / stock * (1.0 - d1 / sqrt_maturity_sigma);
        let call_vomma = call_vega * d1 * d2 / sigma;
        let charm_part = dividend
            * pdf_d1
            * (2.0 * (risk_free_rate - dividend_yield) * maturity - d2 * sqrt_maturity_sigma)
            / (2.0 * maturity * sqrt_maturity_sigma);
        let call_charm = dividend_yield * dividend * cdf_d1 - charm_part;

        let put_price = call_price + k_discount - stock * dividend;
        let put_delta = dividend * (cdf_d1 - 1.0);
        let put_gamma = call_gamma;
        let put_theta = -dividend * stock * pdf_d1 * sigma / (2.0 * sqrt_maturity)
            + risk_free_rate * k_discount * (1.0 - cdf_d2)
            - dividend_yield * stock * dividend * (1.0 - cdf_d1);
        let put_vega = call_vega;
        let put_rho = -k_discount * maturity * (1.0 - cdf_d2);
        let put_vanna = call_vanna;
        let put_vomma = call_vomma;
        let put_charm = -dividend_yield * dividend * (1.0 - cdf_d1) - charm_part;
        PricesAndGreeks {
            call_price,
            call_delta,
            call_gamma,
            call_theta,
            call_vega,
            call_rho,
            call_vanna,
            call_vomma,
            call_charm,
            put_price,
            put_delta,
            put_gamma,
            put_theta,
            put_vega,
            put_rho,
            put_vanna,
            put_vomma,
            put_charm,
        }
    } else {
        PricesAndGreeks {
            call_price: max_or_zero(stock - strike),
            call_delta: if stock > strike { 1.0 } else { 0.0 },
            call_gamma: 0.0,
            call_theta: 0.0,
            call_vega: 0.0,
            call_rho: 0.0,
            call_vanna: 0.0,
            call_vomma: 0.0,
            call_charm: 0.0,
            put_price: max_or_zero(strike - stock),
            put_delta: if strike > stock { -1.0 } else { 0.0 },
            put_gamma: 0.0,
            put_theta: 0.0,
            put_vega: 0.0,
            put_rho: 0.0,
            put_vanna: 0.0,
            put_vomma: 0.0,
            put_charm: 0.0,
        }
    }
}

/// Validates that the input parameters for option pricing are within reasonable bounds.
///
/// # Arguments
/// * `s` - Stock price (must be positive)
/// * `k` - Strike price (must be positive)
/// * `rate` - Risk-free rate (no bounds)
/// * `sigma` - Volatility (must be non-negative)
/// * `maturity` - Time to maturity (must be non-negative)
///
/// # Returns
/// `true` if all parameters are valid, `false` otherwise
#[fwdad::derive_frule]
pub fn validate_params(s: f64, k: f64, _rate: f64, sigma: f64, maturity: f64) -> bool {
    s > 0.0 && k > 0.0 && sigma >= 0.0 && maturity >= 0.0 && s.is_finite() && k.is_finite() && sigma.is_finite() && maturity.is_finite()
}

/// Returns call and put prices and Greeks using the Black 76 model for options on futures.
///
/// The Black 76 model is used for pricing options on futures contracts. It is similar to Black-Scholes
/// but uses the forward price instead of the spot price.
///
/// # Arguments
/// * `forward_price` - Forward price of the underlying asset
/// * `strike` - Strike price
/// * `rate` - Risk-free interest rate
/// * `sigma` - Volatility of the underlying asset
/// * `maturity` - Time to maturity in years
///
/// # Returns
/// A `PricesAndGreeks` struct containing all prices and Greeks
///
/// # Examples
///
/// ```
/// let forward_price = 55.0;
/// let strike = 50.0;
/// let rate = 0.05;
/// let sigma = 0.2;
/// let maturity = 1.0;
/// let all_prices_and_greeks = black_scholes::black76(
///     forward_price,
///     strike,
///     rate,
///     sigma,
///     maturity,
/// );
/// ```
#[fwdad::derive_frule]
pub fn black76(
    forward_price: f64,
    strike: f64,
    rate: f64,
    sigma: f64,
    maturity: f64,
) -> PricesAndGreeks {
    let discount = (-rate * maturity).exp();
    let sqrt_maturity = maturity.sqrt();
    let sqrt_maturity_sigma = sqrt_maturity * sigma;
    let k_discount = strike * discount;
    if sqrt_maturity_sigma > 0.0 {
        let ln_f_s = (forward_price / strike).ln();

        let d1 = (ln_f_s + 0.5 * sigma.powi(2) * maturity) / sqrt_maturity_sigma;
        let d2 = d1 - sqrt_maturity_sigma;
        let cdf_d1 = cum_norm(d1); // often noted `N(d1)`
        let cdf_d2 = cum_norm(d2);
        let pdf_d1 = inc_norm(d1); // often noted `n(d1)`

        let call_price = discount * (forward_price * cdf_d1 - strike * cdf_d2);

        let call_delta = cdf_d1 * discount;
        let call_gamma = discount * pdf_d1 / (forward_price * sqrt_maturity_sigma);
        let call_theta = -forward_price * discount * pdf_d1 * sigma / (2.0 * sqrt_maturity)
            - rate * k_discount * cdf_d2
            + rate * forward_price * discount * cdf_d1;
        let call_vega = forward_price * discount * pdf_d1 * sqrt_maturity;
        let call_rho = -maturity * discount * (forward_price * cdf_d1 - strike * cdf_d2);
        let call_vanna = (call_vega / forward_price) * (1.0 - d1 / sqrt_maturity_sigma);
        let call_vomma = call_vega * d1 * d2 / sigma;

        let charm_part = pdf_d1
            * ((sigma / (4.0 * sqrt_maturity)) - (ln_f_s / (2.0 * sqrt_maturity_sigma * maturity)));
        let call_charm = discount * ((-rate * cdf_d1) + charm_part);

        // Deduce Put price from Call price using the put-call parity: https://en.wikipedia.org/wiki/Put%E2%80%93call_parity
        //  `Call - Put = Discount . (Fwd - K)`
        //
        // Can also find put price from call price formula using `cdf(x) + cdf(-x) == 1` and `pdf(x) == pfd(-x)`
        let put_price = call_price + discount * (strike - forward_price);

        let put_delta = discount * (cdf_d1 - 1.0);
        let put_gamma = call_gamma;

        let put_theta = -forward_price * discount * pdf_d1 * sigma / (2.0 * sqrt_maturity)
            + rate * k_discount * (1.0 - cdf_d2)
            - rate * forward_price * discount * (1.0 - cdf_d1);
        let put_vega = call_vega;
        let put_rho =
            -maturity * discount * (strike * (1.0 - cdf_d2) - forward_price * (1.0 - cdf_d1));
        let put_vanna = call_vanna;
        let put_vomma = call_vomma;
        let put_charm = discount * ((rate * (1.0 - cdf_d1)) + charm_part);

        PricesAndGreeks {
            call_price,
            call_delta,
            call_gamma,
            call_theta,
            call_vega,
            call_rho,
            call_vanna,
            call_vomma,
            call_charm,
            put_price,
            put_delta,
            put_gamma,
            put_theta,
            put_vega,
            put_rho,
            put_vanna,
            put_vomma,
            put_charm,
        }
    } else {
        PricesAndGreeks {
            call_price: max_or_zero(forward_price - strike),
            call_delta: if forward_price > strike { 1.0 } else { 0.0 },
            call_gamma: 0.0,
            call_theta: 0.0,
            call_vega: 0.0,
            call_rho: 0.0,
            call_vanna: 0.0,
            call_vomma: 0.0,
            put_price: max_or_zero(strike - forward_price),
            put_delta: if strike > forward_price { -1.0 } else { 0.0 },
            put_gamma: 0.0,
            put_theta: 0.0,
            put_vega: 0.0,
            put_rho: 0.0,
            put_vanna: 0.0,
            put_vomma: 0.0,
            call_charm: 0.0,
            put_charm: 0.0,
        }
    }
}

// The private helpers, from a child module (test code, not the crate's).
#[cfg(test)]
mod private_items {
    use super::*;
    use fwdad::prelude::*;

    #[test]
    fn normal_distribution_against_its_density() {
        for x in [-3.0, -0.7, 0.0, 0.4, 1.9, 5.0] {
            let (y, d) = derivative(cum_norm {}, x);
            assert_eq!(y.to_bits(), cum_norm(x).to_bits());
            crate::close(d, inc_norm(x), 1e-14, &format!("N'({x})"));
            let (_, d) = derivative(inc_norm {}, x);
            crate::close(d, -x * inc_norm(x), 1e-14, &format!("n'({x})"));
        }
    }

    #[test]
    fn corrado_miller_guess_against_central_differences() {
        // The guess of the volatility from a price, differentiated in the price.
        for p in crate::POINTS {
            let [s, k, r, _, t] = p;
            let price = black_scholes::call(s, k, r, 0.3, t);
            let (y, d) = derivative(bind(approximate_vol {}, (Var(0), s, k, r, t)), price);
            assert_eq!(y.to_bits(), approximate_vol(price, s, k, r, t).to_bits());
            let h = 1e-6 * price;
            let want = (approximate_vol(price + h, s, k, r, t) - approximate_vol(price - h, s, k, r, t)) / (2.0 * h);
            crate::close(d, want, 1e-6, &format!("∂guess/∂price at {p:?}"));
        }
    }
}
}

// ---- the checks ----

use fwdad::prelude::*;
use verbatim::*;

/// Spot, strike, rate, volatility, maturity: in, at and out of the money, short and long.
const POINTS: [[f64; 5]; 5] = [
    [100.0, 95.0, 0.03, 0.25, 0.5],
    [50.0, 60.0, 0.05, 0.4, 2.0],
    [102.0, 100.0, 0.01, 0.15, 0.08],
    [80.0, 100.0, 0.0, 0.6, 1.0],
    [120.0, 90.0, 0.08, 0.3, 5.0],
];

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1e-3),
        "{what}: {got} against {want}"
    );
}

/// ∂f/∂xₖ of the published crate's `f` by central differences.
fn published_fd(f: fn(f64, f64, f64, f64, f64) -> f64, p: [f64; 5], k: usize) -> f64 {
    let h = 1e-6 * p[k].abs().max(1.0);
    let (mut a, mut b) = (p, p);
    a[k] += h;
    b[k] -= h;
    (f(a[0], a[1], a[2], a[3], a[4]) - f(b[0], b[1], b[2], b[3], b[4])) / (2.0 * h)
}

type Pricer = fn(f64, f64, f64, f64, f64) -> f64;

/// The published crate's functions and this file's, of the same signature.
const PAIRS: [(&str, Pricer, Pricer); 18] = [
    ("call", black_scholes::call, call),
    ("call_delta", black_scholes::call_delta, call_delta),
    ("call_gamma", black_scholes::call_gamma, call_gamma),
    ("call_vega", black_scholes::call_vega, call_vega),
    ("call_theta", black_scholes::call_theta, call_theta),
    ("call_rho", black_scholes::call_rho, call_rho),
    ("call_vanna", black_scholes::call_vanna, call_vanna),
    ("call_vomma", black_scholes::call_vomma, call_vomma),
    ("call_charm", black_scholes::call_charm, call_charm),
    ("put", black_scholes::put, put),
    ("put_delta", black_scholes::put_delta, put_delta),
    ("put_gamma", black_scholes::put_gamma, put_gamma),
    ("put_vega", black_scholes::put_vega, put_vega),
    ("put_theta", black_scholes::put_theta, put_theta),
    ("put_rho", black_scholes::put_rho, put_rho),
    ("put_vanna", black_scholes::put_vanna, put_vanna),
    ("put_vomma", black_scholes::put_vomma, put_vomma),
    ("put_charm", black_scholes::put_charm, put_charm),
];

fn greeks_bits(g: &PricesAndGreeks) -> Vec<u64> {
    [
        g.call_price,
        g.call_delta,
        g.call_gamma,
        g.call_theta,
        g.call_vega,
        g.call_rho,
        g.call_vanna,
        g.call_vomma,
        g.call_charm,
        g.put_price,
        g.put_delta,
        g.put_gamma,
        g.put_theta,
        g.put_vega,
        g.put_rho,
        g.put_vanna,
        g.put_vomma,
        g.put_charm,
    ]
    .iter()
    .map(|v| v.to_bits())
    .collect()
}

fn published_bits(g: &black_scholes::PricesAndGreeks) -> Vec<u64> {
    [
        g.call_price,
        g.call_delta,
        g.call_gamma,
        g.call_theta,
        g.call_vega,
        g.call_rho,
        g.call_vanna,
        g.call_vomma,
        g.call_charm,
        g.put_price,
        g.put_delta,
        g.put_gamma,
        g.put_theta,
        g.put_vega,
        g.put_rho,
        g.put_vanna,
        g.put_vomma,
        g.put_charm,
    ]
    .iter()
    .map(|v| v.to_bits())
    .collect()
}

#[test]
fn primals_bit_for_bit_against_the_published_crate() {
    // With zero volatility or maturity too: the intrinsic-value branches.
    let mut points = POINTS.to_vec();
    points.push([100.0, 95.0, 0.03, 0.0, 0.5]);
    points.push([90.0, 95.0, 0.03, 0.2, 0.0]);
    for p in points {
        let [s, k, r, v, t] = p;
        for (name, published, ours) in PAIRS {
            assert_eq!(
                ours(s, k, r, v, t).to_bits(),
                published(s, k, r, v, t).to_bits(),
                "{name} at {p:?}"
            );
            // The rule's primal too.
            let (y, _) = derivative(bind(call {}, (Var(0), k, r, v, t)), s);
            assert_eq!(y.to_bits(), black_scholes::call(s, k, r, v, t).to_bits());
        }
        assert_eq!(
            greeks_bits(&compute_all(s, k, r, v, t)),
            published_bits(&black_scholes::compute_all(s, k, r, v, t))
        );
        assert_eq!(
            greeks_bits(&black76(s, k, r, v, t)),
            published_bits(&black_scholes::black76(s, k, r, v, t))
        );
        assert_eq!(
            greeks_bits(&bsm_compute_all(s, k, v, r, 0.02, t)),
            published_bits(&black_scholes::bsm_compute_all(s, k, v, r, 0.02, t))
        );
        let discount = (-r * t).exp();
        assert_eq!(
            call_discount(s, k, discount, t.sqrt() * v).to_bits(),
            black_scholes::call_discount(s, k, discount, t.sqrt() * v).to_bits()
        );
        assert_eq!(
            validate_params(s, k, r, v, t),
            black_scholes::validate_params(s, k, r, v, t)
        );
    }
    // The implied volatility (plain here) recovers the volatility the price was made with.
    let [s, k, r, v, t] = POINTS[0];
    let price = call(s, k, r, v, t);
    assert_eq!(
        call_iv(price, s, k, r, t),
        black_scholes::call_iv(price, s, k, r, t)
    );
    assert!((call_iv(price, s, k, r, t).unwrap() - v).abs() < 1e-6);
}

#[test]
fn price_gradient_is_the_crates_own_greeks() {
    for p in POINTS {
        let [s, k, r, v, t] = p;
        for (name, delta, vega, rho, theta) in [
            (
                "call",
                black_scholes::call_delta as Pricer,
                black_scholes::call_vega as Pricer,
                black_scholes::call_rho as Pricer,
                black_scholes::call_theta as Pricer,
            ),
            (
                "put",
                black_scholes::put_delta,
                black_scholes::put_vega,
                black_scholes::put_rho,
                black_scholes::put_theta,
            ),
        ] {
            let (y, g) = match name {
                "call" => gradient(bind(call {}, (Var(0), Var(1), Var(2), Var(3), Var(4))), &p),
                _ => gradient(bind(put {}, (Var(0), Var(1), Var(2), Var(3), Var(4))), &p),
            };
            let published = match name {
                "call" => black_scholes::call as Pricer,
                _ => black_scholes::put,
            };
            assert_eq!(
                y.to_bits(),
                published(s, k, r, v, t).to_bits(),
                "{name} at {p:?}"
            );
            close(
                g[0],
                delta(s, k, r, v, t),
                1e-12,
                &format!("{name} delta at {p:?}"),
            );
            close(
                g[2],
                rho(s, k, r, v, t),
                1e-12,
                &format!("{name} rho at {p:?}"),
            );
            close(
                g[3],
                vega(s, k, r, v, t),
                1e-12,
                &format!("{name} vega at {p:?}"),
            );
            // Theta is the price's change as time passes: −∂/∂maturity.
            close(
                -g[4],
                theta(s, k, r, v, t),
                1e-12,
                &format!("{name} theta at {p:?}"),
            );
            // The strike has no greek of the crate's: central differences.
            close(
                g[1],
                published_fd(published, p, 1),
                1e-6,
                &format!("{name} ∂/∂strike at {p:?}"),
            );
        }
    }
}

#[test]
fn second_derivatives_are_gamma_vanna_and_vomma() {
    for p in POINTS {
        let [s, k, r, v, t] = p;
        let (y, g, h) = hessian(bind(call {}, (Var(0), k, r, Var(1), t)), &[s, v]);
        assert_eq!(y.to_bits(), black_scholes::call(s, k, r, v, t).to_bits());
        close(
            g[0],
            black_scholes::call_delta(s, k, r, v, t),
            1e-12,
            "delta",
        );
        close(g[1], black_scholes::call_vega(s, k, r, v, t), 1e-12, "vega");
        close(
            h[(0, 0)],
            black_scholes::call_gamma(s, k, r, v, t),
            1e-10,
            &format!("gamma at {p:?}"),
        );
        close(
            h[(0, 1)],
            black_scholes::call_vanna(s, k, r, v, t),
            1e-10,
            &format!("vanna at {p:?}"),
        );
        close(
            h[(1, 0)],
            black_scholes::call_vanna(s, k, r, v, t),
            1e-10,
            &format!("vanna at {p:?}"),
        );
        close(
            h[(1, 1)],
            black_scholes::call_vomma(s, k, r, v, t),
            1e-10,
            &format!("vomma at {p:?}"),
        );
        let (_, _, h) = hessian(bind(put {}, (Var(0), k, r, Var(1), t)), &[s, v]);
        close(
            h[(0, 0)],
            black_scholes::put_gamma(s, k, r, v, t),
            1e-10,
            "put gamma",
        );
        close(
            h[(0, 1)],
            black_scholes::put_vanna(s, k, r, v, t),
            1e-10,
            "put vanna",
        );
        close(
            h[(1, 1)],
            black_scholes::put_vomma(s, k, r, v, t),
            1e-10,
            "put vomma",
        );
    }
}

#[test]
fn greeks_differentiated_are_the_next_greeks() {
    for p in POINTS {
        let [s, k, r, v, t] = p;
        // Delta's derivatives: gamma in spot, vanna in volatility, −charm in maturity.
        let (_, g) = gradient(
            bind(call_delta {}, (Var(0), k, r, Var(1), Var(2))),
            &[s, v, t],
        );
        close(
            g[0],
            black_scholes::call_gamma(s, k, r, v, t),
            1e-12,
            &format!("∂delta/∂s at {p:?}"),
        );
        close(
            g[1],
            black_scholes::call_vanna(s, k, r, v, t),
            1e-12,
            &format!("∂delta/∂σ at {p:?}"),
        );
        close(
            -g[2],
            black_scholes::call_charm(s, k, r, v, t),
            1e-12,
            &format!("−∂delta/∂T at {p:?}"),
        );
        // Vega's derivative in volatility: vomma; in spot: vanna.
        let (_, g) = gradient(bind(call_vega {}, (Var(0), k, r, Var(1), t)), &[s, v]);
        close(
            g[0],
            black_scholes::call_vanna(s, k, r, v, t),
            1e-12,
            "∂vega/∂s",
        );
        close(
            g[1],
            black_scholes::call_vomma(s, k, r, v, t),
            1e-12,
            "∂vega/∂σ",
        );
        // Every pricer's gradient against central differences of the published crate's.
        macro_rules! against_published {
            ($($f:ident),*) => {$(
                let (y, g) = gradient(bind($f {}, (Var(0), Var(1), Var(2), Var(3), Var(4))), &p);
                assert_eq!(y.to_bits(), black_scholes::$f(s, k, r, v, t).to_bits());
                for (i, gi) in g.iter().enumerate() {
                    let want = published_fd(black_scholes::$f, p, i);
                    assert!(
                        (gi - want).abs() <= 1e-5 * want.abs().max(1.0),
                        "∂{}/∂x{i} at {p:?}: {gi} against {want}",
                        stringify!($f)
                    );
                }
            )*};
        }
        against_published!(
            call, call_delta, call_gamma, call_vega, call_theta, call_rho, call_vanna, call_vomma,
            call_charm, put, put_delta, put_gamma, put_vega, put_theta, put_rho, put_vanna,
            put_vomma, put_charm
        );
    }
}

/// A portfolio's value as a function of one slice (spot, strike, rate, volatility,
/// maturity): a straddle, one call and one put.
#[derive_frule]
fn straddle(x: &[f64]) -> f64 {
    call(x[0], x[1], x[2], x[3], x[4]) + put(x[0], x[1], x[2], x[3], x[4])
}

fn published_straddle(x: &[f64]) -> f64 {
    black_scholes::call(x[0], x[1], x[2], x[3], x[4])
        + black_scholes::put(x[0], x[1], x[2], x[3], x[4])
}

#[test]
fn every_mode_against_central_differences_of_the_published_crate() {
    for p in POINTS {
        check_modes!(straddle {}, published_straddle, p);
    }
}

/// `compute_all`'s prices and deltas, Black 76's and Black-Scholes-Merton's, of spot (or
/// forward) and volatility.
#[derive_frule]
fn book(x: &[f64]) -> [f64; 6] {
    let a = compute_all(x[0], 95.0, 0.03, x[1], 0.5);
    let b = black76(x[0], 95.0, 0.03, x[1], 0.5);
    let m = bsm_compute_all(x[0], 95.0, x[1], 0.03, 0.02, 0.5);
    [
        a.call_price,
        a.put_delta,
        b.call_price,
        b.put_price,
        m.call_price,
        m.put_vega,
    ]
}

#[test]
fn structs_of_greeks_differentiate_to_their_own_greeks() {
    for (s, v) in [(100.0, 0.25), (80.0, 0.4), (130.0, 0.1)] {
        let (y, j) = jacobian(book {}, &[s, v]);
        let a = black_scholes::compute_all(s, 95.0, 0.03, v, 0.5);
        let b = black_scholes::black76(s, 95.0, 0.03, v, 0.5);
        let m = black_scholes::bsm_compute_all(s, 95.0, v, 0.03, 0.02, 0.5);
        let want = [
            a.call_price,
            a.put_delta,
            b.call_price,
            b.put_price,
            m.call_price,
            m.put_vega,
        ];
        let dividend = (-0.02f64 * 0.5).exp();
        for (got, want) in y.iter().zip(want) {
            assert_eq!(got.to_bits(), want.to_bits());
        }
        let rows = [
            (a.call_delta, a.call_vega),
            (a.put_gamma, a.put_vanna),
            (b.call_delta, b.call_vega),
            (b.put_delta, b.put_vega),
            // The crate's Black-Scholes-Merton vega lacks the dividend's discount e^(−qT)
            // (its `call_vega = stock * pdf_d1 * sqrt_maturity`); below, central
            // differences of its prices agree with the derivative and not with its vega.
            (m.call_delta, m.call_vega * dividend),
            // Its vanna and vomma are those of its vega as written.
            (m.put_vanna, m.put_vomma),
        ];
        for (i, (ds, dv)) in rows.into_iter().enumerate() {
            close(j[(i, 0)], ds, 1e-12, &format!("row {i} ∂/∂s at {s}, {v}"));
            close(j[(i, 1)], dv, 1e-12, &format!("row {i} ∂/∂σ at {s}, {v}"));
        }
        let h = 1e-6;
        let price = |v: f64| black_scholes::bsm_compute_all(s, 95.0, v, 0.03, 0.02, 0.5).call_price;
        let vega = (price(v + h) - price(v - h)) / (2.0 * h);
        close(j[(4, 1)], vega, 1e-5, "Black-Scholes-Merton vega");
        assert!(
            (m.call_vega - vega).abs() > 1e-3 * vega,
            "the crate's vega without e^(-qT)"
        );
    }
}
