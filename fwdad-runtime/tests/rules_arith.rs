//! `rules/arith.rs`: the free functions (`ops::add`, ...), the `std::ops` operators on
//! `Dual` (binary, unary `-`, compound assignment, scalar on either side), `recip` and
//! `mul_add`, against central finite differences (f32, f64, batched, every activity
//! pattern); plus exact values, and the promise that an inactive operand contributes
//! nothing (not even `0 · ∞`).

#[macro_use]
mod common;

use fwdad_runtime::{ops, Batch, Dual};

unary_rules! {
    neg: x in (-5.0, 5.0) => -x, ops::neg(x);
    recip_positive: x in (0.2, 5.0) => x.recip(), ops::recip(x);
    recip_negative: x in (-5.0, -0.2) => x.recip(), ops::recip(x);
}

// The domain table: divisors are kept away from zero.
binary_rules! {
    add: (a, b) in ((-5.0, 5.0), (-5.0, 5.0)) => a + b,
        all [ops::add(a, b), a + b],
        lhs [{ let mut a = a; a += b; a }];
    sub: (a, b) in ((-5.0, 5.0), (-5.0, 5.0)) => a - b,
        all [ops::sub(a, b), a - b],
        lhs [{ let mut a = a; a -= b; a }];
    mul: (a, b) in ((-5.0, 5.0), (-5.0, 5.0)) => a * b,
        all [ops::mul(a, b), a * b],
        lhs [{ let mut a = a; a *= b; a }, a.mul(b)];
    div: (a, b) in ((-5.0, 5.0), (0.3, 4.0)) => a / b,
        all [ops::div(a, b), a / b],
        lhs [{ let mut a = a; a /= b; a }, a.div(b)];
    div_negative_divisor: (a, b) in ((-5.0, 5.0), (-4.0, -0.3)) => a / b,
        all [ops::div(a, b), a / b];
    rem: (a, b) in ((-10.0, 10.0), (0.7, 3.0)) => a % b,
        all [ops::rem(a, b), a % b],
        lhs [{ let mut a = a; a %= b; a }, a.rem(b)];
    rem_negative_divisor: (a, b) in ((-10.0, 10.0), (-3.0, -0.7)) => a % b,
        all [ops::rem(a, b), a % b];
}

ternary_rules! {
    mul_add: (a, b, c) in ((-3.0, 3.0), (-3.0, 3.0), (-3.0, 3.0)) => a.mul_add(b, c),
        all [ops::mul_add(a, b, c)],
        lhs [a.mul_add(b, c)];
}

/// Derivatives written out by hand.
#[test]
fn exact_values() {
    let (a, b) = (Dual::new(3.0_f64, 1.0), Dual::new(4.0_f64, 10.0));
    assert_eq!((a + b).tangent, 11.0);
    assert_eq!((a - b).tangent, -9.0);
    assert_eq!((a * b).tangent, 4.0 + 30.0);
    assert_eq!((a / b).tangent, (4.0 - 30.0) / 16.0);
    assert_eq!((-a).tangent, -1.0);
    assert_eq!(ops::recip(b).tangent, -10.0 / 16.0);
    // 7 % 3 = 1 = 7 - 2·3: ∂a = 1, ∂b = -2.
    let r = Dual::new(7.0_f64, 1.0) % Dual::new(3.0_f64, 10.0);
    assert_eq!((r.primal, r.tangent), (1.0, 1.0 - 20.0));
    let r = Dual::new(-7.0_f64, 1.0) % Dual::new(3.0_f64, 10.0);
    assert_eq!((r.primal, r.tangent), (-1.0, 1.0 + 20.0));
    // mul_add: b·da + a·db + dc.
    let y = ops::mul_add(a, b, Dual::new(5.0, 100.0));
    assert_eq!((y.primal, y.tangent), (17.0, 4.0 + 30.0 + 100.0));
    // Scalars on the left, f32 and f64.
    assert_eq!((2.0_f64 * a).tangent, 2.0);
    assert_eq!((2.0_f32 - Dual::new(1.0_f32, 3.0)).tangent, -3.0);
    assert_eq!((1.0_f64 / Dual::new(2.0, 1.0)).tangent, -0.25);
    // Compound assignment with a scalar and with a batch.
    let mut x = Dual::new(2.0_f64, Batch([1.0, 2.0]));
    x *= 3.0;
    x += Dual::new(1.0, Batch([10.0, 20.0]));
    assert_eq!((x.primal, x.tangent), (7.0, Batch([13.0, 26.0])));
}

/// An inactive operand is a constant: its (absent) tangent is not multiplied into the
/// result, so an infinite or NaN partial does not poison it (`0 · ∞ = NaN` would).
#[test]
fn inactive_operand_contributes_nothing() {
    // ∂(a·b)/∂b = a = ∞, but b is inactive.
    let y = ops::mul(Dual::new(2.0_f64, 1.0), f64::INFINITY);
    assert_eq!(y.tangent, f64::INFINITY);
    let y = ops::mul(f64::INFINITY, Dual::new(0.0_f64, 0.0));
    assert!(y.tangent.is_nan(), "∞ · 0 along the active operand is NaN");
    let y = ops::mul(Dual::new(f64::INFINITY, 0.0), 3.0_f64);
    assert_eq!(y.tangent, 0.0);
    // a/b with inactive b = 0 and active a: the ∂b partial (-a/b² = NaN) is never used.
    let y = ops::div(Dual::new(0.0_f64, 1.0), 0.0);
    assert!(y.primal.is_nan() && y.tangent == f64::INFINITY);
    let y = ops::add(Dual::new(1.0_f64, 2.0), f64::NAN);
    assert_eq!(y.tangent, 2.0);
}
