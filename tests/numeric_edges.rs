//! Accuracy of the scalar rules where a textbook formula for the derivative loses digits:
//! cancellation (`tanh' = 1 - tanh²x` for large x), intermediates that overflow or underflow
//! while the derivative is representable (`atan''` at 1e80), and partials that overflow and
//! put NaN into directions that do not move the input (`ln` in second order).
//!
//! Every expected value is written from the mathematics: a closed form, or a value computed
//! with mpmath at 300 bits (said so where it is used), never a value printed by the code
//! under test. Checked in one direction, in batches (`gradient_with`), and in second order
//! (`second_derivative`, `hessian_with`, `hvp_with`, `Hyper`), through derived functions
//! and through the runtime's rules directly.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]
// mpmath values are pasted with 17 significant digits, as printed.
#![allow(clippy::excessive_precision)]

use fwdad::drivers::{gradient_with, hessian_with, second_derivative};
use fwdad::prelude::*;
use fwdad::Hyper;

/// `|got - want| / |want| ≤ tol`, with `got == want` always passing (zeros, infinities).
#[track_caller]
fn close(what: &str, got: f64, want: f64, tol: f64) {
    let r = if got == want {
        0.0
    } else {
        ((got - want) / want).abs()
    };
    assert!(
        r <= tol,
        "{what}: got {got:e}, want {want:e} (relative error {r:e})"
    );
}

/// The `f32` counterpart of [`close`].
#[track_caller]
fn close32(what: &str, got: f32, want: f32, tol: f32) {
    let r = if got == want {
        0.0
    } else {
        ((got - want) / want).abs()
    };
    assert!(
        r <= tol,
        "{what}: got {got:e}, want {want:e} (relative error {r:e})"
    );
}

/// A second-order seed: `d1 = d2 = 1`, so the output's `d12` is `f''`.
fn hyper<F: fwdad::Real>(x: F) -> Dual<F, Hyper<F, F>> {
    Dual::new(
        x,
        Hyper {
            d1: F::one(),
            d2: F::one(),
            d12: F::zero(),
        },
    )
}

// ---------------------------------------------------------------------------------------
// tanh: `1 - y²` cancels once `y²` rounds near 1
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn tanh_of(x: f64) -> f64 {
    x.tanh()
}

#[derive_frule]
fn sum_tanh(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i].tanh();
    }
    s
}

/// `(x, sech²x, -2 tanh x sech²x)`: mpmath, 300 bits.
const TANH: [(f64, f64, f64); 8] = [
    (0.25, 0.94001484880637796, -0.46045435881856592),
    (0.75, 0.59658580828133143, -0.75784170227802139),
    (3.0, 0.0098660371654401913, -0.019634494363042436),
    (10.0, 8.2446144557673974e-9, -1.6489228843561127e-8),
    (19.0, 1.2556531168192118e-16, -2.5113062336384234e-16),
    (20.0, 1.6993417021166356e-17, -3.3986834042332711e-17),
    (-20.0, 1.6993417021166356e-17, 3.3986834042332711e-17),
    (300.0, 1.0601586212017243e-260, -2.1203172424034487e-260),
];

#[test]
fn tanh_derivatives_keep_their_digits_for_large_x() {
    for (x, d1, d2) in TANH {
        let (_, d) = derivative(tanh_of {}, x);
        close(&format!("tanh'({x})"), d, d1, 1e-15);
        let (_, d, dd) = second_derivative(tanh_of {}, x);
        close(&format!("tanh'({x}) (second order)"), d, d1, 1e-15);
        close(&format!("tanh''({x})"), dd, d2, 1e-15);
        let t = fwdad::ops::tanh(hyper(x)).tangent;
        close(&format!("tanh'' ({x}, Hyper)"), t.d12, d2, 1e-15);
    }
}

#[test]
fn tanh_derivatives_in_batches() {
    let x: Vec<f64> = TANH.iter().map(|t| t.0).collect();
    let (_, g) = gradient_with::<4>(sum_tanh {}, &x);
    let (_, g2, h) = hessian_with::<2>(sum_tanh {}, &x);
    for (i, (_, d1, d2)) in TANH.into_iter().enumerate() {
        close(&format!("∂{i}"), g[i], d1, 1e-15);
        close(&format!("∂{i} (hessian)"), g2[i], d1, 1e-15);
        close(&format!("H{i}{i}"), h[(i, i)], d2, 1e-15);
        for j in 0..x.len() {
            if j != i {
                close(&format!("H{i}{j}"), h[(i, j)], 0.0, 0.0);
            }
        }
    }
}

#[test]
fn tanh_derivatives_f32() {
    // mpmath, 300 bits: sech²x and -2 tanh x sech²x at 5, 9, 10 (tanh rounds to 1 in f32
    // from about 9), rounded to f32.
    for (x, d1, d2) in [
        (5.0f32, 1.8158323094380668e-4, -3.6313348792090557e-4),
        (9.0, 6.0919917123232292e-8, -1.2183983053522823e-7),
        (10.0, 8.2446144557673974e-9, -1.6489228843561127e-8),
    ] {
        let (d1, d2) = (d1 as f32, d2 as f32);
        let d = Dual::new(x, 1.0f32).tanh().tangent;
        close32(&format!("f32 tanh'({x})"), d, d1, 1e-6);
        let t = hyper(x).tanh().tangent;
        close32(&format!("f32 tanh'({x}) (Hyper)"), t.d1, d1, 1e-6);
        close32(&format!("f32 tanh''({x})"), t.d12, d2, 1e-6);
    }
}

