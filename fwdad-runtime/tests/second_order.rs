//! Second-order tangents (`Hyper`): pushing `x + u·ε₁ + v·ε₂ + w·ε₁ε₂` through a rule must
//! give `f'·u`, `f'·v` and `f'·w + f''·u·v`. Checked against second derivatives written out
//! analytically here, for unary rules, binary rules (the full Hessian, both operands
//! active), mixed active/inactive forms, batched first directions, and `f32`.

use core::f64::consts::{LN_10, LN_2};
use fwdad_runtime::{ops, Batch, Dual, Hyper};

type H = Dual<f64, Hyper<f64, f64>>;

/// Directions used throughout (arbitrary, distinct, of mixed sign).
const U: f64 = 0.7;
const V: f64 = -1.3;
const W: f64 = 0.4;

fn hyper(x: f64, d1: f64, d2: f64, d12: f64) -> H {
    Dual::new(x, Hyper { d1, d2, d12 })
}

fn close(got: f64, want: f64) -> bool {
    approx::relative_eq!(got, want, epsilon = 1e-13, max_relative = 1e-12)
}

/// `(f', f'')` of a function, analytically.
type Derivs1 = fn(f64) -> (f64, f64);

/// A line of the unary table: name, rule, points, analytic derivatives.
type UnaryCase = (&'static str, fn(H) -> H, &'static [f64], Derivs1);

