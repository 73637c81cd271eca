//! Linearised coefficients that overflow where the derivative does not.
//!
//! A linearised chain multiplies its partials into one coefficient before the coefficient
//! meets the root's tangent. libm's `expo2` (behind `sinh` and `cosh` past 709.78) scales
//! a tiny `exp` by `s · s` with `s = 2^1021`: the primal `(e · s) · s` is finite, the
//! coefficient `s · s` of `e`'s tangent is not, and the derivative came out `inf` where it
//! is about 1.2·10³⁰⁸ (docs/design.md, "the overflow guard"). The rule now tests such
//! coefficients and, where one is not finite, applies the factors to the tangent one by
//! one, as the primal meets them (outside loops: in a loop body the test cost Rosenbrock's
//! gradient 40-50 %, docs/limits.md). Each function below is checked in one direction, in
//! batches (`gradient_with`, and `gradient`, which may take known zeros) and at second
//! order, against closed forms (finite differences overflow there), primals bit for bit.
use fwdad::drivers::{gradient, gradient_with, hessian_with, second_derivative};
use fwdad::prelude::*;

/// 2^1021, as libm builds it (`expo2`'s `scale`).
const S: f64 = 2.247_116_418_577_895e307;

/// A tiny exponential, materialised where it is called: its tangent is tiny too.
#[derive_frule]
fn small(x: f64) -> f64 {
    (x - 1416.0).exp()
}

/// The scale written as a literal.
#[derive_frule]
fn scaled_literal(x: f64) -> f64 {
    small(x) * 2.247_116_418_577_895e307 * 2.247_116_418_577_895e307
}

/// The scale a `const`.
#[derive_frule]
fn scaled_const(x: f64) -> f64 {
    small(x) * S * S
}

/// The scale computed in the body, as docs/limits.md wrote it.
#[derive_frule]
fn scaled_local(x: f64) -> f64 {
    let s = 2f64.powi(1021);
    small(x) * s * s
}

/// The scale a parameter (differentiated too).
#[derive_frule]
fn scaled_param(x: f64, s: f64) -> f64 {
    small(x) * s * s
}

/// The chain written inline (`exp` absorbed: its coefficient was finite already).
#[derive_frule]
fn scaled_inline(x: f64) -> f64 {
    (x - 1416.0).exp() * S * S
}

/// libm's `expo2` as it is written (math/expo2.rs), with `f64::exp` for libm's (its `exp`
/// absorbed into the chain, whose coefficient then stays finite: a guard that it stays
/// so; libm's own, a derived call, is `tests/libm_verbatim.rs`'s).
#[derive_frule]
fn expo2(x: f64) -> f64 {
    /* k is such that k*ln2 has minimal relative error and x - kln2 > log(DBL_MIN) */
    const K: i32 = 2043;
    let kln2 = f64::from_bits(0x40962066151add8b);

    /* note that k is odd and scale*scale overflows */
    let scale = f64::from_bits(((0x3ff + K / 2) as u64) << 52);
    /* exp(x - k ln2) * 2**(k-1) */
    (x - kln2).exp() * scale * scale
}

/// Two roots scaled together: a batch's lanes each see one.
#[derive_frule]
fn scaled_pair(x: &[f64]) -> f64 {
    (small(x[0]) + 0.5 * small(x[1])) * S * S
}

/// A division in the chain: the coefficient `S · 2 · S`.
#[derive_frule]
fn scaled_division(x: f64) -> f64 {
    small(x) * S / 0.5 * S
}

/// A sine in the chain: the coefficient `S · cos(e·S) · S`.
#[derive_frule]
fn scaled_sine(x: f64) -> f64 {
    (small(x) * S).sin() * S
}

/// Relative closeness.
fn rel(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        want.is_finite() && (got - want).abs() <= tol * want.abs(),
        "{what}: {got} against {want}"
    );
}

/// `f(x) = e^(x − 1416)·S²`: `f' = f'' = f`.
fn closed(x: f64) -> f64 {
    (x - 1416.0).exp() * S * S
}

#[test]
fn the_scale_is_2_to_the_1021() {
    assert_eq!(S, 2f64.powi(1021));
    assert_eq!(
        f64::from_bits(((0x3ff + 2043 / 2) as u64) << 52),
        2f64.powi(1021)
    );
}