// ---------------------------------------------------------------------------------------
// atan: `1/(1+x²)` overflows `x²` (f' flushed to 0) and is squared in second order
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn atan_of(x: f64) -> f64 {
    x.atan()
}

#[derive_frule]
fn atan_plus_square(x: &[f64]) -> f64 {
    x[0].atan() + x[1] * x[1]
}

/// `(x, 1/(1+x²), -2x/(1+x²)²)`: mpmath, 400 bits, at the exact doubles.
const ATAN: [(f64, f64, f64); 7] = [
    (0.5, 0.8, -0.64),
    (2.0, 0.2, -0.16),
    (-3.0, 0.1, 0.06),
    (1e10, 1.0e-20, -2.0e-30),
    (1e80, 1.0e-160, -2.0e-240),
    (1e100, 9.9999999999999997e-201, -1.9999999999999999e-300),
    // f'' = 2.0e-360 underflows to 0.
    (-1e120, 1.0e-240, 0.0),
];

#[test]
fn atan_derivatives_at_large_x() {
    for (x, d1, d2) in ATAN {
        let (_, d) = derivative(atan_of {}, x);
        close(&format!("atan'({x:e})"), d, d1, 1e-15);
        let (_, d, dd) = second_derivative(atan_of {}, x);
        close(&format!("atan'({x:e}) (second order)"), d, d1, 1e-15);
        close(&format!("atan''({x:e})"), dd, d2, 1e-15);
        let t = fwdad::ops::atan(hyper(x)).tangent;
        close(&format!("atan''({x:e}) (Hyper)"), t.d12, d2, 1e-15);
    }
}

#[test]
fn atan_subnormal_first_derivative_is_not_flushed() {
    // mpmath, 400 bits: 1/(1+x²) at 2e154 = 2.4999999999999998e-309, at 1e160 =
    // 9.9999999999999999e-321, at 4e161 = 6.25e-324 (rounds to the least subnormal, 5e-324).
    // Subnormals: within one step of the spacing 2^-1074.
    let step = f64::from_bits(1);
    for (x, want) in [
        (2e154, 2.4999999999999998e-309),
        (1e160, 9.9999999999999999e-321),
        (-1e160, 9.9999999999999999e-321),
        (4e161, step),
    ] {
        for d in [
            derivative(atan_of {}, x).1,
            gradient_with::<2>(atan_plus_square {}, &[x, 1.0]).1[0],
            second_derivative(atan_of {}, x).1,
        ] {
            assert!(
                d > 0.0 && (d - want).abs() <= step,
                "atan'({x:e}): got {d:e}, want {want:e}"
            );
        }
    }
}

#[test]
fn atan_hessian_at_the_top_of_the_range() {
    // At x0 = 1.7e308, atan'' = -2x/(1+x²)² = -4.1e-925 (mpmath) rounds to -0; the other
    // entries of the Hessian of atan(x0) + x1² are 0 and 2 (was NaN from 0·∞).
    let (_, g, h) = hessian_with::<2>(atan_plus_square {}, &[1.7e308, 3.0]);
    close("∂1", g[1], 6.0, 0.0);
    close("H00", h[(0, 0)], 0.0, 0.0);
    close("H01", h[(0, 1)], 0.0, 0.0);
    close("H11", h[(1, 1)], 2.0, 0.0);
    // And at 1e100: H00 = -2e-300 (mpmath: -1.9999999999999999e-300).
    let (_, _, h) = hessian_with::<2>(atan_plus_square {}, &[1e100, 3.0]);
    close("H00 at 1e100", h[(0, 0)], -1.9999999999999999e-300, 1e-15);
    close("H11 at 1e100", h[(1, 1)], 2.0, 0.0);
}

// ---------------------------------------------------------------------------------------
// asin, acos, atanh: the tangent of `(1-x)(1+x)` cancels for small x (second order)
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn asin_of(x: f64) -> f64 {
    x.asin()
}

#[derive_frule]
fn acos_of(x: f64) -> f64 {
    x.acos()
}

#[derive_frule]
fn atanh_of(x: f64) -> f64 {
    x.atanh()
}

#[derive_frule]
fn inverse_sum(x: &[f64]) -> f64 {
    x[0].asin() + x[1].acos() + x[2].atanh()
}

/// `(x, 1/√(1-x²), x/(1-x²)^{3/2}, 1/(1-x²), 2x/(1-x²)²)`: mpmath, 400 bits, at the exact
/// doubles (asin' and asin''; acos' and acos'' are their negatives; atanh' and atanh'').
const INVERSE: [(f64, f64, f64, f64, f64); 6] = [
    (1e-10, 1.0, 1.0e-10, 1.0, 2.0000000000000001e-10),
    (
        -1e-20,
        1.0,
        -9.9999999999999995e-21,
        1.0,
        -1.9999999999999999e-20,
    ),
    (1e-300, 1.0, 1.0e-300, 1.0, 2.0000000000000001e-300),
    (
        0.3,
        1.0482848367219183,
        0.3455884077105225,
        1.0989010989010989,
        0.72455017509962561,
    ),
    (
        -0.7,
        1.4002800840280097,
        -1.9219530565090326,
        1.96078431372549,
        -5.3825451749327165,
    ),
    (
        0.999,
        22.366272042129212,
        11177.541655871467,
        500.25012506253082,
        499999.8748749053,
    ),
];