#[rustfmt::skip]
fn unary_table() -> Vec<UnaryCase> {
    vec![
        ("exp", |x| ops::exp(x), &[-1.0, 0.5, 2.0], |x| (x.exp(), x.exp())),
        ("exp2", |x| ops::exp2(x), &[-1.0, 1.5], |x| (x.exp2() * LN_2, x.exp2() * LN_2 * LN_2)),
        ("exp_m1", |x| ops::exp_m1(x), &[-1.0, 0.3], |x| (x.exp(), x.exp())),
        ("ln", |x| ops::ln(x), &[0.3, 2.0], |x| (1.0 / x, -1.0 / (x * x))),
        ("log2", |x| ops::log2(x), &[0.3, 2.0], |x| (1.0 / (x * LN_2), -1.0 / (x * x * LN_2))),
        ("log10", |x| ops::log10(x), &[0.3, 2.0], |x| (1.0 / (x * LN_10), -1.0 / (x * x * LN_10))),
        ("ln_1p", |x| ops::ln_1p(x), &[-0.5, 2.0], |x| (1.0 / (1.0 + x), -1.0 / ((1.0 + x) * (1.0 + x)))),
        ("sqrt", |x| ops::sqrt(x), &[0.3, 4.0], |x| (0.5 / x.sqrt(), -0.25 / (x * x.sqrt()))),
        ("cbrt", |x| ops::cbrt(x), &[-2.0, 0.5, 8.0], |x| {
            (1.0 / (3.0 * x.cbrt().powi(2)), -2.0 / (9.0 * x.cbrt().powi(5)))
        }),
        ("recip", |x| ops::recip(x), &[-2.0, 0.5], |x| (-1.0 / (x * x), 2.0 / (x * x * x))),
        ("powi 0", |x| ops::powi(x, 0), &[-2.0, 0.5], |_| (0.0, 0.0)),
        ("powi 1", |x| ops::powi(x, 1), &[-2.0, 0.5], |_| (1.0, 0.0)),
        ("powi 3", |x| ops::powi(x, 3), &[-2.0, 0.5], |x| (3.0 * x * x, 6.0 * x)),
        ("powi -2", |x| ops::powi(x, -2), &[-2.0, 0.5], |x| (-2.0 / (x * x * x), 6.0 / (x * x * x * x))),
        ("sin", |x| ops::sin(x), &[-2.0, 0.5], |x| (x.cos(), -x.sin())),
        ("cos", |x| ops::cos(x), &[-2.0, 0.5], |x| (-x.sin(), -x.cos())),
        ("tan", |x| ops::tan(x), &[-1.0, 0.5], |x| {
            let s2 = 1.0 / (x.cos() * x.cos());
            (s2, 2.0 * s2 * x.tan())
        }),
        ("asin", |x| ops::asin(x), &[-0.6, 0.3], |x| {
            let q = 1.0 - x * x;
            (1.0 / q.sqrt(), x / (q * q.sqrt()))
        }),
        ("acos", |x| ops::acos(x), &[-0.6, 0.3], |x| {
            let q = 1.0 - x * x;
            (-1.0 / q.sqrt(), -x / (q * q.sqrt()))
        }),
        ("atan", |x| ops::atan(x), &[-2.0, 0.5], |x| {
            let q = 1.0 + x * x;
            (1.0 / q, -2.0 * x / (q * q))
        }),
        ("sinh", |x| ops::sinh(x), &[-2.0, 0.5], |x| (x.cosh(), x.sinh())),
        ("cosh", |x| ops::cosh(x), &[-2.0, 0.5], |x| (x.sinh(), x.cosh())),
        ("tanh", |x| ops::tanh(x), &[-2.0, 0.5], |x| {
            let s2 = 1.0 / (x.cosh() * x.cosh());
            (s2, -2.0 * x.tanh() * s2)
        }),
        ("asinh", |x| ops::asinh(x), &[-2.0, 0.5], |x| {
            let q = x * x + 1.0;
            (1.0 / q.sqrt(), -x / (q * q.sqrt()))
        }),
        ("acosh", |x| ops::acosh(x), &[1.5, 3.0], |x| {
            let q = x * x - 1.0;
            (1.0 / q.sqrt(), -x / (q * q.sqrt()))
        }),
        ("atanh", |x| ops::atanh(x), &[-0.6, 0.3], |x| {
            let q = 1.0 - x * x;
            (1.0 / q, 2.0 * x / (q * q))
        }),
        ("to_degrees", |x| ops::to_degrees(x), &[1.0], |_| (180.0 / core::f64::consts::PI, 0.0)),
        ("neg", |x| -x, &[1.0], |_| (-1.0, 0.0)),
        ("abs", |x| ops::abs(x), &[-2.0, 0.5], |x| (x.signum(), 0.0)),
        ("floor", |x| ops::floor(x), &[-2.5, 0.5], |_| (0.0, 0.0)),
        ("fract", |x| ops::fract(x), &[-2.5, 0.5], |_| (1.0, 0.0)),
        ("sin_cos.0", |x| ops::sin_cos(x).0, &[0.5], |x| (x.cos(), -x.sin())),
        ("sin_cos.1", |x| ops::sin_cos(x).1, &[0.5], |x| (-x.sin(), -x.cos())),
        // One operand inactive (the constant 2.5 or 0.8).
        ("powf(x, 2.5)", |x| ops::powf(x, 2.5), &[0.5, 2.0], |x| {
            (2.5 * x.powf(1.5), 2.5 * 1.5 * x.powf(0.5))
        }),
        ("powf(2.5, x)", |x| ops::powf(2.5, x), &[-1.0, 2.0], |x| {
            let l = 2.5_f64.ln();
            (2.5_f64.powf(x) * l, 2.5_f64.powf(x) * l * l)
        }),
        ("mul(x, 2.5)", |x| ops::mul(x, 2.5), &[1.0], |_| (2.5, 0.0)),
        ("x * x", |x| x * x, &[-1.5, 2.0], |x| (2.0 * x, 2.0)),
        ("div(2.5, x)", |x| ops::div(2.5, x), &[-1.0, 2.0], |x| (-2.5 / (x * x), 5.0 / (x * x * x))),
        ("atan2(x, 0.8)", |x| ops::atan2(x, 0.8), &[-1.0, 2.0], |x| {
            let r2 = x * x + 0.64;
            (0.8 / r2, -1.6 * x / (r2 * r2))
        }),
        ("atan2(0.8, x)", |x| ops::atan2(0.8, x), &[-1.0, 2.0], |x| {
            let r2 = x * x + 0.64;
            (-0.8 / r2, 1.6 * x / (r2 * r2))
        }),
        ("hypot(x, 0.8)", |x| ops::hypot(x, 0.8), &[-1.0, 2.0], |x| {
            let r = x.hypot(0.8);
            (x / r, 0.64 / (r * r * r))
        }),
        ("log(x, 2.5)", |x| ops::log(x, 2.5), &[0.5, 3.0], |x| {
            let l = 2.5_f64.ln();
            (1.0 / (x * l), -1.0 / (x * x * l))
        }),
        ("log(2.5, x)", |x| ops::log(2.5, x), &[0.5, 3.0], |x| {
            let (lc, lx) = (2.5_f64.ln(), x.ln());
            (-lc / (x * lx * lx), lc * (lx + 2.0) / (x * x * lx * lx * lx))
        }),
        ("mul_add(x, x, 2.5)", |x| ops::mul_add(x, x, 2.5), &[-1.5, 2.0], |x| (2.0 * x, 2.0)),
        ("mul_add(2.5, 0.8, x)", |x| ops::mul_add(2.5, 0.8, x), &[1.0], |_| (1.0, 0.0)),
    ]
}

