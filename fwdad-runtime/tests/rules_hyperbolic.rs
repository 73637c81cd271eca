//! `rules/hyperbolic.rs`: every rule against central finite differences (f32, f64, batched),
//! plus exact values at known points.

#[macro_use]
mod common;

use fwdad_runtime::{ops, Dual};

// The domain table (`acosh`: x > 1; `atanh`: |x| < 1).
unary_rules! {
    sinh: x in (-3.0, 3.0) => x.sinh(), ops::sinh(x);
    cosh: x in (-3.0, 3.0) => x.cosh(), ops::cosh(x);
    tanh: x in (-3.0, 3.0) => x.tanh(), ops::tanh(x);
    asinh: x in (-5.0, 5.0) => x.asinh(), ops::asinh(x);
    acosh: x in (1.1, 5.0) => x.acosh(), ops::acosh(x);
    atanh: x in (-0.95, 0.95) => x.atanh(), ops::atanh(x);
}

/// Derivatives at points where they are known exactly (written out, not taken from the rules).
#[test]
fn exact_values() {
    let t = |d: Dual<f64>| d.tangent;
    assert_eq!(t(ops::sinh(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::cosh(Dual::new(0.0, 1.0))), 0.0);
    assert_eq!(t(ops::tanh(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::asinh(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::atanh(Dual::new(0.0, 1.0))), 1.0);
    assert_eq!(t(ops::atanh(Dual::new(0.5, 1.0))), 1.0 / 0.75);
    // acosh'(x) = 1/√(x²-1): 1/√3 at x = 2.
    approx::assert_relative_eq!(
        t(ops::acosh(Dual::new(2.0, 1.0))),
        1.0 / 3.0_f64.sqrt(),
        max_relative = 1e-15
    );
    // Large arguments: asinh'(x) ≈ 1/|x|, with no overflow in x².
    approx::assert_relative_eq!(
        t(ops::asinh(Dual::new(1e200, 1.0))),
        1e-200,
        epsilon = 0.0,
        max_relative = 1e-12
    );
    approx::assert_relative_eq!(
        t(ops::acosh(Dual::new(1e200, 1.0))),
        1e-200,
        epsilon = 0.0,
        max_relative = 1e-12
    );
}

/// Near `|x| = 1` the derivatives must not lose digits to the cancellation in `1 - x²`.
/// With `x = 1 ± 2⁻³⁰` every factor below is exact in `f64`, so the expected values are
/// correctly rounded up to one or two operations.
#[test]
fn accurate_near_the_branch_points() {
    let e = 2.0_f64.powi(-30);
    // acosh'(1 + e) = 1/√(e(2 + e)).
    approx::assert_relative_eq!(
        ops::acosh(Dual::new(1.0 + e, 1.0)).tangent,
        1.0 / (e * (2.0 + e)).sqrt(),
        epsilon = 0.0,
        max_relative = 4e-16
    );
    // atanh'(1 - e) = 1/(e(2 - e)).
    approx::assert_relative_eq!(
        ops::atanh(Dual::new(1.0 - e, 1.0)).tangent,
        1.0 / (e * (2.0 - e)),
        epsilon = 0.0,
        max_relative = 4e-16
    );
    // f32 overflows x² already at 1e20.
    approx::assert_relative_eq!(
        ops::asinh(Dual::new(1e20_f32, 1.0)).tangent,
        1e-20,
        epsilon = 0.0,
        max_relative = 1e-6
    );
}