#[test]
fn asin_acos_atanh_second_derivatives_at_small_x() {
    for (x, s1, s2, t1, t2) in INVERSE {
        let (_, d, dd) = second_derivative(asin_of {}, x);
        close(&format!("asin'({x:e})"), d, s1, 1e-15);
        close(&format!("asin''({x:e})"), dd, s2, 1e-15);
        let (_, d, dd) = second_derivative(acos_of {}, x);
        close(&format!("acos'({x:e})"), d, -s1, 1e-15);
        close(&format!("acos''({x:e})"), dd, -s2, 1e-15);
        let (_, d, dd) = second_derivative(atanh_of {}, x);
        close(&format!("atanh'({x:e})"), d, t1, 1e-15);
        close(&format!("atanh''({x:e})"), dd, t2, 1e-15);
        close(
            &format!("asin'' ({x:e}, Hyper)"),
            fwdad::ops::asin(hyper(x)).tangent.d12,
            s2,
            1e-15,
        );
        close(
            &format!("asin'({x:e}) (one direction)"),
            derivative(asin_of {}, x).1,
            s1,
            1e-15,
        );
    }
    // The Hessian of asin(x0) + acos(x1) + atanh(x2): diagonal, from the table's first three.
    let x = [INVERSE[0].0, INVERSE[1].0, INVERSE[2].0];
    let (_, g, h) = hessian_with::<2>(inverse_sum {}, &x);
    let (_, g4) = gradient_with::<4>(inverse_sum {}, &x);
    let want_g = [INVERSE[0].1, -INVERSE[1].1, INVERSE[2].3];
    let want_h = [INVERSE[0].2, -INVERSE[1].2, INVERSE[2].4];
    for i in 0..3 {
        close(&format!("∂{i}"), g[i], want_g[i], 1e-15);
        close(&format!("∂{i} (batch)"), g4[i], want_g[i], 1e-15);
        for j in 0..3 {
            let want = if i == j { want_h[i] } else { 0.0 };
            close(&format!("H{i}{j}"), h[(i, j)], want, 1e-15);
        }
    }
}

#[test]
fn asin_acos_atanh_second_derivatives_f32() {
    // mpmath, 400 bits, at the f32 inputs 0.001 (= 0.0010000000474974513) and 1e-10
    // (= 1.000000013351432e-10): x/(1-x²)^{3/2} and 2x/(1-x²)².
    for (x, s2, t2) in [
        (0.001f32, 0.00100000154749954, 0.0020000040950014726),
        (1e-10, 1.000000013351432e-10, 2.0000000267028639e-10),
    ] {
        let (s2, t2) = (s2 as f32, t2 as f32);
        close32(
            &format!("f32 asin''({x:e})"),
            hyper(x).asin().tangent.d12,
            s2,
            1e-6,
        );
        close32(
            &format!("f32 acos''({x:e})"),
            hyper(x).acos().tangent.d12,
            -s2,
            1e-6,
        );
        close32(
            &format!("f32 atanh''({x:e})"),
            hyper(x).atanh().tangent.d12,
            t2,
            1e-6,
        );
    }
}

// ---------------------------------------------------------------------------------------
// log10, log2: `1/(x·ln 10)` overflows `x·ln 10` where the derivative is subnormal
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn log10_of(x: f64) -> f64 {
    x.log10()
}

#[derive_frule]
fn log10_plus_log2(x: &[f64]) -> f64 {
    x[0].log10() + x[1].log2()
}

#[test]
fn log10_and_log2_first_derivatives_at_the_ends_of_the_range() {
    // (x, 1/(x ln 10), 1/(x ln 2)): mpmath, 400 bits. Subnormal results (the top of the
    // range) within one step of 2^-1074, the rest within 1e-15.
    let step = f64::from_bits(1);
    for (x, d10, d2) in [
        (0.3, 1.4476482730108395, 4.8089834696298782),
        (2.0, 0.21714724095162591, 0.7213475204444817),
        (1e300, 4.342944819032518e-301, 1.4426950408889633e-300),
        (1e308, 4.3429448190325182e-309, 1.4426950408889634e-308),
        (f64::MAX, 2.4158432464421365e-309, 8.0252575532000271e-309),
        (1e-300, 4.3429448190325182e+299, 1.4426950408889634e+300),
    ] {
        let ok = |got: f64, want: f64| {
            if want.abs() < f64::MIN_POSITIVE {
                (got - want).abs() <= step
            } else {
                ((got - want) / want).abs() <= 1e-15
            }
        };
        let d = derivative(log10_of {}, x).1;
        assert!(ok(d, d10), "log10'({x:e}): got {d:e}, want {d10:e}");
        let (_, g) = gradient_with::<2>(log10_plus_log2 {}, &[x, x]);
        assert!(
            ok(g[0], d10),
            "log10'({x:e}) (batch): got {:e}, want {d10:e}",
            g[0]
        );
        assert!(
            ok(g[1], d2),
            "log2'({x:e}) (batch): got {:e}, want {d2:e}",
            g[1]
        );
        let t = fwdad::ops::log2(hyper(x)).tangent.d1;
        assert!(ok(t, d2), "log2'({x:e}) (Hyper): got {t:e}, want {d2:e}");
    }
    // Second derivatives -1/(x² ln 10) and -1/(x² ln 2) (mpmath), where representable.
    for (x, dd10, dd2) in [
        (0.3, -4.8254942433694651, -16.029944898766261),
        (2.0, -0.10857362047581296, -0.36067376022224085),
    ] {
        close("log10''", second_derivative(log10_of {}, x).2, dd10, 1e-15);
        close("log2''", fwdad::ops::log2(hyper(x)).tangent.d12, dd2, 1e-15);
    }
}

