//! `rules/compare.rs`: comparisons read primals only (whatever the tangents, and in every
//! activity pattern), and agree with the plain operators, NaN and signed zeros included.

#[macro_use]
mod common;

use fwdad_runtime::{ops, Batch, Dual, NoTangent};

// A comparison is a function with a `bool` result (tangent `NoTangent`): `test_frule`
// checks that the result equals the plain comparison for random operands.
binary_rules! {
    lt: (a, b) in ((-1.0, 1.0), (-1.0, 1.0)) => a < b, all [Dual::new(ops::lt(a, b), NoTangent)];
    le: (a, b) in ((-1.0, 1.0), (-1.0, 1.0)) => a <= b, all [Dual::new(ops::le(a, b), NoTangent)];
    gt: (a, b) in ((-1.0, 1.0), (-1.0, 1.0)) => a > b, all [Dual::new(ops::gt(a, b), NoTangent)];
    ge: (a, b) in ((-1.0, 1.0), (-1.0, 1.0)) => a >= b, all [Dual::new(ops::ge(a, b), NoTangent)];
    eq: (a, b) in ((-1.0, 1.0), (-1.0, 1.0)) => a == b, all [Dual::new(ops::eq(a, b), NoTangent)];
    ne: (a, b) in ((-1.0, 1.0), (-1.0, 1.0)) => a != b, all [Dual::new(ops::ne(a, b), NoTangent)];
}

/// Ties, signed zeros and NaN, where a comparison's result is easy to get wrong; and
/// tangents that would order the operands differently if they were read.
#[test]
fn special_values_and_tangents_ignored() {
    let cases = [
        (1.0, 1.0),
        (0.0, -0.0),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
        (f64::NAN, f64::NAN),
        (f64::NEG_INFINITY, f64::INFINITY),
        (2.0, 1.0),
    ];
    for (a, b) in cases {
        let da = Dual::new(a, Batch([1e300, -1.0]));
        let db = Dual::new(b, Batch([-1e300, 1.0]));
        let expected = [a < b, a <= b, a > b, a >= b, a == b, a != b];
        let got = [
            ops::lt(da, db),
            ops::le(da, db),
            ops::gt(da, db),
            ops::ge(da, db),
            ops::eq(da, db),
            ops::ne(da, db),
        ];
        assert_eq!(got, expected, "({a}, {b}), both active");
        let got = [
            ops::lt(da, b),
            ops::le(da, b),
            ops::gt(da, b),
            ops::ge(da, b),
            ops::eq(da, b),
            ops::ne(da, b),
        ];
        assert_eq!(got, expected, "({a}, {b}), b inactive");
        let got = [
            ops::lt(a, db),
            ops::le(a, db),
            ops::gt(a, db),
            ops::ge(a, db),
            ops::eq(a, db),
            ops::ne(a, db),
        ];
        assert_eq!(got, expected, "({a}, {b}), a inactive");
    }
}
