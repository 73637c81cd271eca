//! `rules/nondiff.rs`: the piecewise rules against central finite differences away from
//! their kinks (f32, f64, batched, every activity pattern), and their conventions *at* the
//! kinks against values written out here, independently of the rules (see the module docs
//! of `rules/nondiff.rs`): `abs'(0) = 0`; `max`/`min` ties give the mean of the tangents;
//! `clamp` at a bound likewise; `floor ceil round trunc signum` have zero tangent; `fract`
//! has tangent `dx`.

#[macro_use]
mod common;

use fwdad_runtime::{ops, Batch, Dual};

// Away from the kinks (the random points miss integers and zero, and finite differences
// pass at the steps that do not cross one).
unary_rules! {
    floor: x in (-5.0, 5.0) => x.floor(), ops::floor(x);
    ceil: x in (-5.0, 5.0) => x.ceil(), ops::ceil(x);
    round: x in (-5.0, 5.0) => x.round(), ops::round(x);
    trunc: x in (-5.0, 5.0) => x.trunc(), ops::trunc(x);
    signum: x in (-5.0, 5.0) => x.signum(), ops::signum(x);
    fract: x in (-5.0, 5.0) => x.fract(), ops::fract(x);
    abs: x in (-5.0, 5.0) => x.abs(), ops::abs(x);
    round_ties_even: x in (-5.0, 5.0) => x.round_ties_even(), ops::round_ties_even(x);
}