// ---------------------------------------------------------------------------------------
// Logarithms: a partial that overflows while the value is finite takes nothing from the
// directions that do not move its input (strong zeros: the rules are `unbounded`)
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn ln_plus_square(x: &[f64]) -> f64 {
    x[0].ln() + x[1] * x[1]
}

#[derive_frule]
fn logs_plus(x: &[f64]) -> f64 {
    x[0].ln() + x[1].log2() + x[2].log10() + x[3].log(10.0) + x[4]
}

#[test]
fn ln_second_partial_overflow_stays_in_its_entry() {
    // ln x0 + x1² at (1e-200, 3): ∇ = (1e200, 6), ∇² = [[-1e400 (overflows: -∞), 0], [0, 2]].
    let x = [1e-200, 3.0];
    let (_, g, h) = hessian_with::<2>(ln_plus_square {}, &x);
    close("∂0", g[0], 1e200, 1e-15);
    close("∂1", g[1], 6.0, 0.0);
    close("H00", h[(0, 0)], f64::NEG_INFINITY, 0.0);
    close("H01", h[(0, 1)], 0.0, 0.0);
    close("H10", h[(1, 0)], 0.0, 0.0);
    close("H11", h[(1, 1)], 2.0, 0.0);
    // H·e₁ = (0, 2), in either order of the two directions.
    let (_, _, hv) = fwdad::drivers::hvp_with::<2>(ln_plus_square {}, &x, &[0.0, 1.0]);
    close("(H e1)_0", hv[0], 0.0, 0.0);
    close("(H e1)_1", hv[1], 2.0, 0.0);
}

/// A chain through the logarithms (batches linearise it: the coefficient of each root is
/// the product of the partials on the way).
#[derive_frule]
fn logs_chain(x: &[f64]) -> f64 {
    let s = x[0].ln() * 2.0 + x[1].log2() * 2.0 + x[2].log10() * 2.0 + x[3].log(10.0) * 2.0;
    (s + x[4]) * x[4]
}

#[test]
fn logarithm_first_partials_overflowing_at_subnormal_x() {
    // At x = 1e-310 the logarithms are finite (about -714) but 1/(x ln b) overflows (-∞
    // is fine there); ∂/∂x4 = 1 must not become ∞·0 = NaN.
    let x = [1e-310, 1e-310, 1e-310, 1e-310, 5.0];
    for (what, g) in [
        ("one direction", gradient_with::<1>(logs_plus {}, &x).1),
        ("batch of 2", gradient_with::<2>(logs_plus {}, &x).1),
        ("batch of 8", gradient_with::<8>(logs_plus {}, &x).1),
        ("hessian", hessian_with::<2>(logs_plus {}, &x).1),
    ] {
        for i in 0..4 {
            close(&format!("∂{i} ({what})"), g[i], f64::INFINITY, 0.0);
        }
        close(&format!("∂4 ({what})"), g[4], 1.0, 0.0);
    }
    // ∂/∂x4 of (s + x4)·x4 = s + 2·x4 with s = 2·ln(1e-310)·(1 + 1/ln 2 + 2/ln 10):
    // -4717.198176486473 (mpmath, 400 bits).
    for (what, g) in [
        ("one direction", gradient_with::<1>(logs_chain {}, &x).1),
        ("batch of 2", gradient_with::<2>(logs_chain {}, &x).1),
        ("batch of 8", gradient_with::<8>(logs_chain {}, &x).1),
    ] {
        for i in 0..4 {
            close(&format!("chain ∂{i} ({what})"), g[i], f64::INFINITY, 0.0);
        }
        close(
            &format!("chain ∂4 ({what})"),
            g[4],
            -4717.198176486473,
            1e-15,
        );
    }
}

// ---------------------------------------------------------------------------------------
// log(a, b): `1/(a·ln b)` squares `a·ln b` in second order
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn log_base(x: &[f64]) -> f64 {
    x[0].log(x[1]) + x[2] * x[2]
}

#[derive_frule]
fn log_base_10(x: f64) -> f64 {
    x.log(10.0)
}

/// `((a, b), [∂a, ∂b, ∂aa, ∂ab, ∂bb])` of `ln a / ln b`: mpmath, 400 bits (`-1.44e600`
/// overflows: `-∞`).
const LOG_BASE: [((f64, f64), [f64; 5]); 4] = [
    (
        (1e-300, 2.0),
        [
            1.4426950408889634e+300,
            718.87937830255793,
            f64::NEG_INFINITY,
            -1.0406844905028039e+300,
            -1396.5634032257204,
        ],
    ),
    (
        (1e-300, 1e300),
        [
            1.4476482730108394e+297,
            1.4476482730108393e-303,
            f64::NEG_INFINITY,
            -2.0956855223512657e-6,
            -1.4518396440555418e-603,
        ],
    ),
    (
        (0.3, 0.1),
        [
            -1.4476482730108395,
            2.2708335377974659,
            4.8254942433694652,
            -6.2870565670537978,
            -2.9841258822490808,
        ],
    ),
    (
        (5.0, 3.0),
        [
            0.18204784532536748,
            -0.44449212150902706,
            -0.036409569065073496,
            -0.05523569664601487,
            0.4178934837857417,
        ],
    ),
];