#[test]
fn unary_second_derivatives() {
    let mut failures = Vec::new();
    for (name, f, xs, derivs) in unary_table() {
        for &x in xs {
            let (d1, d2) = derivs(x);
            let y = f(hyper(x, U, V, 0.0)).tangent;
            let want = [d1 * U, d1 * V, d2 * U * V];
            let got = [y.d1, y.d2, y.d12];
            if !got.iter().zip(&want).all(|(g, w)| close(*g, *w)) {
                failures.push(format!("{name} at {x}: got {got:?}, want {want:?}"));
            }
            // An incoming second-order part is carried by the first derivative.
            let y = f(hyper(x, U, V, W)).tangent;
            if !close(y.d12, d1 * W + d2 * U * V) {
                failures.push(format!("{name} at {x} with d12 = {W}: got {}", y.d12));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `[f_a, f_b, f_aa, f_ab, f_bb]` of a function of two variables, analytically.
type Derivs2 = fn(f64, f64) -> [f64; 5];

/// A line of the binary table: name, rule, point, analytic derivatives.
type BinaryCase = (&'static str, fn(H, H) -> H, (f64, f64), Derivs2);

#[rustfmt::skip]
fn binary_table() -> Vec<BinaryCase> {
    vec![
        ("add", |a, b| a + b, (0.5, -1.5), |_, _| [1.0, 1.0, 0.0, 0.0, 0.0]),
        ("sub", |a, b| a - b, (0.5, -1.5), |_, _| [1.0, -1.0, 0.0, 0.0, 0.0]),
        ("mul", |a, b| a * b, (0.5, -1.5), |a, b| [b, a, 0.0, 1.0, 0.0]),
        ("div", |a, b| a / b, (0.5, -1.5), |a, b| {
            [1.0 / b, -a / (b * b), 0.0, -1.0 / (b * b), 2.0 * a / (b * b * b)]
        }),
        ("rem", |a, b| a % b, (7.5, 2.0), |_, _| [1.0, -3.0, 0.0, 0.0, 0.0]),
        ("powf", |a, b| ops::powf(a, b), (1.7, -0.6), |a, b| {
            let (y, l) = (a.powf(b), a.ln());
            [b * a.powf(b - 1.0), y * l,
             b * (b - 1.0) * a.powf(b - 2.0), a.powf(b - 1.0) * (1.0 + b * l), y * l * l]
        }),
        ("atan2", |a, b| ops::atan2(a, b), (0.5, -1.5), |a, b| {
            let r2 = a * a + b * b;
            let r4 = r2 * r2;
            [b / r2, -a / r2, -2.0 * a * b / r4, (a * a - b * b) / r4, 2.0 * a * b / r4]
        }),
        ("hypot", |a, b| ops::hypot(a, b), (0.5, -1.5), |a, b| {
            let r = a.hypot(b);
            let r3 = r * r * r;
            [a / r, b / r, b * b / r3, -a * b / r3, a * a / r3]
        }),
        ("log", |a, b| ops::log(a, b), (3.0, 2.5), |a, b| {
            let (la, lb) = (a.ln(), b.ln());
            [1.0 / (a * lb), -la / (b * lb * lb), -1.0 / (a * a * lb), -1.0 / (a * b * lb * lb),
             la * (lb + 2.0) / (b * b * lb * lb * lb)]
        }),
        ("max", |a, b| ops::max(a, b), (0.5, -1.5), |_, _| [1.0, 0.0, 0.0, 0.0, 0.0]),
        ("min", |a, b| ops::min(a, b), (0.5, -1.5), |_, _| [0.0, 1.0, 0.0, 0.0, 0.0]),
        ("mul_add(a, b, a)", |a, b| ops::mul_add(a, b, a), (0.5, -1.5), |a, b| {
            [b + 1.0, a, 0.0, 1.0, 0.0]
        }),
        ("sin(a)·exp(b)", |a, b| a.sin() * b.exp(), (0.5, -1.5), |a, b| {
            let (s, c, e) = (a.sin(), a.cos(), b.exp());
            [c * e, s * e, -s * e, c * e, s * e]
        }),
    ]
}

#[test]
fn binary_hessians() {
    // Directions of the two operands: first (u1, u2), second (v1, v2).
    let (u1, u2, v1, v2) = (0.7, -0.4, -1.3, 0.9);
    let mut failures = Vec::new();
    for (name, f, (a, b), derivs) in binary_table() {
        let [fa, fb, faa, fab, fbb] = derivs(a, b);
        let y = f(hyper(a, u1, v1, 0.0), hyper(b, u2, v2, 0.0)).tangent;
        let want = [
            fa * u1 + fb * u2,
            fa * v1 + fb * v2,
            u1 * faa * v1 + u1 * fab * v2 + u2 * fab * v1 + u2 * fbb * v2,
        ];
        let got = [y.d1, y.d2, y.d12];
        if !got.iter().zip(&want).all(|(g, w)| close(*g, *w)) {
            failures.push(format!("{name} at ({a}, {b}): got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A batch of first directions: one pass gives a column block of `∇²f · v`.
#[test]
fn batched_first_directions() {
    type HB = Dual<f64, Hyper<f64, Batch<f64, 3>>>;
    let us = [1.0, -0.5, 2.0];
    let x: HB = Dual::new(
        0.8,
        Hyper {
            d1: Batch(us),
            d2: V,
            d12: Batch([0.0; 3]),
        },
    );
    let y = (x.sin() * x).tangent;
    // f = x sin x: f' = sin x + x cos x, f'' = 2 cos x - x sin x.
    let (d1, d2) = (
        0.8_f64.sin() + 0.8 * 0.8_f64.cos(),
        2.0 * 0.8_f64.cos() - 0.8 * 0.8_f64.sin(),
    );
    for (k, u) in us.iter().enumerate() {
        assert!(close(y.d1.0[k], d1 * u), "lane {k}");
        assert!(close(y.d12.0[k], d2 * u * V), "lane {k}");
    }
    assert!(close(y.d2, d1 * V));

    // A binary rule with batched directions: mul's Hessian [[0, 1], [1, 0]].
    let a: HB = Dual::new(
        0.3,
        Hyper {
            d1: Batch([1.0, 0.0, 2.0]),
            d2: 1.0,
            d12: Batch([0.0; 3]),
        },
    );
    let b: HB = Dual::new(
        -0.7,
        Hyper {
            d1: Batch([0.0, 1.0, 3.0]),
            d2: 2.0,
            d12: Batch([0.0; 3]),
        },
    );
    // d12 = u_a·v_b + u_b·v_a = u_a·2 + u_b·1.
    assert_eq!(ops::mul(a, b).tangent.d12, Batch([2.0, 1.0, 7.0]));
}

/// `f32` primals with `f32` second-order tangents.
#[test]
fn f32_second_derivatives() {
    let x = Dual::new(
        0.6_f32,
        Hyper {
            d1: 1.0_f32,
            d2: 1.0,
            d12: 0.0,
        },
    );
    let y = ops::tanh(x).tangent;
    let s2 = 1.0 / (0.6_f64.cosh() * 0.6_f64.cosh());
    approx::assert_relative_eq!(
        f64::from(y.d12),
        -2.0 * 0.6_f64.tanh() * s2,
        max_relative = 1e-5
    );
    // a along the first direction only, b along the second only: d12 = ∂²(a^b)/∂a∂b
    // = a^(b-1)(1 + b ln a) at (0.6, 2).
    let a = Dual::new(
        0.6_f32,
        Hyper {
            d1: 1.0_f32,
            d2: 0.0,
            d12: 0.0,
        },
    );
    let b = Dual::new(
        2.0_f32,
        Hyper {
            d1: 0.0,
            d2: 1.0,
            d12: 0.0,
        },
    );
    let y = ops::powf(a, b).tangent;
    approx::assert_relative_eq!(
        f64::from(y.d12),
        0.6 * (1.0 + 2.0 * 0.6_f64.ln()),
        max_relative = 1e-5
    );
}
