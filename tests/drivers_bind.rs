//! `bind`, `inplace` and `inplace_from`: differentiating a function of several arguments
//! with respect to one of them, the others constant, and functions that write their result
//! into a `&mut [f64]` buffer. Every derivative is checked against one written by hand.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use fwdad::drivers::{
    bind, inplace, inplace_from, second_derivative, Const, Matrix, Out, Scratch, Wrt,
};
use fwdad::prelude::*;
use fwdad::testing::test_frule;

/// k · Σ_{i < steps} sin(x[i mod n]).
#[derive_frule]
fn energy(x: &[f64], k: f64, steps: usize) -> f64 {
    let mut e = 0.0;
    for i in 0..steps {
        e += k * x[i % x.len()].sin();
    }
    e
}

/// Σ xᵢ^p with an `i32` exponent.
#[derive_frule]
fn power_sum(p: i32, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i].powi(p);
    }
    s
}

/// A function with the differentiated argument last and constants of several kinds:
/// a weight array by value, a reference to an array, a flag.
#[derive_frule]
fn mixed(w: [f64; 3], shift: &[f64; 3], squared: bool, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let d = x[i] - shift[i];
        if squared {
            s += w[i] * d * d;
        } else {
            s += w[i] * d;
        }
    }
    s
}

/// f(a, b) = a·b² (both slices of length 2, dotted).
#[derive_frule]
fn a_b_squared(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[0] * b[0] + a[1] * b[1] * b[1]
}

/// A scalar function of a scalar and a pair passed by value.
#[derive_frule]
fn shifted_gauss(t: f64, mu_sigma: (f64, f64)) -> f64 {
    let (mu, sigma) = mu_sigma;
    let z = (t - mu) / sigma;
    (-0.5 * z * z).exp()
}

#[test]
fn bind_fixes_constants_in_any_position() {
    let x = [0.3, -1.1, 2.0];
    // Differentiated argument first; untyped literals take the rule's types (f64, usize).
    let (v, g) = gradient(bind(energy {}, (Wrt, 2.0, 5)), &x);
    assert_eq!(v, energy(&x, 2.0, 5));
    // i = 0..5 visits x0, x1, x2, x0, x1.
    let exact = [4.0 * x[0].cos(), 4.0 * x[1].cos(), 2.0 * x[2].cos()];
    for i in 0..3 {
        assert_relative_eq!(g[i], exact[i], max_relative = 1e-15);
    }

    // Differentiated argument last, an `i32` constant first (the literal 3 becomes i32).
    let (v, g) = gradient(bind(power_sum {}, (3, Wrt)), &x);
    assert_eq!(v, power_sum(3, &x));
    for i in 0..3 {
        assert_relative_eq!(g[i], 3.0 * x[i] * x[i], max_relative = 1e-15);
    }

    // Arrays by value, references, bools.
    let w = [1.0, 2.0, 3.0];
    let shift = [0.5, 0.5, -0.5];
    let (v, g) = gradient(bind(mixed {}, (w, &shift, true, Wrt)), &x);
    assert_eq!(v, mixed(w, &shift, true, &x));
    for i in 0..3 {
        assert_relative_eq!(g[i], 2.0 * w[i] * (x[i] - shift[i]), max_relative = 1e-15);
    }
    let (_, g) = gradient(bind(mixed {}, (w, &shift, false, Wrt)), &x);
    assert_eq!(g, w);
}

#[test]
fn constants_carry_zero_tangents() {
    // d/da and d/db of a·b² with the other argument fixed.
    let a = [1.5, -2.0];
    let b = [0.5, 3.0];
    let (v, ga) = gradient(bind(a_b_squared {}, (Wrt, &b[..])), &a);
    assert_eq!(v, a_b_squared(&a, &b));
    let (_, gb) = gradient(bind(a_b_squared {}, (&a[..], Wrt)), &b);
    assert_eq!(ga, [b[0] * b[0], b[1] * b[1]]);
    assert_eq!(gb, [2.0 * a[0] * b[0], 2.0 * a[1] * b[1]]);
    // The Hessian in b alone is diag(2a): a's tangent is zero, so no cross terms leak in.
    let (_, _, h) = hessian(bind(a_b_squared {}, (&a[..], Wrt)), &b);
    assert_eq!(h.to_rows(), [[2.0 * a[0], 0.0], [0.0, 2.0 * a[1]]]);
    // Binding the same input twice differentiates x ↦ f(x, x): ∂(x·x²) = 3x².
    let (_, g) = gradient(bind(a_b_squared {}, (Wrt, Wrt)), &b);
    assert_eq!(g, [3.0 * b[0] * b[0], 3.0 * b[1] * b[1]]);
}

