//! financial 1.1.5 (MIT OR Apache-2.0, Copyright Raymon Mina,
//! <https://github.com/raymon1/financial>, as published on crates.io): Excel's FV, PV, NPV,
//! IRR, MIRR, XNPV and XIRR. Copied whole but their tests, module by module under the
//! crate's own paths (`crate::common::find_root`, `crate::periodic_cashflow::npv`, ..), with
//! `#[fwdad::derive_frule]` added on each function of `common` and `periodic_cashflow` and
//! on `impl Bounds`, and `fwdad::Differentiable` on `Bounds`' derive list (its bisection
//! takes the bracket by value); `src/lib.rs`'s re-exports are below. Its root finder is
//! Newton's method with a central-difference slope (`(f(x + 1e-7) - f(x - 1e-7)) / 2e-7`),
//! falling back on a bracket search and bisection, handed the NPV as a closure; its powers
//! are a `fold` pushing into a `Vec`, its cash flows trimmed of zeros by returned
//! sub-slices, MIRR's flows filtered by `|(_r, &v)| v < 0.`.
//!
//! Wall (docs/limits.md): the `scheduled_cashflow` module (XNPV, XIRR) stays plain: its
//! functions are generic over chrono's `T: TimeZone` of the dates (`xnpv<T: TimeZone>(rate,
//! values, dates: &[DateTime<T>])`), another crate's trait bounding a type parameter
//! (`tests/ui/derive_frule/foreign-trait-type-param.rs`).
//!
//! The derivatives are checked against closed forms (∂NPV/∂vₖ = (1 + r)^−(k+1), ∂FV/∂PV =
//! −(1 + r)ⁿ, MIRR's, ..), the implicit function theorem at the published crate's IRR
//! (∂r/∂vₖ = −(∂NPV/∂vₖ)/(∂NPV/∂r)) and central differences of the published crate, in one
//! direction, in batches and at second order; primals bit for bit against the published
//! crate.

#![allow(clippy::all, non_snake_case, dead_code, unused_imports)]

// The tests' helpers: the crate's own `common` module is copied below under its name.
#[path = "common/mod.rs"]
mod helpers;

// `src/lib.rs`'s re-exports.
pub use crate::periodic_cashflow::fv::fv;
pub use crate::periodic_cashflow::irr::irr;
pub use crate::periodic_cashflow::mirr::mirr;
pub use crate::periodic_cashflow::npv::npv;
pub use crate::periodic_cashflow::pv::pv;
pub use crate::scheduled_cashflow::xirr::xirr;
pub use crate::scheduled_cashflow::xnpv::xnpv;

