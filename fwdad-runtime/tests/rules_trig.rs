//! `rules/trig.rs`: every rule against central finite differences (f32, f64, batched, every
//! activity pattern), plus exact values at known points.

#[macro_use]
mod common;

use fwdad_runtime::testing::{test_frule, test_frule_batched};
use fwdad_runtime::{ops, Dual, Real};

// The domain table (`asin`, `acos`: |x| < 1; `tan`: away from ±π/2).
unary_rules! {
    sin: x in (-6.0, 6.0) => x.sin(), ops::sin(x);
    cos: x in (-6.0, 6.0) => x.cos(), ops::cos(x);
    tan: x in (-1.4, 1.4) => x.tan(), ops::tan(x);
    asin: x in (-0.95, 0.95) => x.asin(), ops::asin(x);
    acos: x in (-0.95, 0.95) => x.acos(), ops::acos(x);
    atan: x in (-5.0, 5.0) => x.atan(), ops::atan(x);
    to_degrees: x in (-5.0, 5.0) => x.to_degrees(), ops::to_degrees(x);
    to_radians: x in (-300.0, 300.0) => x.to_radians(), ops::to_radians(x);
}

binary_rules! {
    atan2: (a, b) in ((-3.0, 3.0), (-3.0, 3.0)) => a.atan2(b),
        all [ops::atan2(a, b)], lhs [a.atan2(b)];
}

/// A pair of duals as the dual of a pair.
fn pair<F: Real, T>(d: (Dual<F, T>, Dual<F, T>)) -> Dual<(F, F), (T, T)> {
    Dual::new((d.0.primal, d.1.primal), (d.0.tangent, d.1.tangent))
}

/// `sin_cos` returns a pair: checked as a function with a tuple result.
#[test]
fn sin_cos() {
    for p in common::points((-6.0, 6.0), "sin_cos") {
        macro_rules! check {
            ($F:ty) => {{
                let p = p as $F;
                test_frule(
                    p,
                    |x| x.sin_cos(),
                    |x, dx| pair(ops::sin_cos(Dual::new(*x, *dx))),
                );
                test_frule(
                    p,
                    |x| x.sin_cos(),
                    |x, dx| pair(Dual::new(*x, *dx).sin_cos()),
                );
                test_frule_batched::<{ common::W }, _, _>(
                    p,
                    |x| x.sin_cos(),
                    |x, dx| pair(ops::sin_cos(Dual::new(*x, *dx))),
                );
            }};
        }
        check!(f32);
        check!(f64);
    }
}

/// Derivatives at points where they are known exactly (written out, not taken from the rules).
#[test]
fn exact_values() {
    let t = |d: Dual<f64>| d.tangent;
    assert_eq!(t(ops::sin(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::cos(Dual::new(0.0, 1.0))), -0.0);
    assert_eq!(t(ops::tan(Dual::new(0.0, 2.0))), 2.0);
    assert_eq!(t(ops::asin(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::acos(Dual::new(0.0, 1.0))), -1.0);
    assert_eq!(t(ops::atan(Dual::new(1.0, 1.0))), 0.5);
    // atan2(a, b) at (1, 1): ∂a = b/(a²+b²) = 1/2, ∂b = -a/(a²+b²) = -1/2.
    assert_eq!(t(ops::atan2(Dual::new(1.0, 1.0), 1.0)), 0.5);
    assert_eq!(t(ops::atan2(1.0, Dual::new(1.0, 1.0))), -0.5);
    approx::assert_relative_eq!(
        t(ops::to_degrees(Dual::new(1.0, 1.0))),
        180.0 / core::f64::consts::PI,
        max_relative = 1e-15
    );
}

/// Near `|x| = 1` the derivatives must not lose digits to the cancellation in `1 - x²`.
/// With `x = 1 - 2⁻³⁰` every factor below is exact in `f64`, so the expected values are
/// correctly rounded up to one or two operations.
#[test]
fn accurate_near_the_branch_points() {
    let e = 2.0_f64.powi(-30);
    let expected = 1.0 / (e * (2.0 - e)).sqrt(); // 1/√(1 - x²) = 1/√(e(2 - e))
    approx::assert_relative_eq!(
        ops::asin(Dual::new(1.0 - e, 1.0)).tangent,
        expected,
        epsilon = 0.0,
        max_relative = 4e-16
    );
    approx::assert_relative_eq!(
        ops::acos(Dual::new(-(1.0 - e), 1.0)).tangent,
        -expected,
        epsilon = 0.0,
        max_relative = 4e-16
    );
}