#[test]
fn log_base_second_derivatives() {
    for ((a, b), [da, db, haa, hab, hbb]) in LOG_BASE {
        let at = format!("({a:e}, {b:e})");
        let x = [a, b, 3.0];
        let (_, g, h) = hessian_with::<2>(log_base {}, &x);
        close(&format!("∂a {at}"), g[0], da, 1e-15);
        close(&format!("∂b {at}"), g[1], db, 1e-15);
        close(&format!("H_aa {at}"), h[(0, 0)], haa, 1e-15);
        close(&format!("H_ab {at}"), h[(0, 1)], hab, 1e-15);
        // H_bb = ln a (ln b + 2)/(b² ln³ b) is ill-conditioned near b = e⁻² (0.1 is near).
        close(&format!("H_bb {at}"), h[(1, 1)], hbb, 2e-15);
        close(&format!("H_a2 {at}"), h[(0, 2)], 0.0, 0.0);
        close(&format!("H_b2 {at}"), h[(1, 2)], 0.0, 0.0);
        close(&format!("H_22 {at}"), h[(2, 2)], 2.0, 0.0);
        // Both orders of the two directions: H·e_a = (H_aa, H_ba), H·e_b = (H_ab, H_bb).
        let (_, _, hv) = fwdad::drivers::hvp_with::<2>(log_base {}, &x, &[1.0, 0.0, 0.0]);
        close(&format!("(H e_a)_a {at}"), hv[0], haa, 1e-15);
        close(&format!("(H e_a)_b {at}"), hv[1], hab, 1e-15);
        let (_, _, hv) = fwdad::drivers::hvp_with::<2>(log_base {}, &x, &[0.0, 1.0, 0.0]);
        close(&format!("(H e_b)_a {at}"), hv[0], hab, 1e-15);
        close(&format!("(H e_b)_b {at}"), hv[1], hbb, 2e-15);
        close(&format!("(H e_b)_2 {at}"), hv[2], 0.0, 0.0);
        // One Hyper pass per order: d1 = e_b, d2 = e_a and the reverse.
        let seed = |d1: f64, d2: f64| Hyper { d1, d2, d12: 0.0 };
        let ba = Dual::new(a, seed(0.0, 1.0)).log(Dual::new(b, seed(1.0, 0.0)));
        let ab = Dual::new(a, seed(1.0, 0.0)).log(Dual::new(b, seed(0.0, 1.0)));
        close(&format!("Hyper H_ba {at}"), ba.tangent.d12, hab, 1e-15);
        close(&format!("Hyper H_ab {at}"), ab.tangent.d12, hab, 1e-15);
    }
}

#[test]
fn log_constant_base_at_the_top_of_the_range() {
    // d/da log₁₀ a = 1/(a ln 10) at 1e308 = 4.3429448190325182e-309 (mpmath), subnormal:
    // within one step of 2^-1074 (was 0: a·ln 10 overflowed).
    let step = f64::from_bits(1);
    let want = 4.3429448190325182e-309;
    let d = derivative(log_base_10 {}, 1e308).1;
    assert!(
        (d - want).abs() <= step,
        "log'(1e308): got {d:e}, want {want:e}"
    );
    let (_, d, dd) = second_derivative(log_base_10 {}, 1e308);
    assert!(
        (d - want).abs() <= step,
        "log'(1e308) (second order): got {d:e}"
    );
    // -1/(a² ln 10) = -4.3e-617 underflows to -0.
    close("log''(1e308)", dd, 0.0, 0.0);
}

// ---------------------------------------------------------------------------------------
// powi: `n·x^(n-1)` overflows while `x^n` is finite for n < 0 and for large n
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn powi_neg2_plus_square(x: &[f64]) -> f64 {
    x[0].powi(-2) + x[1] * x[1]
}

#[derive_frule]
fn powi_neg3_plus(x: &[f64]) -> f64 {
    x[0].powi(-3) + x[1]
}

#[derive_frule]
fn powi_1000_plus(x: &[f64]) -> f64 {
    x[0].powi(1000) + x[1]
}

#[test]
fn powi_overflowing_partial_stays_in_its_entry() {
    // x0^-2 + x1² at (1e-100, 3): value 1e200, ∇ = (-2e300, 6), ∇² = [[6e400 = ∞, 0], [0, 2]].
    let x = [1e-100, 3.0];
    let (_, g) = gradient_with::<2>(powi_neg2_plus_square {}, &x);
    close("∂0 (n = -2)", g[0], -2e300, 1e-15);
    close("∂1 (n = -2)", g[1], 6.0, 0.0);
    let (_, g, h) = hessian_with::<2>(powi_neg2_plus_square {}, &x);
    close("∂0 (n = -2, hessian)", g[0], -2e300, 1e-15);
    close("H00 (n = -2)", h[(0, 0)], f64::INFINITY, 0.0);
    close("H01 (n = -2)", h[(0, 1)], 0.0, 0.0);
    close("H11 (n = -2)", h[(1, 1)], 2.0, 0.0);
    // x0^-3 + x1 at (1e-100, 3): value 1e300, ∂0 = -3e400 (overflows: -∞), ∂1 = 1.
    // x0^1000 + x1 at (2.03, 3): value 3.1e307, ∂0 = 1.5e310 (overflows: ∞), ∂1 = 1
    // (mpmath).
    for (what, g) in [
        (
            "n = -3, one direction",
            gradient_with::<1>(powi_neg3_plus {}, &x).1,
        ),
        ("n = -3, batch", gradient_with::<2>(powi_neg3_plus {}, &x).1),
        (
            "n = -3, hessian",
            hessian_with::<2>(powi_neg3_plus {}, &x).1,
        ),
    ] {
        close(&format!("∂0 ({what})"), g[0], f64::NEG_INFINITY, 0.0);
        close(&format!("∂1 ({what})"), g[1], 1.0, 0.0);
    }
    let x = [2.03, 3.0];
    for (what, g) in [
        (
            "n = 1000, one direction",
            gradient_with::<1>(powi_1000_plus {}, &x).1,
        ),
        (
            "n = 1000, batch",
            gradient_with::<2>(powi_1000_plus {}, &x).1,
        ),
    ] {
        close(&format!("∂0 ({what})"), g[0], f64::INFINITY, 0.0);
        close(&format!("∂1 ({what})"), g[1], 1.0, 0.0);
    }
}