// ---- verbatim modules ----
/// `src/common.rs` with `src/common/find_root.rs` and `src/common/utils.rs`.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
pub mod common {
/// `src/common/find_root.rs`.
pub mod find_root {
use crate::common::PRECISION;

const NEWTON_MAX_ITERATION: u32 = 20;
const BISECTION_MAX_ITERATION: u32 = 2000;
const INITIAL_GUESS: f64 = 0.;

#[fwdad::derive_frule]
pub fn find_root<F>(x: Option<f64>, func: F, bounds_search_expansion_factor: f64) -> Option<f64>
where
    F: Fn(f64) -> f64,
{
    let x = match x {
        Some(num) => num,
        None => INITIAL_GUESS,
    };
    let f = |x| func(x);
    let newton_val = newton(x, f);
    let same_sign = |x: f64, y: f64| {
        x.is_sign_positive() && y.is_sign_positive() || x.is_sign_negative() && y.is_sign_negative()
    };

    if newton_val.is_some() && same_sign(newton_val.unwrap(), x) {
        newton_val
    } else if let Some(b_pos) = find_bounds(x, Bounds::new_positive(), f, bounds_search_expansion_factor) {
        bisection(b_pos, f)
    } else if let Some(b_neg) = find_bounds(x, Bounds::new_negative(), f, bounds_search_expansion_factor) {
        bisection(b_neg, f)
    } else {
        None
    }
}

#[fwdad::derive_frule]
fn newton<F>(x: f64, f: F) -> Option<f64>
where
    F: Fn(f64) -> f64,
{
    let mut x = x;
    let df = |x: f64| (f(x + PRECISION) - f(x - PRECISION)) / (2. * PRECISION);

    for _ in 1..NEWTON_MAX_ITERATION {
        let fx = f(x);
        let dfx = df(x);

        let new_x = x - fx / dfx;

        if (new_x - x).abs() <= PRECISION || fx.abs() <= PRECISION {
            return Some(new_x);
        }

        x = new_x;
    }

    None
}

#[fwdad::derive_frule]
fn bisection<F>(bounds: Bounds, f: F) -> Option<f64>
where
    F: Fn(f64) -> f64,
{
    let mut a = bounds.lower;
    let mut b = bounds.upper;
    for _ in 1..BISECTION_MAX_ITERATION {
        let fa = f(a);
        if fa.abs() < PRECISION {
            return Some(a);
        } else {
            let fb = f(b);
            if fb.abs() < PRECISION {
                return Some(b);
            } else {
                if fa * fb > 0. {
                    return None;
                }

                let mid = a + (b - a) / 2.;
                let fmid = f(mid);

                if fmid.abs() < PRECISION {
                    return Some(mid);
                } else {
                    let fafmid = fa * fmid;
                    if fafmid < 0. {
                        b = mid;
                    } else if fafmid > 0. {
                        a = mid;
                    } else {
                        panic!("it should never get here");
                    }
                }
            }
        }
    }

    None
}

#[fwdad::derive_frule]
fn find_bounds<F>(x: f64, bounds: Bounds, f: F, expansion_factor: f64) -> Option<Bounds>
where
    F: Fn(f64) -> f64,
{
    let shift = 0.01;
    let adjust_to_min = |val| {
        if val <= bounds.lower {
            bounds.lower + PRECISION
        } else {
            val
        }
    };
    let adjust_to_max = |val| {
        if val >= bounds.upper {
            bounds.upper - PRECISION
        } else {
            val
        }
    };

    let mut low = adjust_to_min(x - shift);
    let mut upp = adjust_to_max(x + shift);
    for _ in 1..60 {
        let lower = adjust_to_min(low);
        let upper = adjust_to_max(upp);
        let product = f(lower) * f(upper);
        if product <= 0. {
            return Some(Bounds::new_from_range(lower, upper));
        } else {
            low = lower + expansion_factor * (lower - upper);
            upp = upper + expansion_factor * (upper - lower);
            continue;
        }
    }

    None
}

#[derive(Debug, fwdad::Differentiable)]
struct Bounds {
    lower: f64,
    upper: f64,
}

#[fwdad::derive_frule]
impl Bounds {
    fn new_positive() -> Bounds {
        Bounds {
            lower: 0.,
            upper: f64::MAX,
        }
    }

    fn new_negative() -> Bounds {
        Bounds {
            lower: f64::MIN,
            upper: 0.,
        }
    }

    fn new_from_range(lower: f64, upper: f64) -> Bounds {
        if lower > upper {
            panic!("lower cannot be greater than upper bounds")
        }
        Bounds { lower, upper }
    }
}
}
/// `src/common/utils.rs`.
pub mod utils {
#[fwdad::derive_frule]
pub fn powers(base: f64, n: usize, start_from_zero: bool) -> Vec<f64> {
    let start = if start_from_zero { 0 } else { 1 };
    let p0 = if start_from_zero { 1. } else { base };

    (start..n).fold(vec![p0], |mut pows, _| {
        pows.push(pows.last().unwrap() * (base));
        pows
    })
}

#[fwdad::derive_frule]
pub fn trim_zeros(values: &[f64]) -> &[f64] {
    let not_zero = |x: &f64| *x != 0.;

    let begin = values.iter().position(not_zero).unwrap_or(0);

    let end = values.iter().rposition(not_zero).unwrap_or(values.len() - 1) + 1;
    &values[begin..end]
}

#[fwdad::derive_frule]
pub fn trim_end_zeros(values: &[f64]) -> &[f64] {
    let not_zero = |x: &f64| *x != 0.;

    let end = values.iter().rposition(not_zero).unwrap_or(values.len() - 1) + 1;

    &values[0..end]
}

use chrono::{offset::TimeZone, DateTime};

#[inline]
pub fn days_to<T: TimeZone>(d0: DateTime<T>, d1: DateTime<T>) -> f64 {
    d1.signed_duration_since(d0).num_days() as f64
}

// FIXME: needs to move
#[fwdad::derive_frule]
pub fn validate_cashflow_values(values: &[f64]) -> Result<(), &'static str> {
    let len = values.len();
    let zeros = values.iter().filter(|x| **x == 0.).count();
    let negatives = values.iter().filter(|x| x.is_sign_negative()).count();