#[test]
fn bind_with_a_scalar_argument_and_a_const_wrapper() {
    let (mu, sigma) = (0.4, 1.3);
    let f = |t: f64| shifted_gauss(t, (mu, sigma));
    for t in [-1.0, 0.4, 2.2] {
        let z = (t - mu) / sigma;
        let (v, d) = derivative(bind(shifted_gauss {}, (Wrt, Const((mu, sigma)))), t);
        assert_eq!(v, f(t));
        assert_relative_eq!(d, -z / sigma * f(t), max_relative = 1e-15, epsilon = 1e-300);
        let (_, d1, d2) = second_derivative(bind(shifted_gauss {}, (Wrt, Const((mu, sigma)))), t);
        assert_eq!(d1, d);
        assert_relative_eq!(d2, (z * z - 1.0) / (sigma * sigma) * f(t), epsilon = 1e-15);
    }
}

#[test]
fn a_bound_rule_is_a_rule() {
    // `bind` gives an ordinary rule: test_frule checks it against finite differences.
    let args = (vec![0.3, -1.1, 2.0, 0.7],);
    let rule = bind(energy {}, (Wrt, 1.5, 7));
    test_frule(
        args,
        |a| energy(&a.0, 1.5, 7),
        |a, da| Frule::<_, f64>::frule(&rule, (Dual::new(&a.0[..], &da.0[..]),)),
    );
}

/// Parameters passed by reference: a struct with a real and an integer field.
pub struct Params {
    pub k: f64,
    pub terms: usize,
}

/// Its tangent, written by hand (`#[derive(Differentiable)]` generates the same shape).
pub struct ParamsTangent<S> {
    pub k: S,
    pub terms: NoTangent,
}

impl Differentiable for Params {
    type Tangent = ParamsTangent<f64>;
    type TangentIn<S: fwdad::Mode> = ParamsTangent<S>;
}

impl fwdad::ZeroTangent for Params {
    fn zero_tangent(&self) -> ParamsTangent<f64> {
        ParamsTangent {
            k: 0.0,
            terms: NoTangent,
        }
    }
    fn zero_tangent_in<S: fwdad::Mode>(&self) -> ParamsTangent<S> {
        ParamsTangent {
            k: S::zero(),
            terms: NoTangent,
        }
    }
}

/// k · Σ_{i < terms} xᵢ² · cos xᵢ, reading the parameters through a reference.
#[derive_frule]
fn weighted_energy(x: &[f64], p: &Params) -> f64 {
    let mut s = 0.0;
    for i in 0..p.terms {
        s += p.k * x[i] * x[i] * x[i].cos();
    }
    s
}

#[test]
fn bind_a_struct_by_reference() {
    let p = Params { k: 1.5, terms: 3 };
    let x = [0.4, -0.9, 1.3, 7.0];
    let (v, g) = gradient(bind(weighted_energy {}, (Wrt, &p)), &x);
    assert_eq!(v, weighted_energy(&x, &p));
    for i in 0..4 {
        let exact = if i < 3 {
            p.k * (2.0 * x[i] * x[i].cos() - x[i] * x[i] * x[i].sin())
        } else {
            0.0
        };
        assert_relative_eq!(g[i], exact, max_relative = 1e-15);
    }
    let (_, _, h) = hessian(bind(weighted_energy {}, (Wrt, &p)), &x);
    for i in 0..3 {
        let c = x[i].cos();
        let s = x[i].sin();
        let exact = p.k * (2.0 * c - 4.0 * x[i] * s - x[i] * x[i] * c);
        assert_relative_eq!(h[(i, i)], exact, max_relative = 1e-14);
    }
    assert_eq!(h[(3, 3)], 0.0);
    assert_eq!(h[(0, 1)], 0.0);
}

// ---------------------------------------------------------------------------------------
// In place
// ---------------------------------------------------------------------------------------

/// y ← y + a·x² elementwise (accumulates into its output).
#[derive_frule]
fn axpy_squares(a: f64, x: &[f64], y: &mut [f64]) {
    for i in 0..x.len() {
        y[i] += a * x[i] * x[i];
    }
}