// ---------------------------------------------------------------------------------------
// hypot: the tangent of `a/y` cancels to `b²/y³` when |b| ≪ |a|
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn hypot_of(x: &[f64]) -> f64 {
    x[0].hypot(x[1])
}

#[derive_frule]
fn hypot_one(x: f64) -> f64 {
    x.hypot(1.0)
}

#[derive_frule]
fn hypot_zero(x: f64) -> f64 {
    x.hypot(0.0)
}

/// `((a, b), [a/h, b/h, b²/h³, -ab/h³, a²/h³])`, `h = √(a² + b²)`: mpmath, 400 bits.
const HYPOT: [((f64, f64), [f64; 5]); 5] = [
    (
        (1.0, 1e-5),
        [
            0.99999999995,
            9.9999999995000008e-6,
            9.9999999985000016e-11,
            -9.9999999985000008e-6,
            0.99999999985,
        ],
    ),
    (
        (1e5, 1.0),
        [
            0.99999999995,
            9.9999999995e-6,
            9.9999999985e-16,
            -9.9999999985e-11,
            9.9999999985e-6,
        ],
    ),
    ((-3.0, 4.0), [-0.6, 0.8, 0.128, 0.096, 0.072]),
    (
        (1e-200, 1e-300),
        [
            1.0,
            1.0e-100,
            1.0000000000000001,
            -1.0000000000000001e+100,
            1.0e+200,
        ],
    ),
    (
        (2e300, -3e300),
        [
            0.55470019622522912,
            -0.83205029433784368,
            1.9201160638565622e-301,
            1.2800773759043748e-301,
            8.5338491726958322e-302,
        ],
    ),
];

#[derive_frule]
fn separation(x: &[f64]) -> f64 {
    (x[0] - x[2]).hypot(x[1] - x[3]) + 0.5 * x[1]
}

#[derive_frule]
fn separation_sqrt(x: &[f64]) -> f64 {
    ((x[0] - x[2]).powi(2) + (x[1] - x[3]).powi(2)).sqrt() + 0.5 * x[1]
}

/// At the origin, a norm's kink, `hypot`'s partials are zero (the midpoint of the
/// subgradient, as `abs'(0) = 0`), in every mode, as `√(a² + b²)` gives there: two points
/// that coincide have a separation with gradient `(0, 0.5, 0, 0)` (the `0.5 x₁` term).
#[test]
fn hypot_at_the_origin_is_flat_like_the_square_root() {
    let x = [0.3, 0.2, 0.3, 0.2];
    let want = [0.0, 0.5, 0.0, 0.0];
    for k in 0..4 {
        let mut e = [0.0; 4];
        e[k] = 1.0;
        let (_, d) = fwdad::drivers::jvp(separation {}, &x, &e);
        assert_eq!(d, want[k], "one direction, d/dx{k}");
    }
    let (_, g) = gradient_with::<4>(separation {}, &x);
    assert_eq!(g, want, "batch");
    let (_, g2, h) = hessian_with::<2>(separation {}, &x);
    assert_eq!(g2, want, "second order");
    for i in 0..4 {
        for j in 0..4 {
            assert!(
                h[(i, j)].is_finite(),
                "second order: H[{i}][{j}] = {}",
                h[(i, j)]
            );
        }
    }
    let (_, gs) = gradient_with::<4>(separation_sqrt {}, &x);
    assert_eq!(gs, want, "the square root's form");
    let d = hypot_zero_frule(Dual::new(0.0, 1.0));
    assert_eq!(
        (d.primal, d.tangent),
        (0.0, 0.0),
        "hypot(x, 0) at 0, as abs"
    );
}

#[test]
fn hypot_hessian_when_one_argument_dominates() {
    for ((a, b), [da, db, haa, hab, hbb]) in HYPOT {
        let at = format!("({a:e}, {b:e})");
        let (_, g, h) = hessian_with::<2>(hypot_of {}, &[a, b]);
        close(&format!("∂a {at}"), g[0], da, 1e-15);
        close(&format!("∂b {at}"), g[1], db, 1e-15);
        close(&format!("H_aa {at}"), h[(0, 0)], haa, 1e-15);
        close(&format!("H_ab {at}"), h[(0, 1)], hab, 1e-15);
        close(&format!("H_bb {at}"), h[(1, 1)], hbb, 1e-15);
        let (_, _, hv) = fwdad::drivers::hvp_with::<2>(hypot_of {}, &[a, b], &[1.0, 0.0]);
        close(&format!("(H e_a)_a {at}"), hv[0], haa, 1e-15);
        close(&format!("(H e_a)_b {at}"), hv[1], hab, 1e-15);
        let (_, g) = gradient_with::<2>(hypot_of {}, &[a, b]);
        close(&format!("∂a {at} (batch)"), g[0], da, 1e-15);
        close(&format!("∂b {at} (batch)"), g[1], db, 1e-15);
    }
    // Subnormal arguments: ∂ = (1/√2, 1/√2); the old a/y met the subnormal y's rounding
    // (relative error 8.5e-15).
    let (_, g) = gradient_with::<2>(hypot_of {}, &[1e-310, 1e-310]);
    let r = std::f64::consts::FRAC_1_SQRT_2;
    close("∂a at 1e-310", g[0], r, 1e-15);
    close("∂b at 1e-310", g[1], r, 1e-15);
}