    if len < 2 || zeros + negatives == len {
        return Err(
            "cashflow must contain more than one value, and include positive and negative values",
        );
    }

    Ok(())
}
}
pub const PRECISION: f64 = 1e-7;
}

/// `src/periodic_cashflow.rs` with its five modules.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
pub mod periodic_cashflow {
/// `src/periodic_cashflow/fv.rs`.
pub mod fv {
/// Calculates the future value of an investment based on a constant interest rate.
/// You can use FV with either periodic, constant payments, or a single lump sum payment.
///
/// # Examples
///
/// ```
/// let fv = financial::fv(0.1, 5.0, Some(100.0), Some(1000.0), Some(false));
/// assert_eq!(fv, -2221.020000000001);
/// ```
#[fwdad::derive_frule]
pub fn fv(
    rate: f64,
    nper: f64,
    pmt: Option<f64>,
    pv: Option<f64>,
    pmt_at_begining: Option<bool>,
) -> f64 {
    let factor = |r| f64::powf(1.0 + r, nper);

    let pmt = pmt.unwrap_or_else(|| 0.0);
    let pv = pv.unwrap_or_else(|| 0.0);

    if rate == 0.0 {
        -(pv + pmt * nper)
    } else {
        let factor = factor(rate);
        let pmt_at_begining = if pmt_at_begining.unwrap_or_else(|| false) {
            1.0
        } else {
            0.0
        };

        -pv * factor - pmt * (1.0 + rate * pmt_at_begining) / rate * (factor - 1.0)
    }
}
}
/// `src/periodic_cashflow/irr.rs`.
pub mod irr {
use crate::common::{find_root::find_root, utils};
use crate::periodic_cashflow::npv::npv;

/// Calculates the internal rate of return for a series of cash flows occurring at regular interval represented by the numbers in values.
///
/// # Example
/// ```
/// let cf = [-500., 100., 100., 100., 100., 100.];
/// let guess = Some(0.);
/// let cf_irr = financial::irr(&cf, guess);
/// ```
#[fwdad::derive_frule]
pub fn irr(values: &[f64], guess: Option<f64>) -> Result<f64, &'static str> {
    let values = utils::trim_zeros(&values);

    match utils::validate_cashflow_values(values) {
        Err(x) => return Err(x),
        Ok(()) => {}
    }

    let f_npv = |x: f64| npv(x, values);

    // IRR is calculated by the bisection-search of a root of a polynomial.
    // For it to work, we need to establish search bounds; we determine them by probing some values of the argument,
    // starting from the initial guess (usually zero), and looking for npv to change its value.
    // We are interested in a root closest to the initial guess, so we choose a conservative (close to 1.0) factor
    // to expand the search area on each iteration.
    let bounds_search_expansion_factor = 1.1;