/// Differences of neighbours scaled by h, written into `out` (output in the middle).
#[derive_frule]
fn scaled_diff(x: &[f64], out: &mut [f64], h: f64) -> f64 {
    let mut norm = 0.0;
    for i in 0..x.len() - 1 {
        out[i] = (x[i + 1] - x[i]) / h;
        norm += out[i] * out[i];
    }
    norm
}

#[test]
fn inplace_reads_the_output_buffer() {
    let x = [1.0, 2.0, -3.0];
    // Out last, a constant first.
    let (y, j) = jacobian(inplace(bind(axpy_squares {}, (0.5, Wrt, Out)), 3), &x);
    assert_eq!(y, [0.5, 2.0, 4.5]);
    let mut plain = [0.0; 3];
    axpy_squares(0.5, &x, &mut plain);
    assert_eq!(y, plain);
    assert_eq!(
        j,
        Matrix::from_rows(&[[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, -3.0]])
    );
    // inplace_from: the buffer starts at y0 (the Jacobian does not depend on it).
    let y0 = [10.0, 20.0, 30.0];
    let (y, j2) = jacobian(
        inplace_from(bind(axpy_squares {}, (0.5, Wrt, Out)), &y0),
        &x,
    );
    assert_eq!(y, [10.5, 22.0, 34.5]);
    assert_eq!(j2, j);
    // jvp through an in-place rule returns the buffer's value and tangent.
    let (y, dy) = jvp(
        inplace(bind(axpy_squares {}, (0.5, Wrt, Out)), 3),
        &x,
        &[1.0, 1.0, 1.0],
    );
    assert_eq!((y, dy), (vec![0.5, 2.0, 4.5], vec![1.0, 2.0, -3.0]));

    // Out in the middle; the function's own return value is ignored by `inplace`.
    let h = 0.5;
    let (d, j) = jacobian(inplace(bind(scaled_diff {}, (Wrt, Out, h)), 2), &x);
    assert_eq!(d, [2.0, -10.0]);
    assert_eq!(
        j.to_rows(),
        [[-1.0 / h, 1.0 / h, 0.0], [0.0, -1.0 / h, 1.0 / h]]
    );
    let mut out = [0.0; 2];
    assert_eq!(scaled_diff(&x, &mut out, h), 104.0);
    // Without `inplace`, the return value is what the drivers differentiate and the buffer
    // is scratch: norm = Σ outᵢ², ∂norm/∂x = 2·outᵀ·∂out/∂x.
    let (n, g) = gradient(bind(scaled_diff {}, (Wrt, Scratch(2), h)), &x);
    assert_eq!(n, 104.0);
    assert_eq!(
        g,
        [
            -2.0 * 2.0 / h,
            2.0 * 2.0 / h + 2.0 * 10.0 / h,
            -2.0 * 10.0 / h
        ]
    );
}

// ---------------------------------------------------------------------------------------
// Generic functions bound with literals
// ---------------------------------------------------------------------------------------

/// c·x₀²·sin(x₁) + x₁/c, generic over the float type.
#[derive_frule]
fn generic_scaled<T: num_traits::Float>(x: &[T], c: T) -> T {
    c * x[0] * x[0] * x[1].sin() + x[1] / c
}

/// c·x·eˣ, a generic function of one scalar.
#[derive_frule]
fn generic_scalar<T: num_traits::Float>(x: T, c: T) -> T {
    c * x * x.exp()
}

/// yᵢ = c·xᵢ³, generic, with the constant first and the output buffer last.
#[derive_frule]
fn generic_cubes<T: num_traits::Float>(c: T, x: &[T], y: &mut [T]) {
    for i in 0..x.len() {
        y[i] = c * x[i] * x[i] * x[i];
    }
}