#[test]
fn hypot_with_a_constant_second_derivative() {
    // d²/dx² hypot(x, 1) = (1 + x²)^(-3/2) (mpmath): 1e-30 at 1e10 (was 0),
    // 9.9999999999999995e-301 at 1e100, 2.7939823710567687e-9 at 710.
    for (x, want) in [
        (1e10, 1.0e-30),
        (1e100, 9.9999999999999995e-301),
        (710.0, 2.7939823710567687e-9),
    ] {
        close(
            &format!("hypot(x, 1)''({x:e})"),
            second_derivative(hypot_one {}, x).2,
            want,
            1e-15,
        );
    }
    // hypot(x, 0) = |x|: second derivative 0 for x ≠ 0, subnormal x too (was NaN).
    for x in [5e-324, -1e-320, 1e-310, 3.0] {
        let (_, d, dd) = second_derivative(hypot_zero {}, x);
        close(&format!("hypot(x, 0)'({x:e})"), d, x.signum(), 0.0);
        close(&format!("hypot(x, 0)''({x:e})"), dd, 0.0, 0.0);
    }
}

// ---------------------------------------------------------------------------------------
// powf: `a^(b-1)` with `b - 1` rounded to `b`, overflowing, or beside an underflowing `y`
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn pow_1e100(x: f64) -> f64 {
    x.powf(1e100)
}

/// `x^(2^54)`: `2^54 - 1` rounds to `2^54`.
#[derive_frule]
fn pow_2_54(x: f64) -> f64 {
    x.powf(18014398509481984.0)
}

#[derive_frule]
fn pow_1e_17(x: f64) -> f64 {
    x.powf(1e-17)
}

#[derive_frule]
fn pow_ab(x: &[f64]) -> f64 {
    x[0].powf(x[1]) + x[2] * x[2]
}

#[test]
fn powf_negative_base_with_a_huge_even_exponent() {
    // d/dx x^b = b·x^(b-1); b = 1e100 and 2^54 are even integers, so b - 1 is odd and the
    // derivative at x < 0 is negative (it was positive: b - 1 rounds to b).
    close(
        "d/dx x^1e100 at -1",
        derivative(pow_1e100 {}, -1.0).1,
        -1e100,
        0.0,
    );
    // mpmath (1000 bits): -2^54·|x|^(2^54 - 1) at x = -1, -(1 + 2^-52), -(1 - 2^-53).
    for (x, want) in [
        (-1.0, -18014398509481984.0),
        (-(1.0 + f64::EPSILON), -9.8355283257754666e+17),
        (-(1.0 - f64::EPSILON / 2.0), -2437983724617957.8),
    ] {
        close(
            &format!("d/dx x^2^54 at {x:e}"),
            derivative(pow_2_54 {}, x).1,
            want,
            1e-15,
        );
        let (_, d, _) = second_derivative(pow_2_54 {}, x);
        close(
            &format!("d/dx x^2^54 at {x:e} (second order)"),
            d,
            want,
            1e-15,
        );
    }
}

#[test]
fn powf_partial_with_an_overflowing_power() {
    // d/dx x^1e-17 at 1e-310 = 1e-17·x^(1e-17 - 1) = 9.9999999999999599e+292 (mpmath), but
    // x^(1e-17 - 1) overflows (it was ∞).
    let (x, want) = (1e-310, 9.9999999999999599e+292);
    close("d/dx x^1e-17", derivative(pow_1e_17 {}, x).1, want, 1e-15);
    close(
        "d/dx x^1e-17 (second order)",
        second_derivative(pow_1e_17 {}, x).1,
        want,
        1e-15,
    );
    // Both active at (1e-310, 1e-17): ∂b = y·ln a = -713.80137882814907,
    // ∂²/∂b² = y·ln²a = 509512.40841697042 (mpmath).
    let (_, g) = gradient_with::<4>(pow_ab {}, &[x, 1e-17, 1.0]);
    close("∂a", g[0], want, 1e-15);
    close("∂b", g[1], -713.80137882814907, 1e-15);
    close("∂c", g[2], 2.0, 0.0);
    let (_, g, h) = hessian_with::<2>(pow_ab {}, &[x, 1e-17, 1.0]);
    close("∂a (hessian)", g[0], want, 1e-15);
    close("H_bb", h[(1, 1)], 509512.40841697042, 1e-15);
    close("H_cc", h[(2, 2)], 2.0, 0.0);
    close("H_ac", h[(0, 2)], 0.0, 0.0);
}