    match find_root(guess, f_npv, bounds_search_expansion_factor) {
        Some(ans) => Ok(ans),
        None => Err("could't find irr for the values provided"),
    }
}
}
/// `src/periodic_cashflow/mirr.rs`.
pub mod mirr {
use crate::common::utils;

/// Returns the modified internal rate of return for a series of periodic cash flows.
/// MIRR considers both the cost of the investment and the interest received on reinvestment of cash.
///
/// # Example
/// ```
/// let cf = [-1000., 100., 200., 300., 400., 400., 400.];
/// let finance_rate = 0.1;
/// let reinvest_rate = 0.1;
/// let mirr = financial::mirr(&cf, finance_rate, reinvest_rate);
/// ```
#[fwdad::derive_frule]
pub fn mirr(values: &[f64], finance_rate: f64, reinvest_rate: f64) -> f64 {
    let values = utils::trim_end_zeros(values);

    let negative_cf_pv : f64 = utils::powers(1. + finance_rate, values.len(), true)
    .iter()
    .zip(values.iter())
    .filter(|(_r, &v)| v < 0.)
    .map(|(r, v)| *v / *r)
    .sum();

    let positive_cf_fv : f64 = utils::powers(1. + reinvest_rate, values.len(), true)
    .iter()
    .zip(values.iter().rev())
    .filter(|(_r, &v)| v > 0.)
    .map(|(r, v)| v * r)
    .sum();

    (positive_cf_fv / -negative_cf_pv).powf(1. / (values.len() - 1) as f64) - 1.
}
}
/// `src/periodic_cashflow/npv.rs`.
pub mod npv {
use crate::common::utils;

/// Calculates the net present value of an investment by using a discount rate and a series of future payments
/// (negative values) and income (positive values).
///
/// # Examples
///
/// ```
/// let npv = financial::npv(0.1, &[-1000., 500., 500., 500.]);
/// assert_eq!(npv, 221.29635953828267);
/// ```
// pre calculating powers for performance
#[fwdad::derive_frule]
pub fn npv(rate: f64, values: &[f64]) -> f64 {
    if rate == 0.0 {
        return values.iter().sum();
    }

    utils::powers(1. + rate, values.len(), false)
        .iter()
        .zip(values.iter())
        .map(|(p, v)| v / p)
        .sum()
}
}
/// `src/periodic_cashflow/pv.rs`.
pub mod pv {
/// Calculates the present value of a loan or an investment, based on a constant interest rate.
/// You can use PV with either periodic, constant payments (such as a mortgage or other loan),
/// or a future value that's your investment goal.
///
/// # Examples
///
/// ```
/// let fv = financial::fv(0.1, 5.0, Some(100.0), Some(1000.0), Some(false));
/// assert_eq!(fv, -2221.020000000001);
/// ```
#[fwdad::derive_frule]
pub fn pv(
    rate: f64,
    nper: f64,
    pmt: Option<f64>,
    fv: Option<f64>,
    pmt_at_begining: Option<bool>,
) -> f64 {
    let pmt = pmt.unwrap_or_else(|| 0.);
    let fv = fv.unwrap_or_else(|| 0.);

    if rate == 0.0 {
        -(fv + pmt * nper)
    } else {
        let pmt_at_begining = if pmt_at_begining.unwrap_or_else(|| false) {
            1.
        } else {
            0.
        };
        let temp = f64::powf(1. + rate, nper);
        let factor = (1. + rate * pmt_at_begining) * (temp - 1.) / rate;
        -(fv + pmt * factor) / temp
    }
}
}
}

/// `src/scheduled_cashflow.rs` with its three modules.
#[rustfmt::skip]
#[allow(clippy::all, dead_code, unused_imports)]
pub mod scheduled_cashflow {
/// `src/scheduled_cashflow/checked_cashflow_schedule.rs`.
pub mod checked_cashflow_schedule {
use chrono::{DateTime, TimeZone};

pub struct CheckedCashflowSchedule<'a, T>
where
    T: TimeZone,
{
    pub values: &'a [f64],
    pub dates: &'a [DateTime<T>],
}

impl<'a, T> CheckedCashflowSchedule<'a, T>
where
    T: TimeZone,
{
    pub fn new(
        values: &'a [f64],
        dates: &'a [DateTime<T>],
    ) -> Result<CheckedCashflowSchedule<'a, T>, &'static str>
    where
        T: TimeZone,
    {
        if values.len() != dates.len() {
            return Err("Values and dates length must match");
        }

        let d0 = dates.first().unwrap();
        if dates.iter().any(|d| *d < *d0) {
            return Err("First date must be the earliest");
        };

        Ok(CheckedCashflowSchedule { values, dates })
    }
}
}
/// `src/scheduled_cashflow/xirr.rs`.
pub mod xirr {
use crate::common::find_root::find_root;
use crate::scheduled_cashflow::xnpv::calculate_xnpv;
use crate::scheduled_cashflow::CheckedCashflowSchedule;
use chrono::{DateTime, TimeZone};

/// Returns the internal rate of return for a schedule of cash flows that is not necessarily periodic
///
/// # Example
/// ```
/// use chrono::{NaiveDate, DateTime, Utc};
/// let cf = [-379., 100., 100., 100., 100., 100.];
/// let dates = [
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2016, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2017, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2018, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2019, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2020, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2021, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
/// ];
/// assert!((financial::xirr(&cf, &dates, None).unwrap() - 0.10004608364).abs() < 1e-7);
/// ```
pub fn xirr<T: TimeZone>(
    values: &[f64],
    dates: &[DateTime<T>],
    guess: Option<f64>,
) -> Result<f64, &'static str> {
    let cf = CheckedCashflowSchedule::new(values, dates);