macro_rules! one_variable {
    ($name:ident, $rule:expr, $plain:expr) => {
        #[test]
        fn $name() {
            for x in [705.0, 709.0, 710.0, 710.3] {
                let y: f64 = $plain(x);
                assert!(y.is_finite() && y > 1e305, "a point near the top: {y}");
                let want = closed(x);
                // One direction.
                let (v, d) = derivative($rule, x);
                assert_eq!(v.to_bits(), y.to_bits(), "one direction: primal at {x}");
                rel(
                    d,
                    want,
                    8.0 * f64::EPSILON,
                    &format!("one direction at {x}"),
                );
                // Batches of one variable.
                let (v, g) = gradient_with::<4>(bind($rule, (Var(0),)), &[x]);
                assert_eq!(v.to_bits(), y.to_bits(), "batch: primal at {x}");
                rel(g[0], want, 8.0 * f64::EPSILON, &format!("batch at {x}"));
                let (v, g) = gradient(bind($rule, (Var(0),)), &[x]);
                assert_eq!(v.to_bits(), y.to_bits(), "gradient: primal at {x}");
                rel(g[0], want, 8.0 * f64::EPSILON, &format!("gradient at {x}"));
                // Second order.
                let (v, d1, d2) = second_derivative($rule, x);
                assert_eq!(v.to_bits(), y.to_bits(), "second order: primal at {x}");
                rel(
                    d1,
                    want,
                    8.0 * f64::EPSILON,
                    &format!("second order, f' at {x}"),
                );
                rel(
                    d2,
                    want,
                    8.0 * f64::EPSILON,
                    &format!("second order, f'' at {x}"),
                );
            }
        }
    };
}

one_variable!(literal_scale, scaled_literal {}, scaled_literal);
one_variable!(const_scale, scaled_const {}, scaled_const);
one_variable!(local_scale, scaled_local {}, scaled_local);
one_variable!(inline_chain, scaled_inline {}, scaled_inline);

#[test]
fn libm_expo2_as_written() {
    for x in [709.8, 710.0, 710.4] {
        let y = expo2(x);
        assert!(y.is_finite());
        // expo2(x) = e^x / 2 to rounding: expo2' = expo2'' = expo2.
        let (v, d) = derivative(expo2 {}, x);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(d, y, 8.0 * f64::EPSILON, &format!("expo2'({x})"));
        let (v, g) = gradient_with::<2>(bind(expo2 {}, (Var(0),)), &[x]);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(
            g[0],
            y,
            8.0 * f64::EPSILON,
            &format!("expo2'({x}) in batches"),
        );
        let (v, d1, d2) = second_derivative(expo2 {}, x);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(
            d1,
            y,
            8.0 * f64::EPSILON,
            &format!("expo2'({x}) at second order"),
        );
        rel(d2, y, 8.0 * f64::EPSILON, &format!("expo2''({x})"));
    }
}

#[test]
fn parameter_scale() {
    let s = S;
    for x in [709.0, 710.0] {
        let y = scaled_param(x, s);
        let e = (x - 1416.0).exp();
        // ∂/∂x = e·s², ∂/∂s = 2·e·s; ∂²/∂x² = e·s², ∂²/∂x∂s = 2·e·s, ∂²/∂s² = 2·e.
        let (dx, ds) = (e * s * s, 2.0 * e * s);
        let (v, d) = scaled_param_frule(Dual::new(x, 1.0), Dual::new(s, 0.0)).into_parts();
        assert_eq!(v.to_bits(), y.to_bits());
        rel(d, dx, 8.0 * f64::EPSILON, "one direction, ∂/∂x");
        let (_, d) = scaled_param_frule(Dual::new(x, 0.0), Dual::new(s, 1.0)).into_parts();
        rel(d, ds, 8.0 * f64::EPSILON, "one direction, ∂/∂s");
        let rule = bind(scaled_param {}, (Var(0), Var(1)));
        let (v, g) = gradient_with::<2>(rule, &[x, s]);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(g[0], dx, 8.0 * f64::EPSILON, "batch, ∂/∂x");
        rel(g[1], ds, 8.0 * f64::EPSILON, "batch, ∂/∂s");
        let (v, g) = gradient(rule, &[x, s]);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(g[0], dx, 8.0 * f64::EPSILON, "gradient, ∂/∂x");
        rel(g[1], ds, 8.0 * f64::EPSILON, "gradient, ∂/∂s");
        let (v, g, h) = hessian_with::<2>(rule, &[x, s]);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(g[0], dx, 8.0 * f64::EPSILON, "second order, ∂/∂x");
        rel(g[1], ds, 8.0 * f64::EPSILON, "second order, ∂/∂s");
        rel(h[(0, 0)], dx, 8.0 * f64::EPSILON, "∂²/∂x²");
        rel(h[(0, 1)], ds, 8.0 * f64::EPSILON, "∂²/∂x∂s");
        rel(h[(1, 0)], ds, 8.0 * f64::EPSILON, "∂²/∂s∂x");
        rel(h[(1, 1)], 2.0 * e, 8.0 * f64::EPSILON, "∂²/∂s²");
    }
}