#[test]
fn powf_mixed_second_partial_where_the_power_underflows() {
    // ∂²/∂a∂b a^b = a^(b-1)·(1 + b·ln a); at (1e-300, 2) and (1e-150, 3) y = a^b underflows
    // while a^(b-1) does not. ((a, b), ∂a, H_ab, H_aa): mpmath, 1000 bits; also (0.3, 2.5).
    for ((a, b), da, hab, haa) in [
        (
            (1e-300, 2.0),
            2.0000000000000001e-300,
            -1.3805510557964274e-297,
            2.0,
        ),
        ((1e-150, 3.0), 3.0e-300, -1.0351632918473206e-297, 6.0e-150),
        (
            (0.3, 2.5),
            0.41079191812887456,
            -0.3302655304125016,
            2.0539595906443729,
        ),
    ] {
        let at = format!("({a:e}, {b:e})");
        let x = [a, b, 1.0];
        let (_, g, h) = hessian_with::<2>(pow_ab {}, &x);
        close(&format!("∂a {at}"), g[0], da, 1e-15);
        close(&format!("H_aa {at}"), h[(0, 0)], haa, 1e-15);
        close(&format!("H_ab {at}"), h[(0, 1)], hab, 1e-15);
        // The other order of the two directions.
        let (_, _, hv) = fwdad::drivers::hvp_with::<2>(pow_ab {}, &x, &[1.0, 0.0, 0.0]);
        close(&format!("(H e_a)_b {at}"), hv[1], hab, 1e-15);
        let seed = |d1: f64, d2: f64| Hyper { d1, d2, d12: 0.0 };
        let ab = Dual::new(a, seed(1.0, 0.0)).powf(Dual::new(b, seed(0.0, 1.0)));
        let ba = Dual::new(a, seed(0.0, 1.0)).powf(Dual::new(b, seed(1.0, 0.0)));
        close(&format!("Hyper H_ab {at}"), ab.tangent.d12, hab, 1e-15);
        close(&format!("Hyper H_ba {at}"), ba.tangent.d12, hab, 1e-15);
    }
}

/// Euclidean remainder and quotient: `r = a − b·q` with `q` locally constant, so
/// `∂r = (1, −q)` and `∂q = 0`; values bit for bit as std's.
#[fwdad::derive_frule]
fn euclid(a: f64, b: f64) -> f64 {
    (3.0 * a).rem_euclid(b) + a.div_euclid(b) * 0.5
}

#[test]
fn rem_euclid_and_div_euclid() {
    for (a, b) in [(0.7_f64, 1.3_f64), (-0.7, 1.3), (2.5, -0.8), (-2.5, -0.8)] {
        let (r, q) = ((3.0 * a).rem_euclid(b), (3.0 * a).div_euclid(b));
        let want = r + a.div_euclid(b) * 0.5;
        let (v, d) = fwdad::derivative(bind(euclid {}, (Wrt, b)), a);
        assert_eq!((v.to_bits(), d), (want.to_bits(), 3.0));
        let (_, d) = fwdad::derivative(bind(euclid {}, (a, Wrt)), b);
        assert_eq!(d, -q);
    }
}

// ---------------------------------------------------------------------------------------
// Second order at a kink of an unbounded rule, scaled afterwards (helper hunt I)
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn scaled_root(x: &[f64]) -> f64 {
    x[0] * x[0] + 2.0 * x[1].sqrt()
}

#[derive_frule]
fn weighted_roots(x: &[f64]) -> f64 {
    let mut s = x[0] * x[2];
    for (i, v) in x.iter().enumerate() {
        s += (i + 1) as f64 * v.sqrt();
    }
    s.sin() + s
}

#[test]
fn hessian_entries_beside_a_kink_stay_finite() {
    // x0² + 2√x1 at (1, 0): ∇² = [[2, 0], [0, -∞]] (c√x'' = -c/(4 x^{3/2})); the product
    // by 2 after the kink made every entry of row and column 1 NaN.
    let (_, g, h) = fwdad::hessian(scaled_root {}, &[1.0, 0.0]);
    assert_eq!(g, vec![2.0, f64::INFINITY]);
    assert_eq!(
        h.to_rows(),
        vec![vec![2.0, 0.0], vec![0.0, f64::NEG_INFINITY]]
    );
    let (_, _, hv) = fwdad::hvp(scaled_root {}, &[1.0, 0.0], &[1.0, 0.0]);
    assert_eq!(hv, vec![2.0, 0.0]);
    // g(s) = sin s + s, s = x0 x2 + Σ (i+1)√xᵢ at x = (1, 0, 4): g' = cos s + 1, g'' = -sin s.
    // ∂s = (4 + 1/2, ∞, 1 + 3/4); ∂²s = [[-1/4, 0, 1], [0, -∞, 0], [1, 0, -3/32]].
    // Hᵢⱼ = g'' ∂ᵢs ∂ⱼs + g' ∂²ᵢⱼs, for i, j ≠ 1 (row and column 1 are infinite).
    let x = [1.0, 0.0, 4.0];
    let s: f64 = 1.0 * 4.0 + 1.0 + 0.0 + 3.0 * 2.0;
    let (d1, d2) = (s.cos() + 1.0, -s.sin());
    let ds = [4.5, 1.75];
    let dds = [[-0.25, 1.0], [1.0, -3.0 / 32.0]];
    let (_, _, h) = fwdad::hessian(weighted_roots {}, &x);
    for (a, i) in [0, 2].into_iter().enumerate() {
        for (b, j) in [0, 2].into_iter().enumerate() {
            let want = d2 * ds[a] * ds[b] + d1 * dds[a][b];
            close(&format!("H{i}{j}"), h[(i, j)], want, 1e-14);
        }
        assert!(
            h[(i, 1)].is_infinite() && h[(1, i)].is_infinite(),
            "{:?}",
            h.to_rows()
        );
    }
    // H11 = g''·∞² + g'·(-∞) = ∞ - ∞: no value.
    assert!(h[(1, 1)].is_nan(), "{:?}", h.to_rows());
}