    match cf {
        Err(m) => Err(m),
        Ok(cf) => {
            let f_xnpv = |x: f64| calculate_xnpv(x, &cf);
            match find_root(guess, f_xnpv, 1.1) {
                Some(ans) => Ok(ans),
                None => Err("could't find irr for the values provided"),
            }
        }
    }
}
}
/// `src/scheduled_cashflow/xnpv.rs`.
pub mod xnpv {
use crate::common::utils;
use crate::scheduled_cashflow::CheckedCashflowSchedule;
use chrono::{offset::TimeZone, DateTime};

/// Returns the net present value for a schedule of cash flows that is not necessarily periodic.
///
/// # Example
/// ```
/// use chrono::{NaiveDate, DateTime, Utc, Duration};
/// let cf = [-500., 100., 100., 100., 100., 100.];
/// let dates = [
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2016, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2017, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2018, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2019, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2020, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
///     DateTime::<Utc>::from_utc(NaiveDate::from_ymd(2021, 7, 8).and_hms_opt(0, 0, 0).unwrap(), Utc),
/// ];
/// assert_eq!(financial::xnpv(0.1, &cf, &dates).unwrap(), -120.9553674519204);    
/// ```
pub fn xnpv<T: TimeZone>(
    rate: f64,
    values: &[f64],
    dates: &[DateTime<T>],
) -> Result<f64, &'static str> {
    let cf = CheckedCashflowSchedule::new(values, dates);
    match cf {
        Err(m) => Err(m),
        Ok(cf) => Ok(calculate_xnpv(rate, &cf)),
    }
}

pub fn calculate_xnpv<T: TimeZone>(rate: f64, cf: &CheckedCashflowSchedule<T>) -> f64 {
    if cf.values.is_empty() {
        return 0.;
    }

    if rate == 0. {
        return cf.values.iter().sum();
    }

    let d0 = cf.dates.first().unwrap();
    cf.values
        .iter()
        .zip(cf.dates.iter())
        .map(|(v, d)| v / f64::powf(1. + rate, utils::days_to(d0.clone(), d.clone()) / 365.))
        .sum()
}
}

pub use crate::scheduled_cashflow::checked_cashflow_schedule::CheckedCashflowSchedule;
}

// ---- tests ----

use fwdad::prelude::*;
use helpers::modes::{assert_close, fd_gradient, fd_hessian};
use helpers::widths::same;

/// The cash flows of a project: an investment, then returns.
const FLOWS: [f64; 6] = [-1000.0, 120.0, 260.0, 310.0, 330.0, 290.0];

/// The NPV of `p = [rate, v₀, v₁, ..]`, as a caller of the crate writes it.
#[fwdad::derive_frule]
fn npv_at(p: &[f64]) -> f64 {
    npv(p[0], &p[1..])
}

/// The IRR of the cash flows `v`, no guess given.
#[fwdad::derive_frule]
fn irr_of(v: &[f64]) -> f64 {
    irr(v, None).unwrap()
}