#[test]
fn generic_functions_take_untyped_literals() {
    // The rule fits `c: f32` as well as `c: f64`, so `bind` cannot type the literal; it
    // falls back to f64 (the regression: this did not compile).
    let x: [f64; 2] = [0.7, -1.3];
    let c: f64 = 2.5;
    // ∂/∂x₀ = 2c·x₀·sin x₁, ∂/∂x₁ = c·x₀²·cos x₁ + 1/c.
    let exact = [
        2.0 * c * x[0] * x[1].sin(),
        c * x[0] * x[0] * x[1].cos() + 1.0 / c,
    ];
    let (v, g) = gradient(bind(generic_scaled {}, (Wrt, 2.5)), &x);
    assert_eq!(v, generic_scaled(&x, c));
    for i in 0..2 {
        assert_relative_eq!(g[i], exact[i], max_relative = 1e-15);
    }
    // Typed literal and a variable: the same numbers.
    let (_, g2) = gradient(bind(generic_scaled {}, (Wrt, 2.5f64)), &x);
    let (_, g3) = gradient(bind(generic_scaled {}, (Wrt, c)), &x);
    assert_eq!(g2, g);
    assert_eq!(g3, g);
    // ∂²/∂x₀² = 2c·sin x₁, ∂²/∂x₀∂x₁ = 2c·x₀·cos x₁, ∂²/∂x₁² = −c·x₀²·sin x₁.
    let (_, _, h) = hessian(bind(generic_scaled {}, (Wrt, 2.5)), &x);
    assert_relative_eq!(h[(0, 0)], 2.0 * c * x[1].sin(), max_relative = 1e-15);
    assert_relative_eq!(h[(0, 1)], 2.0 * c * x[0] * x[1].cos(), max_relative = 1e-15);
    assert_relative_eq!(h[(1, 0)], 2.0 * c * x[0] * x[1].cos(), max_relative = 1e-15);
    assert_relative_eq!(
        h[(1, 1)],
        -c * x[0] * x[0] * x[1].sin(),
        max_relative = 1e-15
    );

    // A scalar argument: d/dx c·x·eˣ = c·(1 + x)·eˣ. The result types are only known once
    // the literal has fallen back to f64, so they are written out.
    for t in [-0.5f64, 0.0, 1.25] {
        let (v, d): (f64, f64) = derivative(bind(generic_scalar {}, (Wrt, 3.0)), t);
        assert_eq!(v, generic_scalar(t, 3.0));
        assert_relative_eq!(d, 3.0 * (1.0 + t) * t.exp(), max_relative = 1e-15);
    }

    // The literal before the differentiated argument, an output buffer after it:
    // ∂yᵢ/∂xⱼ = 3c·xᵢ²·δᵢⱼ.
    let x = [1.0, -2.0, 0.5];
    let (y, j) = jacobian(inplace(bind(generic_cubes {}, (0.5, Wrt, Out)), 3), &x);
    assert_eq!(y, [0.5, -4.0, 0.0625]);
    let mut plain = [0.0; 3];
    generic_cubes(0.5, &x, &mut plain);
    assert_eq!(y, plain);
    assert_eq!(
        j,
        Matrix::from_rows(&[[1.5, 0.0, 0.0], [0.0, 6.0, 0.0], [0.0, 0.0, 0.375]])
    );
}

/// A scalar `#[primitive(d = ..)]` of two and three floats: its rule takes any operand
/// (dual or plain float) per argument, so `bind` pins the `Wrt` slot to a dual.
mod scalar_primitives {
    use fwdad::drivers::{bind, Wrt};
    use fwdad::prelude::*;

    #[primitive(d = (b, a))]
    fn mul2(a: f64, b: f64) -> f64 {
        a * b
    }

    #[primitive(d = (b * c, a * c, a * b))]
    fn mul3(a: f64, b: f64, c: f64) -> f64 {
        a * b * c
    }

    #[test]
    fn bind_scalar_primitive_of_two_and_three_floats() {
        let (v, d) = derivative(bind(mul2 {}, (Wrt, 3.0)), 2.0);
        assert_eq!((v, d), (6.0, 3.0));
        let (v, d) = derivative(bind(mul2 {}, (5.0, Wrt)), 2.0);
        assert_eq!((v, d), (10.0, 5.0));
        // x ↦ x·x: 2x.
        let (_, d) = derivative(bind(mul2 {}, (Wrt, Wrt)), 1.5);
        assert_eq!(d, 3.0);
        let (_, _, d2) = second_derivative(bind(mul2 {}, (Wrt, Wrt)), 1.5);
        assert_eq!(d2, 2.0);
        let (v, d) = derivative(bind(mul3 {}, (2.0, Wrt, 4.0)), 3.0);
        assert_eq!((v, d), (24.0, 8.0));
    }
}

/// A parameter declared `inactive(..)` binds to its plain reference, of a type with no
/// `Differentiable` (a data set of the user's), as `Inactive(&v)` binds it.
mod inactive_by_reference {
    use fwdad::drivers::{bind, Inactive, Var, Wrt};
    use fwdad::prelude::*;