binary_rules! {
    max: (a, b) in ((-3.0, 3.0), (-3.0, 3.0)) => a.max(b),
        all [ops::max(a, b)], lhs [a.max(b)];
    min: (a, b) in ((-3.0, 3.0), (-3.0, 3.0)) => a.min(b),
        all [ops::min(a, b)], lhs [a.min(b)];
    copysign_to_negative: (a, b) in ((0.3, 3.0), (-3.0, -0.3)) => a.copysign(b),
        all [ops::copysign(a, b)], lhs [a.copysign(b)];
    copysign_to_positive: (a, b) in ((-3.0, -0.3), (0.3, 3.0)) => a.copysign(b),
        all [ops::copysign(a, b)], lhs [a.copysign(b)];
    copysign_same_sign: (a, b) in ((-3.0, -0.3), (-3.0, -0.3)) => a.copysign(b),
        all [ops::copysign(a, b)], lhs [a.copysign(b)];
    abs_sub_positive: (a, b) in ((1.0, 3.0), (-3.0, 0.5)) => { #[allow(deprecated)] let y = a.abs_sub(b); y },
        all [ops::abs_sub(a, b)], lhs [a.abs_sub(b)];
    abs_sub_clipped: (a, b) in ((-3.0, 0.5), (1.0, 3.0)) => { #[allow(deprecated)] let y = a.abs_sub(b); y },
        all [ops::abs_sub(a, b)], lhs [a.abs_sub(b)];
    midpoint: (a, b) in ((-3.0, 3.0), (-3.0, 3.0)) => 0.5 * (a + b),
        all [ops::midpoint(a, b)], lhs [a.midpoint(b)];
}

ternary_rules! {
    clamp_inside: (x, lo, hi) in ((-0.9, 0.9), (-2.0, -1.0), (1.0, 2.0)) => x.clamp(lo, hi),
        all [ops::clamp(x, lo, hi)], lhs [x.clamp(lo, hi)];
    clamp_below: (x, lo, hi) in ((-4.0, -2.1), (-2.0, -1.0), (1.0, 2.0)) => x.clamp(lo, hi),
        all [ops::clamp(x, lo, hi)], lhs [x.clamp(lo, hi)];
    clamp_above: (x, lo, hi) in ((2.1, 4.0), (-2.0, -1.0), (1.0, 2.0)) => x.clamp(lo, hi),
        all [ops::clamp(x, lo, hi)], lhs [x.clamp(lo, hi)];
}

/// Locally constant functions have a zero tangent everywhere, integers included.
#[test]
fn rounding_and_sign_have_zero_tangent() {
    for x in [-2.5, -2.0, -0.0, 0.0, 0.5, 3.0, 1e300] {
        let d = Dual::new(x, Batch([1.0_f64, -7.0, f64::MAX]));
        for (name, y, p) in [
            ("floor", ops::floor(d), x.floor()),
            ("ceil", ops::ceil(d), x.ceil()),
            ("round", ops::round(d), x.round()),
            ("trunc", ops::trunc(d), x.trunc()),
            ("signum", ops::signum(d), x.signum()),
        ] {
            assert_eq!(y.primal.to_bits(), p.to_bits(), "{name}({x})");
            assert_eq!(y.tangent, Batch([0.0; 3]), "{name}({x})");
        }
    }
}

/// `round_ties_even` is `std`'s bit for bit (ties, signed zeros, huge values), tangent zero.
#[test]
fn round_ties_even_has_zero_tangent() {
    for x in [
        -2.5,
        -1.5,
        -0.5,
        -0.4,
        -0.0,
        0.0,
        0.5,
        1.5,
        2.5,
        3.7,
        4503599627370495.5,
        1e300,
    ] {
        let y = ops::round_ties_even(Dual::new(x, Batch([1.0_f64, -7.0])));
        assert_eq!(y.primal.to_bits(), x.round_ties_even().to_bits(), "{x}");
        assert_eq!(y.tangent, Batch([0.0; 2]), "{x}");
        let y = ops::round_ties_even(Dual::new(x as f32, 1.0_f32));
        assert_eq!(
            y.primal.to_bits(),
            (x as f32).round_ties_even().to_bits(),
            "{x}"
        );
    }
}

/// `midpoint`'s primal is `std`'s bit for bit where the plain sum would overflow or halving
/// would lose bits (the rule carries its own copy: `std`'s is newer than this crate's
/// minimum Rust); tangent `(da + db)/2`.
#[test]
#[allow(clippy::incompatible_msrv)] // the comparison is with `std`'s own, on the test toolchain
fn midpoint_is_std_bit_for_bit() {
    let tiny = f64::MIN_POSITIVE;
    let xs = [
        0.0,
        -0.0,
        1.0,
        -3.5,
        1e308,
        -1e308,
        f64::MAX,
        f64::MIN,
        tiny,
        -tiny,
        5e-324,
        -5e-324,
        1e-310,
        0.1,
        7.25e307,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    for &a in &xs {
        for &b in &xs {
            let y = ops::midpoint(Dual::new(a, 2.0_f64), Dual::new(b, 6.0_f64));
            let want = a.midpoint(b);
            assert!(
                y.primal.to_bits() == want.to_bits() || (y.primal.is_nan() && want.is_nan()),
                "midpoint({a:e}, {b:e}) = {:e}, std {want:e}",
                y.primal
            );
            assert_eq!(y.tangent, 4.0);
            let (a32, b32) = (a as f32, b as f32);
            let y = ops::midpoint(Dual::new(a32, 2.0_f32), b32);
            let want = a32.midpoint(b32);
            assert!(y.primal.to_bits() == want.to_bits() || (y.primal.is_nan() && want.is_nan()));
            assert_eq!(y.tangent, 1.0);
        }
    }
}

/// `abs_sub(a, b) = max(a - b, 0)`: on a tie half of `da - db`, as `max` splits a tie; the
/// primal is `std`'s (`+0`, NaN for NaN).
#[test]
#[allow(deprecated)]
fn abs_sub_splits_a_tie() {
    let y = ops::abs_sub(Dual::new(2.0_f64, 3.0), Dual::new(2.0, 1.0));
    assert_eq!((y.primal.to_bits(), y.tangent), (0.0_f64.to_bits(), 1.0));
    let y = ops::abs_sub(Dual::new(-1.0_f64, 3.0), 2.0);
    assert_eq!(
        (y.primal.to_bits(), y.tangent),
        ((-1.0_f64).abs_sub(2.0).to_bits(), 0.0)
    );
    let y = ops::abs_sub(Dual::new(f64::NAN, 3.0), 2.0);
    assert!(y.primal.is_nan());
}

/// `fract(x) = x - trunc(x)` has tangent `dx`, at integers too.
#[test]
fn fract_passes_the_tangent_through() {
    for x in [-2.5_f32, -2.0, 0.0, 0.25, 3.0] {
        let y = ops::fract(Dual::new(x, 4.0_f32));
        assert_eq!((y.primal, y.tangent), (x.fract(), 4.0), "fract({x})");
    }
}

#[test]
fn abs_is_zero_at_zero() {
    assert_eq!(ops::abs(Dual::new(0.0_f64, 5.0)).tangent, 0.0);
    let y = ops::abs(Dual::new(-0.0_f64, 5.0));
    assert_eq!((y.primal.to_bits(), y.tangent), (0.0_f64.to_bits(), 0.0));
    assert_eq!(
        ops::abs(Dual::new(0.0_f32, Batch([1.0, -1.0]))).tangent,
        Batch([0.0; 2])
    );
    assert_eq!(ops::abs(Dual::new(-2.0_f64, 5.0)).tangent, -5.0);
    assert_eq!(ops::abs(Dual::new(2.0_f64, 5.0)).tangent, 5.0);
}

#[test]
fn max_min_ties_take_the_mean() {
    let (a, b) = (Dual::new(1.0_f64, 3.0), Dual::new(1.0_f64, 5.0));
    assert_eq!(ops::max(a, b).tangent, 4.0);
    assert_eq!(ops::min(a, b).tangent, 4.0);
    // A tie with an inactive operand: the mean of `da` and 0.
    assert_eq!(ops::max(a, 1.0).tangent, 1.5);
    assert_eq!(ops::min(1.0, a).tangent, 1.5);
    // +0 and -0 tie.
    assert_eq!(
        ops::max(Dual::new(0.0, 2.0), Dual::new(-0.0, 4.0)).tangent,
        3.0
    );
    // Batched: lane by lane.
    let (a, b) = (
        Dual::new(1.0_f64, Batch([1.0, 2.0])),
        Dual::new(1.0_f64, Batch([3.0, 6.0])),
    );
    assert_eq!(ops::max(a, b).tangent, Batch([2.0, 4.0]));
    // No tie: the selected operand's tangent.
    assert_eq!(
        ops::max(Dual::new(2.0, 3.0), Dual::new(1.0, 5.0)).tangent,
        3.0
    );
    assert_eq!(
        ops::min(Dual::new(2.0, 3.0), Dual::new(1.0, 5.0)).tangent,
        5.0
    );
}

/// `f64::max` ignores a NaN operand; so does the tangent.
#[test]
fn max_min_ignore_nan() {
    let (nan, two) = (Dual::new(f64::NAN, 1.0), Dual::new(2.0, 5.0));
    for y in [
        ops::max(nan, two),
        ops::max(two, nan),
        ops::min(nan, two),
        ops::min(two, nan),
    ] {
        assert_eq!((y.primal, y.tangent), (2.0, 5.0));
    }
}

#[test]
fn clamp_at_and_beyond_the_bounds() {
    let (lo, hi) = (Dual::new(-1.0_f64, 4.0), Dual::new(1.0_f64, 8.0));
    let t = |x: f64, dx: f64| ops::clamp(Dual::new(x, dx), lo, hi).tangent;
    assert_eq!(t(0.0, 2.0), 2.0); // inside: dx
    assert_eq!(t(-3.0, 2.0), 4.0); // below: dlo
    assert_eq!(t(3.0, 2.0), 8.0); // above: dhi
    assert_eq!(t(-1.0, 2.0), 3.0); // at lo: (dx + dlo)/2
    assert_eq!(t(1.0, 2.0), 5.0); // at hi: (dx + dhi)/2
                                  // Constant bounds.
    assert_eq!(ops::clamp(Dual::new(1.0_f64, 2.0), -1.0, 1.0).tangent, 1.0);
    assert_eq!(ops::clamp(Dual::new(5.0_f64, 2.0), -1.0, 1.0).tangent, 0.0);
    // NaN passes through, as in `f64::clamp`.
    assert!(ops::clamp(Dual::new(f64::NAN, 2.0), -1.0, 1.0)
        .primal
        .is_nan());
}

#[test]
#[should_panic(expected = "clamp")]
fn clamp_rejects_inverted_bounds() {
    let _ = ops::clamp(Dual::new(0.0_f64, 1.0), 1.0, -1.0);
}

#[test]
fn copysign_at_signed_zeros() {
    let y = ops::copysign(Dual::new(2.0_f64, 1.0), -0.0);
    assert_eq!((y.primal, y.tangent), (-2.0, -1.0));
    let y = ops::copysign(Dual::new(-2.0_f64, 1.0), 0.0);
    assert_eq!((y.primal, y.tangent), (2.0, -1.0));
    // The sign operand's tangent never matters.
    let y = ops::copysign(Dual::new(2.0_f64, 1.0), Dual::new(-1.0, 100.0));
    assert_eq!(y.tangent, -1.0);
    let y = ops::copysign(2.0_f64, Dual::new(-1.0, 100.0));
    assert_eq!((y.primal, y.tangent), (-2.0, 0.0));
}