/// FV of `p = [rate, nper, pmt, pv]` paid at the start of each period.
#[fwdad::derive_frule]
fn fv_due(p: &[f64]) -> f64 {
    fv(p[0], p[1], Some(p[2]), Some(p[3]), Some(true))
}

/// PV of `p = [rate, nper, pmt, fv]` paid at the end of each period.
#[fwdad::derive_frule]
fn pv_end(p: &[f64]) -> f64 {
    pv(p[0], p[1], Some(p[2]), Some(p[3]), None)
}

/// MIRR of `p = [finance rate, reinvest rate, v₀, v₁, ..]`.
#[fwdad::derive_frule]
fn mirr_at(p: &[f64]) -> f64 {
    mirr(&p[2..], p[0], p[1])
}

fn published_npv(p: &[f64]) -> f64 {
    financial::npv(p[0], &p[1..])
}

fn published_irr(v: &[f64]) -> f64 {
    financial::irr(v, None).unwrap()
}

fn with_rate(r: f64, v: &[f64]) -> Vec<f64> {
    let mut p = vec![r];
    p.extend_from_slice(v);
    p
}

#[test]
fn npv_against_its_closed_form() {
    for r in [0.0, 0.03, 0.1, 0.25] {
        let p = with_rate(r, &FLOWS);
        let (v, g) = gradient(npv_at {}, &p[..]);
        assert_eq!(v.to_bits(), published_npv(&p).to_bits(), "NPV at {r}");
        let b = 1.0 + r;
        let mut d_rate = 0.0;
        for (k, vk) in FLOWS.iter().enumerate() {
            let n = (k + 1) as f64;
            assert_close(g[k + 1], b.powf(-n), 1e-14, &format!("∂NPV/∂v{k} at {r}"));
            d_rate -= n * vk * b.powf(-n - 1.0);
        }
        // At a zero rate the crate sums the flows: ∂/∂r is that of its `r == 0` branch, 0.
        if r == 0.0 {
            assert_eq!(g[0], 0.0);
        } else {
            assert_close(g[0], d_rate, 1e-13, &format!("∂NPV/∂r at {r}"));
        }
    }
}

#[test]
fn irr_against_the_implicit_function_theorem() {
    let cases: [&[f64]; 4] = [
        &FLOWS,
        &[-500.0, 120.0, 140.0, 160.0, 180.0],
        &[0.0, -2000.0, 700.0, 800.0, 900.0, 0.0],
        &[-100.0, 39.0, 59.0, 55.0, 20.0],
    ];
    for v in cases {
        let (r, g) = gradient(irr_of {}, v);
        assert_eq!(r.to_bits(), published_irr(v).to_bits(), "IRR of {v:?}");
        // NPV(r, v) = Σ vₖ (1 + r)^−(k+1) over the flows trimmed of zeros at both ends.
        let first = v.iter().position(|x| *x != 0.0).unwrap();
        let last = v.iter().rposition(|x| *x != 0.0).unwrap();
        let b = 1.0 + r;
        let d_rate: f64 = v[first..=last]
            .iter()
            .enumerate()
            .map(|(k, vk)| -((k + 1) as f64) * vk * b.powf(-(k as f64) - 2.0))
            .sum();
        for k in 0..v.len() {
            let want = if k < first || k > last {
                0.0
            } else {
                -b.powf(-((k - first + 1) as f64)) / d_rate
            };
            // Newton stops within 1e-7 of the root, on a slope taken by differences at a
            // step of 1e-7: the tangent is the root's to about 1e-6.
            assert_close(g[k], want, 1e-6, &format!("∂IRR/∂v{k} of {v:?}"));
        }
    }
}

/// A negative IRR from the guess 0: Newton's root has the other sign, so the crate takes
/// it by bisection, whose result is a bracket's midpoint where |NPV| < 1e-7, a step
/// function of the flows: its derivative is 0, as fwdad gives it (the published crate's
/// differences see the steps).
#[test]
fn irr_by_bisection_is_piecewise_constant() {
    let v = [-500.0, 100.0, 100.0, 100.0, 100.0];
    let (r, g) = gradient(irr_of {}, &v[..]);
    assert_eq!(r.to_bits(), published_irr(&v).to_bits());
    assert!(r < 0.0 && (r - -0.0836454).abs() < 1e-6, "{r}");
    assert_eq!(g, vec![0.0; 5]);
}