    struct Sample {
        x: [f64; 2],
        y: f64,
    }

    struct Settings {
        l2: f64,
    }

    #[derive_frule(inactive(data, settings))]
    fn logistic_loss(w: &[f64], data: &[Sample], settings: &Settings) -> f64 {
        let mut l = 0.0;
        for s in data {
            let z = w[0] + w[1] * s.x[0] + w[2] * s.x[1];
            let p = 1.0 / (1.0 + (-z).exp());
            l -= s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln();
        }
        l / data.len() as f64 + settings.l2 * w.iter().map(|v| v * v).sum::<f64>()
    }

    #[allow(clippy::ptr_arg)] // a `&Vec` parameter, as users write it
    #[derive_frule(inactive(data))]
    fn shifted_sq(a: f64, b: f64, data: &Vec<f64>) -> f64 {
        data.iter().map(|d| (a * d - b).powi(2)).sum()
    }

    fn data() -> Vec<Sample> {
        (0..9)
            .map(|i| {
                let t = i as f64 * 0.7;
                Sample {
                    x: [t.sin(), t.cos()],
                    y: (i % 2) as f64,
                }
            })
            .collect()
    }

    #[test]
    fn gradient_with_a_plain_reference_to_user_data() {
        let data = data();
        let settings = Settings { l2: 0.01 };
        let w = [0.2, -0.5, 0.3];
        let (l, g) = gradient(bind(logistic_loss {}, (Wrt, &data[..], &settings)), &w);
        assert_eq!(l.to_bits(), logistic_loss(&w, &data, &settings).to_bits());
        // Closed form: Xᵀ(σ(Xw) − y)/n + 2·l2·w.
        let mut want = [0.0; 3];
        for s in &data {
            let z = w[0] + w[1] * s.x[0] + w[2] * s.x[1];
            let r = 1.0 / (1.0 + (-z).exp()) - s.y;
            want[0] += r / data.len() as f64;
            want[1] += r * s.x[0] / data.len() as f64;
            want[2] += r * s.x[1] / data.len() as f64;
        }
        for k in 0..3 {
            want[k] += 2.0 * settings.l2 * w[k];
            assert!((g[k] - want[k]).abs() < 1e-14, "{k}: {} {}", g[k], want[k]);
        }
        // The same as the explicit wrapper.
        let (_, g2) = gradient(
            bind(
                logistic_loss {},
                (Wrt, Inactive(&data[..]), Inactive(&settings)),
            ),
            &w,
        );
        assert_eq!(g, g2);
        // Second order: the Hessian of the L2 term is 2·l2·I plus the data term, symmetric.
        let (_, _, h) = hessian(bind(logistic_loss {}, (Wrt, &data[..], &settings)), &w);
        for i in 0..3 {
            for j in 0..3 {
                assert!((h[(i, j)] - h[(j, i)]).abs() < 1e-14);
            }
        }
        let fd = |i: usize, j: usize| {
            let e = 1e-5;
            let mut wp = w;
            wp[j] += e;
            let mut wm = w;
            wm[j] -= e;
            let (_, gp) = gradient(bind(logistic_loss {}, (Wrt, &data[..], &settings)), &wp);
            let (_, gm) = gradient(bind(logistic_loss {}, (Wrt, &data[..], &settings)), &wm);
            (gp[i] - gm[i]) / (2.0 * e)
        };
        for i in 0..3 {
            for j in 0..3 {
                assert!((h[(i, j)] - fd(i, j)).abs() < 1e-8);
            }
        }
    }

    #[test]
    fn scalar_variables_with_a_plain_reference_to_a_vec() {
        let data = vec![1.0, 2.0, 3.5];
        let (v, g) = gradient(bind(shifted_sq {}, (Var(0), Var(1), &data)), &[0.7, 0.2]);
        assert_eq!(v.to_bits(), shifted_sq(0.7, 0.2, &data).to_bits());
        let da: f64 = data.iter().map(|d| 2.0 * (0.7 * d - 0.2) * d).sum();
        let db: f64 = data.iter().map(|d| -2.0 * (0.7 * d - 0.2)).sum();
        assert!((g[0] - da).abs() < 1e-14 && (g[1] - db).abs() < 1e-14);
        let (_, d) = derivative(bind(shifted_sq {}, (Wrt, 0.2, &data)), 0.7);
        assert!((d - da).abs() < 1e-14);
    }
}
