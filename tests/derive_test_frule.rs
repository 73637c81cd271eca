//! Derived rules through `fwdad::testing::test_frule`: random tangents, primal state of
//! every argument (mutated ones included), bit-identical output, and central finite
//! differences, for one direction and for a batch of 4 directions.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};

/// Vector → vector, in place: y ← a·x + y, then y ← sin(y) ⊙ x.
#[derive_frule]
fn axpy_sin(a: f64, x: &[f64], y: &mut [f64]) {
    for i in 0..x.len() {
        y[i] += a * x[i];
    }
    for i in 0..x.len() {
        y[i] = y[i].sin() * x[i];
    }
}

/// Vector → scalar (Ackley, n-dimensional).
#[derive_frule]
fn ackley(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut s1 = 0.0;
    let mut s2 = 0.0;
    for i in 0..x.len() {
        s1 += x[i] * x[i];
        s2 += (2.0 * std::f64::consts::PI * x[i]).cos();
    }
    -20.0 * (-0.2 * (s1 / n).sqrt()).exp() - (s2 / n).exp() + 20.0 + std::f64::consts::E
}

/// Scalar → tuple.
#[derive_frule]
fn polar(r: f64, theta: f64) -> (f64, f64) {
    let (s, c) = theta.sin_cos();
    (r * c, r * s)
}

/// Matrix-style loops: y = A x for a row-major 3×3 A.
#[derive_frule]
fn matvec(a: &[f64], x: &[f64; 3]) -> [f64; 3] {
    let mut y = [0.0; 3];
    for i in 0..3 {
        let mut s = 0.0;
        for j in 0..3 {
            s += a[3 * i + j] * x[j];
        }
        y[i] = s;
    }
    y
}

type Args3 = (f64, Vec<f64>, Vec<f64>);

#[test]
fn axpy_sin_passes_test_frule() {
    let args: Args3 = (0.7, vec![0.5, -1.0, 2.0], vec![1.0, 0.25, -0.5]);
    test_frule(
        args.clone(),
        |a| axpy_sin(a.0, &a.1, &mut a.2),
        |a, da| {
            axpy_sin_frule(
                Dual::new(a.0, da.0),
                Dual::new(&a.1[..], &da.1[..]),
                Dual::new(&mut a.2[..], &mut da.2[..]),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| axpy_sin(a.0, &a.1, &mut a.2),
        |a, da| {
            <axpy_sin as Frule<_, Batch<f64, 4>>>::frule(
                &axpy_sin {},
                (
                    Dual::new(a.0, da.0),
                    Dual::new(&a.1[..], &da.1[..]),
                    Dual::new(&mut a.2[..], &mut da.2[..]),
                ),
            )
        },
    );
}

#[test]
fn ackley_passes_test_frule() {
    let args = (vec![0.3, -0.7, 1.2, 0.05],);
    test_frule(
        args.clone(),
        |a| ackley(&a.0),
        |a, da| ackley_frule(Dual::new(&a.0[..], &da.0[..])),
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| ackley(&a.0),
        |a, da| {
            <ackley as Frule<_, Batch<f64, 4>>>::frule(
                &ackley {},
                (Dual::new(&a.0[..], &da.0[..]),),
            )
        },
    );
}

#[test]
fn polar_and_matvec_pass_test_frule() {
    test_frule(
        (1.5, 0.4),
        |a| polar(a.0, a.1),
        |a, da| polar_frule(Dual::new(a.0, da.0), Dual::new(a.1, da.1)),
    );
    let args = (
        vec![1.0, 2.0, -1.0, 0.5, 0.0, 3.0, -2.0, 1.5, 0.25],
        [0.3, -0.6, 0.9],
    );
    test_frule(
        args.clone(),
        |a| matvec(&a.0, &a.1),
        |a, da| matvec_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(&a.1, &da.1)),
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| matvec(&a.0, &a.1),
        |a, da| {
            <matvec as Frule<_, Batch<f64, 4>>>::frule(
                &matvec {},
                (Dual::new(&a.0[..], &da.0[..]), Dual::new(&a.1, &da.1)),
            )
        },
    );
}

/// A deliberately wrong rule fails `check_frule` (so the tests above can fail).
#[test]
fn a_wrong_rule_is_caught() {
    let res = fwdad::testing::check_frule(
        &fwdad::testing::TestConfig::for_types::<(f64,), f64>(),
        (0.4,),
        |a| ackley(&[a.0]),
        |a, da| {
            let mut d = ackley_frule(Dual::new(&[a.0][..], &[da.0][..]));
            d.tangent *= 1.01;
            d
        },
    );
    assert!(
        res.is_err(),
        "a 1% wrong tangent must fail the finite-difference check"
    );
}

/// The rule's primal is bit-identical to the function's, NaN and infinities included.
#[derive_frule]
fn special_values(x: f64, y: f64) -> f64 {
    let a = x / y + (x * y).ln();
    let b = if a > 0.0 { a.sqrt() } else { -a };
    b.max(x) * y.exp() - (x - y).atan2(y)
}

#[test]
fn primal_is_bit_identical_on_special_values() {
    let vals = [
        0.0,
        -0.0,
        1.0,
        -2.5,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        1e308,
        -1e-310,
    ];
    for &x in &vals {
        for &y in &vals {
            let d = special_values_frule(Dual::new(x, 1.0), Dual::new(y, -0.5));
            let p = special_values(x, y);
            assert_eq!(
                d.primal.to_bits(),
                p.to_bits(),
                "x = {x:?}, y = {y:?}: {} vs {p}",
                d.primal
            );
        }
    }
}