#[test]
fn fv_and_pv_against_closed_forms() {
    for (r, n) in [(0.05, 10.0), (0.1, 5.0), (0.0071, 360.0)] {
        let p = [r, n, -100.0, -1000.0];
        let (v, g) = gradient(fv_due {}, &p[..]);
        assert_eq!(
            v.to_bits(),
            financial::fv(r, n, Some(-100.0), Some(-1000.0), Some(true)).to_bits()
        );
        let f = (1.0 + r).powf(n);
        // FV = −PV·(1 + r)ⁿ − PMT·(1 + r)·((1 + r)ⁿ − 1)/r.
        assert_close(g[3], -f, 1e-14, "∂FV/∂PV");
        assert_close(g[2], -(1.0 + r) * (f - 1.0) / r, 1e-14, "∂FV/∂PMT");
        let df_dn = f * (1.0 + r).ln();
        assert_close(
            g[1],
            1000.0 * df_dn + 100.0 * (1.0 + r) / r * df_dn,
            1e-12,
            "∂FV/∂n",
        );
        let plain = |q: &[f64]| financial::fv(q[0], q[1], Some(q[2]), Some(q[3]), Some(true));
        assert_close(g[0], fd_gradient(&plain, &p)[0], 1e-6, "∂FV/∂r");

        let p = [r, n, -100.0, 5000.0];
        let (v, g) = gradient(pv_end {}, &p[..]);
        assert_eq!(
            v.to_bits(),
            financial::pv(r, n, Some(-100.0), Some(5000.0), None).to_bits()
        );
        // PV = −(FV + PMT·((1 + r)ⁿ − 1)/r)/(1 + r)ⁿ.
        assert_close(g[3], -1.0 / f, 1e-14, "∂PV/∂FV");
        assert_close(g[2], -(f - 1.0) / r / f, 1e-14, "∂PV/∂PMT");
        let plain = |q: &[f64]| financial::pv(q[0], q[1], Some(q[2]), Some(q[3]), None);
        let want = fd_gradient(&plain, &p);
        assert_close(g[0], want[0], 1e-6, "∂PV/∂r");
        assert_close(g[1], want[1], 1e-6, "∂PV/∂n");
    }
}

#[test]
fn mirr_against_its_closed_form() {
    let v = [-1000.0, 100.0, 200.0, -150.0, 400.0, 400.0, 400.0];
    let (f, re) = (0.08, 0.12);
    let mut p = vec![f, re];
    p.extend_from_slice(&v);
    let (m, g) = gradient(mirr_at {}, &p[..]);
    assert_eq!(m.to_bits(), financial::mirr(&v, f, re).to_bits());
    // MIRR = (FV⁺/−PV⁻)^(1/(n−1)) − 1, FV⁺ = Σ_{vₖ>0} vₖ(1+re)^(n−1−k), PV⁻ = Σ_{vₖ<0} vₖ/(1+f)^k.
    let n = v.len();
    let fv_pos: f64 = (0..n)
        .filter(|&k| v[k] > 0.0)
        .map(|k| v[k] * (1.0 + re).powi((n - 1 - k) as i32))
        .sum();
    let pv_neg: f64 = (0..n)
        .filter(|&k| v[k] < 0.0)
        .map(|k| v[k] / (1.0 + f).powi(k as i32))
        .sum();
    let e = 1.0 / (n - 1) as f64;
    let base = fv_pos / -pv_neg;
    let outer = e * base.powf(e - 1.0);
    for k in 0..n {
        let want = if v[k] > 0.0 {
            outer * (1.0 + re).powi((n - 1 - k) as i32) / -pv_neg
        } else {
            outer * fv_pos / (pv_neg * pv_neg) / (1.0 + f).powi(k as i32)
        };
        assert_close(g[k + 2], want, 1e-13, &format!("∂MIRR/∂v{k}"));
    }
    let plain = |q: &[f64]| financial::mirr(&q[2..], q[0], q[1]);
    let want = fd_gradient(&plain, &p);
    assert_close(g[0], want[0], 1e-7, "∂MIRR/∂finance rate");
    assert_close(g[1], want[1], 1e-7, "∂MIRR/∂reinvest rate");
}

