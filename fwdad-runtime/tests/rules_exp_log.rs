//! `rules/exp_log.rs`: every rule against central finite differences (f32, f64, batched,
//! every activity pattern), and its conventions (`sqrt'(0) = ∞`) against analytic values.

#[macro_use]
mod common;

use fwdad_runtime::{ops, Batch, Dual};

// The domain table: each input's range (logarithms and roots: positive; `ln_1p`: > -1;
// `powf`: positive base; `log`: base away from 1).
unary_rules! {
    exp: x in (-5.0, 5.0) => x.exp(), ops::exp(x);
    exp2: x in (-5.0, 5.0) => x.exp2(), ops::exp2(x);
    exp_m1: x in (-3.0, 3.0) => x.exp_m1(), ops::exp_m1(x);
    ln: x in (0.1, 10.0) => x.ln(), ops::ln(x);
    log2: x in (0.1, 10.0) => x.log2(), ops::log2(x);
    log10: x in (0.1, 10.0) => x.log10(), ops::log10(x);
    ln_1p: x in (-0.9, 5.0) => x.ln_1p(), ops::ln_1p(x);
    sqrt: x in (0.1, 10.0) => x.sqrt(), ops::sqrt(x);
    cbrt_positive: x in (0.2, 5.0) => x.cbrt(), ops::cbrt(x);
    cbrt_negative: x in (-5.0, -0.2) => x.cbrt(), ops::cbrt(x);
    powi_0: x in (-3.0, 3.0) => x.powi(0), ops::powi(x, 0);
    powi_1: x in (-3.0, 3.0) => x.powi(1), ops::powi(x, 1);
    powi_2: x in (-3.0, 3.0) => x.powi(2), ops::powi(x, 2);
    powi_3: x in (-3.0, 3.0) => x.powi(3), ops::powi(x, 3);
    powi_minus_2: x in (0.3, 3.0) => x.powi(-2), ops::powi(x, -2);
    powf_integer_exponent_negative_base: x in (-3.0, -0.3) => x.powf(3.0), ops::powf(x, 3.0);
}

binary_rules! {
    powf: (a, b) in ((0.2, 3.0), (-2.0, 2.0)) => a.powf(b),
        all [ops::powf(a, b)], lhs [a.powf(b)];
    log: (a, b) in ((0.1, 10.0), (1.5, 5.0)) => a.log(b),
        all [ops::log(a, b)], lhs [a.log(b)];
    log_base_below_one: (a, b) in ((0.1, 10.0), (0.1, 0.7)) => a.log(b),
        all [ops::log(a, b)];
    hypot: (a, b) in ((-3.0, 3.0), (-3.0, 3.0)) => a.hypot(b),
        all [ops::hypot(a, b)], lhs [a.hypot(b)];
}

/// `sqrt'(0) = +∞`: the tangent is `±∞` along a nonzero direction and `0` along zero (a
/// strong zero: a direction that does not move `x` takes nothing from the kink).
#[test]
fn sqrt_at_zero_has_infinite_slope() {
    let y = ops::sqrt(Dual::new(0.0_f64, 1.0));
    assert_eq!((y.primal, y.tangent), (0.0, f64::INFINITY));
    let y = ops::sqrt(Dual::new(0.0_f64, -2.0));
    assert_eq!(y.tangent, f64::NEG_INFINITY);
    assert_eq!(ops::sqrt(Dual::new(0.0_f64, 0.0)).tangent, 0.0);
    let y = ops::sqrt(Dual::new(0.0_f32, Batch([1.0, -1.0, 3.0, 0.0])));
    assert_eq!(
        y.tangent.0,
        [f32::INFINITY, f32::NEG_INFINITY, f32::INFINITY, 0.0]
    );
}

/// `powf(0, b)` with a constant exponent follows the power rule `b·0^(b-1)`.
#[test]
fn powf_at_zero_base_follows_power_rule() {
    assert_eq!(ops::powf(Dual::new(0.0_f64, 1.0), 2.0).tangent, 0.0);
    assert_eq!(ops::powf(Dual::new(0.0_f64, 1.0), 1.0).tangent, 1.0);
    assert_eq!(
        ops::powf(Dual::new(0.0_f64, 1.0), 0.5).tangent,
        f64::INFINITY
    );
}

/// Derivatives at points where they are known exactly (written out, not taken from the rules).
#[test]
fn exact_values() {
    let t = |d: Dual<f64>| d.tangent;
    assert_eq!(t(ops::exp(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::ln(Dual::new(1.0, 1.0))), 1.0);
    assert_eq!(t(ops::ln(Dual::new(4.0, 1.0))), 0.25);
    assert_eq!(t(ops::sqrt(Dual::new(4.0, 1.0))), 0.25);
    assert_eq!(t(ops::powi(Dual::new(2.0, 1.0), 3)), 12.0);
    assert_eq!(t(ops::powi(Dual::new(2.0, 1.0), -1)), -0.25);
    assert_eq!(t(ops::exp2(Dual::new(0.0, 1.0))), core::f64::consts::LN_2);
    assert_eq!(t(ops::ln_1p(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::exp_m1(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::hypot(Dual::new(3.0, 1.0), 4.0)), 0.6);
    // d/db a^b at a = e is y.
    let y = ops::powf(core::f64::consts::E, Dual::new(2.0, 1.0));
    approx::assert_relative_eq!(y.tangent, y.primal, max_relative = 1e-15);
}

/// `powi` with the most negative exponent must not overflow computing `n - 1`.
#[test]
fn powi_extreme_exponents() {
    let y = ops::powi(Dual::new(1.0_f64, 1.0), i32::MIN);
    assert_eq!(y.primal, 1.0);
    assert_eq!(y.tangent, i32::MIN as f64);
    let y = ops::powi(Dual::new(-1.0_f64, 1.0), i32::MAX);
    assert_eq!(y.primal, -1.0);
    assert_eq!(y.tangent, i32::MAX as f64);
}