#[test]
fn two_roots_in_batches() {
    let x = [710.0, 709.5];
    let y = scaled_pair(&x);
    let (d0, d1) = (closed(x[0]), 0.5 * closed(x[1]));
    for (k, want) in [d0, d1].into_iter().enumerate() {
        let mut e = [0.0; 2];
        e[k] = 1.0;
        let (v, d) = scaled_pair_frule(Dual::new(&x[..], &e[..])).into_parts();
        assert_eq!(v.to_bits(), y.to_bits());
        rel(
            d,
            want,
            8.0 * f64::EPSILON,
            &format!("one direction, ∂/∂x{k}"),
        );
    }
    let (v, g) = gradient_with::<2>(scaled_pair {}, &x[..]);
    assert_eq!(v.to_bits(), y.to_bits());
    rel(g[0], d0, 8.0 * f64::EPSILON, "batch, ∂/∂x0");
    rel(g[1], d1, 8.0 * f64::EPSILON, "batch, ∂/∂x1");
    let (v, g) = gradient(scaled_pair {}, &x[..]);
    assert_eq!(v.to_bits(), y.to_bits());
    rel(g[0], d0, 8.0 * f64::EPSILON, "gradient, ∂/∂x0");
    rel(g[1], d1, 8.0 * f64::EPSILON, "gradient, ∂/∂x1");
    let (v, g, h) = hessian_with::<2>(scaled_pair {}, &x[..]);
    assert_eq!(v.to_bits(), y.to_bits());
    rel(g[0], d0, 8.0 * f64::EPSILON, "second order, ∂/∂x0");
    rel(h[(0, 0)], d0, 8.0 * f64::EPSILON, "∂²/∂x0²");
    rel(h[(1, 1)], d1, 8.0 * f64::EPSILON, "∂²/∂x1²");
    assert_eq!(h[(0, 1)], 0.0);
}

#[test]
fn division_in_the_chain() {
    for x in [705.0, 709.0] {
        let y = scaled_division(x);
        assert!(y.is_finite() && y > 1e305);
        let want = 2.0 * closed(x);
        let (v, d) = derivative(scaled_division {}, x);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(
            d,
            want,
            8.0 * f64::EPSILON,
            &format!("one direction at {x}"),
        );
        let (v, g) = gradient_with::<2>(bind(scaled_division {}, (Var(0),)), &[x]);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(g[0], want, 8.0 * f64::EPSILON, &format!("batch at {x}"));
        let (v, g) = gradient(bind(scaled_division {}, (Var(0),)), &[x]);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(g[0], want, 8.0 * f64::EPSILON, &format!("gradient at {x}"));
        let (_, d1, d2) = second_derivative(scaled_division {}, x);
        rel(
            d1,
            want,
            8.0 * f64::EPSILON,
            &format!("second order at {x}"),
        );
        rel(
            d2,
            want,
            8.0 * f64::EPSILON,
            &format!("second order, f'' at {x}"),
        );
    }
}

#[test]
fn sine_in_the_chain() {
    for x in [705.0, 709.0, 710.0] {
        let y = scaled_sine(x);
        let e = (x - 1416.0).exp();
        // d/dx sin(e·S)·S = cos(e·S)·e·S·S (e·S is of order 1, S·S overflows).
        let want = (e * S).cos() * e * S * S;
        assert!(y.is_finite() && want.abs() > 1e305, "{x}: {y} {want}");
        let (v, d) = derivative(scaled_sine {}, x);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(
            d,
            want,
            8.0 * f64::EPSILON,
            &format!("one direction at {x}"),
        );
        for (v, g) in [
            gradient_with::<2>(bind(scaled_sine {}, (Var(0),)), &[x]),
            gradient_with::<8>(bind(scaled_sine {}, (Var(0),)), &[x]),
        ] {
            assert_eq!(v.to_bits(), y.to_bits());
            rel(g[0], want, 8.0 * f64::EPSILON, &format!("batch at {x}"));
        }
        let (v, g) = gradient(bind(scaled_sine {}, (Var(0),)), &[x]);
        assert_eq!(v.to_bits(), y.to_bits());
        rel(g[0], want, 8.0 * f64::EPSILON, &format!("gradient at {x}"));
        let (_, d1, _) = second_derivative(scaled_sine {}, x);
        rel(
            d1,
            want,
            8.0 * f64::EPSILON,
            &format!("second order at {x}"),
        );
    }
}