#[test]
fn every_mode() {
    let p = with_rate(0.09, &FLOWS);
    check_widths!(npv_at {}, |q: &[f64]| published_npv(q), p.clone());
    check_widths!(
        fv_due {},
        |q: &[f64]| financial::fv(q[0], q[1], Some(q[2]), Some(q[3]), Some(true)),
        [0.06, 12.0, -150.0, -2000.0]
    );
    check_widths!(
        pv_end {},
        |q: &[f64]| financial::pv(q[0], q[1], Some(q[2]), Some(q[3]), None),
        [0.04, 20.0, -300.0, 1000.0]
    );
    let mut q = vec![0.08, 0.12];
    q.extend_from_slice(&[-1000.0, 100.0, 200.0, -150.0, 400.0, 400.0, 400.0]);
    check_widths!(
        mirr_at {},
        |q: &[f64]| financial::mirr(&q[2..], q[0], q[1]),
        q
    );
}

/// ∇IRR by the implicit function theorem at the published crate's root (no zeros to trim).
fn irr_gradient_at_published_root(v: &[f64]) -> Vec<f64> {
    let b = 1.0 + published_irr(v);
    let d_rate: f64 = (0..v.len())
        .map(|k| -((k + 1) as f64) * v[k] * b.powi(-(k as i32) - 2))
        .sum();
    (0..v.len())
        .map(|k| -b.powi(-(k as i32) - 1) / d_rate)
        .collect()
}

/// The IRR in one direction, in batches and at second order: its gradient against central
/// differences of the published crate, its Hessian against central differences of the
/// implicit function theorem's gradient at the published crate's roots.
#[test]
fn irr_in_every_mode() {
    let v = [-500.0, 100.0, 150.0, 200.0, 250.0];
    let y = published_irr(&v);
    let want = fd_gradient(&|q: &[f64]| published_irr(q), &v);
    let mut one = Vec::new();
    for k in 0..v.len() {
        let mut e = vec![0.0; v.len()];
        e[k] = 1.0;
        let (r, d): (f64, f64) = jvp(irr_of {}, &v[..], &e);
        assert_eq!(r.to_bits(), y.to_bits());
        assert_close(d, want[k], 1e-5, &format!("∂IRR/∂v{k}"));
        one.push(d);
    }
    for (mode, (r, g)) in [
        (
            "1 lane",
            fwdad::drivers::gradient_with::<1>(irr_of {}, &v[..]),
        ),
        (
            "4 lanes",
            fwdad::drivers::gradient_with::<4>(irr_of {}, &v[..]),
        ),
        (
            "8 lanes",
            fwdad::drivers::gradient_with::<8>(irr_of {}, &v[..]),
        ),
    ] {
        assert_eq!(r.to_bits(), y.to_bits(), "{mode}");
        for k in 0..v.len() {
            same(g[k], one[k], 1e-12, &format!("{mode}: ∂IRR/∂v{k}"));
        }
    }
    let (r, g, h) = fwdad::drivers::hessian(irr_of {}, &v[..]);
    assert_eq!(r.to_bits(), y.to_bits());
    let step = 1e-3;
    for j in 0..v.len() {
        same(g[j], one[j], 1e-12, "second order's gradient");
        let (mut up, mut down) = (v, v);
        up[j] += step;
        down[j] -= step;
        let (gu, gd) = (
            irr_gradient_at_published_root(&up),
            irr_gradient_at_published_root(&down),
        );
        for i in 0..v.len() {
            let want = (gu[i] - gd[i]) / (2.0 * step);
            assert_close(
                h[(i, j)] * 1e6,
                want * 1e6,
                1e-4,
                &format!("∂²IRR/∂v{i}∂v{j}"),
            );
        }
    }
}
