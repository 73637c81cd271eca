//! Enums with data through `#[derive(Differentiable)]` and `#[derive_frule]`: a layer of
//! mixed activations, shapes as an enum with struct variants, tuple-struct and struct
//! patterns in `match`, `if let` and `let`, nested, with guards and `@` bindings.
//! Derivatives are taken with respect to float arguments *and* the floats inside the enum
//! values, checked against central finite differences (`test_frule`, which also checks that
//! the primal is bit-identical) in one direction and in a batch of 4, and second order
//! (`Hyper`) against a second-order central difference of the plain function.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::Hyper;
use num_traits::Float;
use std::f64::consts::PI;

// --- A layer of mixed activations -----------------------------------------------------

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Activation {
    Relu,
    LeakyRelu(f64),
    Elu { alpha: f64 },
    Tanh,
}

#[derive_frule]
fn activate(act: &Activation, x: f64) -> f64 {
    match act {
        Activation::Relu => x.max(0.0),
        Activation::LeakyRelu(slope) => {
            if x > 0.0 {
                x
            } else {
                slope * x
            }
        }
        Activation::Elu { alpha } => {
            if x > 0.0 {
                x
            } else {
                alpha * (x.exp() - 1.0)
            }
        }
        Activation::Tanh => x.tanh(),
    }
}

/// One dense layer, `out[i] = acts[i](Σ_j w[i][j] x[j] + b[i])`, summed into a scalar.
#[derive_frule]
fn layer(acts: &[Activation], w: &[f64], b: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let mut total = 0.0;
    for (i, act) in acts.iter().enumerate() {
        let mut z = b[i];
        for j in 0..n {
            z += w[i * n + j] * x[j];
        }
        total += activate(act, z);
    }
    total
}

fn layer_args() -> (Vec<Activation>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let acts = vec![
        Activation::LeakyRelu(0.1),
        Activation::Elu { alpha: 1.3 },
        Activation::Relu,
        Activation::Tanh,
        Activation::LeakyRelu(0.02),
        Activation::Elu { alpha: 0.7 },
    ];
    let w = vec![
        0.5, -0.3, 0.8, //
        -1.2, 0.4, -0.6, //
        0.9, 0.2, -0.1, //
        0.3, -0.7, 0.25, //
        -0.45, -0.15, 0.6, //
        0.1, -0.9, -0.35,
    ];
    let b = vec![-0.9, -0.2, 0.3, 0.1, 0.05, -0.4];
    let x = vec![0.7, 1.1, -0.4];
    (acts, w, b, x)
}

#[test]
fn layer_of_mixed_activations_matches_finite_differences() {
    let args = layer_args();
    // Pre-activations away from the kinks, so that finite differences are valid; some
    // negative (the data variants' slopes matter), some positive.
    let (acts, w, b, x) = &args;
    for i in 0..acts.len() {
        let z: f64 = b[i] + (0..3).map(|j| w[i * 3 + j] * x[j]).sum::<f64>();
        assert!(
            z.abs() > 0.05,
            "pre-activation {i} too close to a kink: {z}"
        );
    }
    test_frule(
        args.clone(),
        |a| layer(&a.0, &a.1, &a.2, &a.3),
        |a, da| {
            layer_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(&a.1[..], &da.1[..]),
                Dual::new(&a.2[..], &da.2[..]),
                Dual::new(&a.3[..], &da.3[..]),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| layer(&a.0, &a.1, &a.2, &a.3),
        |a, da| {
            <layer as Frule<_, Batch<f64, 4>>>::frule(
                &layer {},
                (
                    Dual::new(&a.0[..], &da.0[..]),
                    Dual::new(&a.1[..], &da.1[..]),
                    Dual::new(&a.2[..], &da.2[..]),
                    Dual::new(&a.3[..], &da.3[..]),
                ),
            )
        },
    );
}

#[test]
fn activation_parameters_have_their_analytic_derivatives() {
    // d/dslope (slope·x) = x for x < 0; d/dalpha alpha(eˣ − 1) = eˣ − 1.
    let x = -0.8_f64;
    let leaky = Dual::new(
        &Activation::LeakyRelu(0.1),
        &ActivationTangent::LeakyRelu(1.0),
    );
    let d = activate_frule(leaky, Dual::new(x, 0.0));
    assert_eq!(d.primal, activate(&Activation::LeakyRelu(0.1), x));
    assert_eq!(d.tangent, x);
    let elu = Dual::new(
        &Activation::Elu { alpha: 1.3 },
        &ActivationTangent::Elu { alpha: 1.0 },
    );
    let d = activate_frule(elu, Dual::new(x, 0.0));
    approx::assert_relative_eq!(d.tangent, x.exp() - 1.0, max_relative = 1e-15);
    // With respect to x: alpha·eˣ.
    let elu = Dual::new(
        &Activation::Elu { alpha: 1.3 },
        &ActivationTangent::Elu { alpha: 0.0 },
    );
    let d = activate_frule(elu, Dual::new(x, 1.0));
    approx::assert_relative_eq!(d.tangent, 1.3 * x.exp(), max_relative = 1e-15);
}

#[test]
#[should_panic(expected = "same variant")]
fn a_tangent_of_another_variant_is_an_error() {
    let act = Dual::new(
        &Activation::LeakyRelu(0.1),
        &ActivationTangent::Elu { alpha: 1.0 },
    );
    let _ = activate_frule(act, Dual::new(-0.5, 0.0));
}

// --- Shapes: an enum with struct variants ---------------------------------------------

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub enum Shape {
    Circle {
        r: f64,
    },
    Rect {
        w: f64,
        h: f64,
    },
    Ring {
        inner: f64,
        outer: f64,
    },
    /// A regular polygon of `n` sides of length `side`.
    Polygon {
        side: f64,
        n: usize,
    },
}

#[derive_frule]
impl Shape {
    fn area(&self) -> f64 {
        match self {
            Shape::Circle { r } => PI * r * r,
            Shape::Rect { w, h } => w * h,
            Shape::Ring { inner, outer } => PI * (outer * outer - inner * inner),
            Shape::Polygon { side, n } => {
                let k = *n as f64;
                k * side * side / (4.0 * (PI / k).tan())
            }
        }
    }

    fn perimeter(&self) -> f64 {
        match self {
            Shape::Circle { r } => 2.0 * PI * r,
            Shape::Rect { w, h } => 2.0 * (w + h),
            Shape::Ring { inner, outer } => 2.0 * PI * (inner + outer),
            Shape::Polygon { side, n } => *n as f64 * side,
        }
    }

    /// Polar moment of inertia about the centroid of a lamina of mass `mass`.
    fn moment_of_inertia(&self, mass: f64) -> f64 {
        match self {
            Shape::Circle { r } => 0.5 * mass * r * r,
            Shape::Rect { w, h } => mass * (w * w + h * h) / 12.0,
            Shape::Ring { inner, outer } => 0.5 * mass * (inner * inner + outer * outer),
            Shape::Polygon { side, n } => {
                let cot = 1.0 / (PI / *n as f64).tan();
                mass * side * side / 24.0 * (1.0 + 3.0 * cot * cot)
            }
        }
    }
}

/// `match *self` (the place, not a copy: `Shape` is not `Copy`) with `Self::` paths, and
/// `matches!` on a struct-variant pattern.
#[derive_frule]
impl Shape {
    fn size(&self) -> f64 {
        let round = matches!(self, Shape::Circle { .. } | Shape::Ring { .. });
        let s = match *self {
            Self::Circle { r } => 2.0 * r,
            Self::Rect { w, h } => w.hypot(h),
            Self::Ring { outer, .. } => 2.0 * outer,
            Self::Polygon { side, n } => side / (PI / n as f64).sin(),
        };
        if round {
            s
        } else {
            0.5 * s
        }
    }
}

#[test]
fn match_on_the_place_behind_self() {
    for s in shapes() {
        test_frule(
            (s,),
            |a| a.0.size(),
            |a, da| Shape::size_frule(Dual::new(&a.0, &da.0)),
        );
    }
}

/// Mass-weighted inertia of a set of laminae of density `rho`, plus their perimeter.
#[derive_frule]
fn assembly(shapes: &[Shape], rho: f64) -> f64 {
    let mut total = 0.0;
    for s in shapes {
        let m = rho * s.area();
        total += s.moment_of_inertia(m) + 0.1 * s.perimeter();
    }
    total
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape::Circle { r: 0.8 },
        Shape::Rect { w: 1.5, h: 0.4 },
        Shape::Ring {
            inner: 0.3,
            outer: 0.9,
        },
        Shape::Polygon { side: 0.6, n: 6 },
    ]
}

#[test]
fn shapes_match_finite_differences() {
    let args = (shapes(), 2.5);
    test_frule(
        args.clone(),
        |a| assembly(&a.0, a.1),
        |a, da| assembly_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| assembly(&a.0, a.1),
        |a, da| {
            <assembly as Frule<_, Batch<f64, 4>>>::frule(
                &assembly {},
                (Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
            )
        },
    );
}

#[test]
fn shape_formulas_have_their_analytic_derivatives() {
    // d/dr πr² = 2πr; d/dw (w·h) = h; hexagon: A = 3√3/2 s², dA/ds = 3√3 s.
    let c = Shape::Circle { r: 0.8 };
    let d = Shape::area_frule(Dual::new(&c, &ShapeTangent::Circle { r: 1.0 }));
    assert_eq!(d.primal, c.area());
    approx::assert_relative_eq!(d.tangent, 2.0 * PI * 0.8, max_relative = 1e-15);
    let r = Shape::Rect { w: 1.5, h: 0.4 };
    let d = Shape::area_frule(Dual::new(&r, &ShapeTangent::Rect { w: 1.0, h: 0.0 }));
    approx::assert_relative_eq!(d.tangent, 0.4, max_relative = 1e-15);
    let hex = Shape::Polygon { side: 0.6, n: 6 };
    let d = Shape::area_frule(Dual::new(
        &hex,
        &ShapeTangent::Polygon {
            side: 1.0,
            n: NoTangent,
        },
    ));
    approx::assert_relative_eq!(d.primal, 1.5 * 3f64.sqrt() * 0.36, max_relative = 1e-14);
    approx::assert_relative_eq!(d.tangent, 3.0 * 3f64.sqrt() * 0.6, max_relative = 1e-14);
    // Square as a 4-gon: I = m s²/6, dI/ds = m s/3.
    let sq = Shape::Polygon { side: 0.6, n: 4 };
    let d = Shape::moment_of_inertia_frule(
        Dual::new(
            &sq,
            &ShapeTangent::Polygon {
                side: 1.0,
                n: NoTangent,
            },
        ),
        Dual::new(2.0, 0.0),
    );
    approx::assert_relative_eq!(d.primal, 2.0 * 0.36 / 6.0, max_relative = 1e-14);
    approx::assert_relative_eq!(d.tangent, 2.0 * 0.6 / 3.0, max_relative = 1e-14);
}

/// Second order: the ε₁ε₂ part of a `Hyper` tangent against a central difference of the
/// plain function, `(f(+u+v) − f(+u−v) − f(−u+v) + f(−u−v)) / 4h²`.
fn check_second_order(
    n: usize,
    f: impl Fn(&[f64]) -> f64,
    rule: impl Fn(&[f64], &[Hyper<f64, f64>]) -> Dual<f64, Hyper<f64, f64>>,
    p: &[f64],
) {
    let h = 1e-4;
    for i in 0..n {
        for j in 0..n {
            let seeds: Vec<Hyper<f64, f64>> = (0..n)
                .map(|k| Hyper {
                    d1: if k == i { 1.0 } else { 0.0 },
                    d2: if k == j { 1.0 } else { 0.0 },
                    d12: 0.0,
                })
                .collect();
            let out = rule(p, &seeds);
            assert_eq!(out.primal.to_bits(), f(p).to_bits(), "primal");
            let at = |si: f64, sj: f64| {
                let mut q = p.to_vec();
                q[i] += si * h;
                q[j] += sj * h;
                f(&q)
            };
            let fd =
                (at(1.0, 1.0) - at(1.0, -1.0) - at(-1.0, 1.0) + at(-1.0, -1.0)) / (4.0 * h * h);
            let scale = fd.abs().max(1.0);
            assert!(
                (out.tangent.d12 - fd).abs() < 1e-5 * scale,
                "∂²/∂p{i}∂p{j}: {} vs finite difference {fd}",
                out.tangent.d12
            );
        }
    }
}

#[test]
fn shapes_second_order() {
    // Parameters: ring inner, ring outer, rect w, rect h, density.
    let f = |p: &[f64]| {
        let shapes = [
            Shape::Ring {
                inner: p[0],
                outer: p[1],
            },
            Shape::Rect { w: p[2], h: p[3] },
        ];
        assembly(&shapes, p[4])
    };
    let rule = |p: &[f64], s: &[Hyper<f64, f64>]| {
        let shapes = [
            Shape::Ring {
                inner: p[0],
                outer: p[1],
            },
            Shape::Rect { w: p[2], h: p[3] },
        ];
        let tangents = [
            ShapeTangent::Ring {
                inner: s[0],
                outer: s[1],
            },
            ShapeTangent::Rect { w: s[2], h: s[3] },
        ];
        <assembly as Frule<_, Hyper<f64, f64>>>::frule(
            &assembly {},
            (Dual::new(&shapes[..], &tangents[..]), Dual::new(p[4], s[4])),
        )
    };
    check_second_order(5, f, rule, &[0.3, 0.9, 1.5, 0.4, 2.5]);
}

#[test]
fn layer_second_order() {
    // Parameters: the leaky slope, the ELU alpha, and the input x (3 values); weights fixed.
    let (_, w, b, _) = layer_args();
    let acts = |p: &[f64]| {
        vec![
            Activation::LeakyRelu(p[0]),
            Activation::Elu { alpha: p[1] },
            Activation::Relu,
            Activation::Tanh,
        ]
    };
    let f = |p: &[f64]| layer(&acts(p), &w, &b, &p[2..5]);
    let rule = |p: &[f64], s: &[Hyper<f64, f64>]| {
        let zero = Hyper {
            d1: 0.0,
            d2: 0.0,
            d12: 0.0,
        };
        let tangents = [
            ActivationTangent::LeakyRelu(s[0]),
            ActivationTangent::Elu { alpha: s[1] },
            ActivationTangent::Relu,
            ActivationTangent::Tanh,
        ];
        let (dw, db) = (vec![zero; w.len()], vec![zero; b.len()]);
        <layer as Frule<_, Hyper<f64, f64>>>::frule(
            &layer {},
            (
                Dual::new(&acts(p)[..], &tangents[..]),
                Dual::new(&w[..], &dw[..]),
                Dual::new(&b[..], &db[..]),
                Dual::new(&p[2..5], &s[2..5]),
            ),
        )
    };
    check_second_order(5, f, rule, &[0.1, 1.3, 0.7, 1.1, -0.4]);
}

// --- Patterns: tuple structs, structs, nesting, guards, `@`, literals and ranges --------

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub struct V2(f64, f64);

#[derive(Differentiable, Clone, Debug, PartialEq)]
pub struct Body {
    pub pos: V2,
    pub mass: f64,
    pub id: usize,
}

/// `let` with a tuple-struct pattern and a struct pattern with `..`, nested.
#[derive_frule]
fn kinetic_like(b: &Body, v: V2) -> f64 {
    let V2(vx, vy) = v;
    let Body {
        pos: V2(x, y),
        mass,
        ..
    } = b;
    0.5 * mass * (vx * vx + vy * vy) + mass * 9.81 * y + 0.01 * x
}

#[test]
fn let_with_struct_patterns() {
    let args = (
        Body {
            pos: V2(0.3, 1.7),
            mass: 2.0,
            id: 7,
        },
        V2(0.4, -1.1),
    );
    test_frule(
        args.clone(),
        |a| kinetic_like(&a.0, a.1),
        |a, da| kinetic_like_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
    );
    test_frule_batched::<4, _, _>(
        args,
        |a| kinetic_like(&a.0, a.1),
        |a, da| {
            <kinetic_like as Frule<_, Batch<f64, 4>>>::frule(
                &kinetic_like {},
                (Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
            )
        },
    );
}

/// Nested patterns under `Option`, a guard on pattern bindings, an `@` binding, and
/// literals and ranges next to data patterns.
#[derive_frule]
fn pick_shape(level: u32, shape: Option<Shape>, x: f64) -> f64 {
    match (level, shape) {
        (0, _) => x,
        (_, None) => -x,
        (1..=3, Some(Shape::Circle { r })) => r * x,
        (_, Some(Shape::Rect { w, h })) if w > h => w * x - h,
        (_, Some(Shape::Rect { w, h })) => h * x - w,
        (_, Some(s @ Shape::Ring { .. })) => s.area() * x,
        (_, Some(other)) => other.perimeter() + x,
    }
}

/// `if let` with a nested struct-variant pattern.
#[derive_frule]
fn ring_width(shape: &Option<Shape>, fallback: f64) -> f64 {
    if let Some(Shape::Ring { inner, outer }) = shape {
        outer - inner
    } else {
        fallback
    }
}

#[test]
fn nested_guarded_and_at_patterns() {
    let cases = [
        (0, Some(Shape::Circle { r: 0.8 })),
        (2, None),
        (2, Some(Shape::Circle { r: 0.8 })),
        (5, Some(Shape::Circle { r: 0.8 })),
        (5, Some(Shape::Rect { w: 1.5, h: 0.4 })),
        (5, Some(Shape::Rect { w: 0.3, h: 0.4 })),
        (
            5,
            Some(Shape::Ring {
                inner: 0.3,
                outer: 0.9,
            }),
        ),
        (5, Some(Shape::Polygon { side: 0.6, n: 5 })),
    ];
    for (level, shape) in cases {
        let args = (level, shape.clone(), 1.3);
        test_frule(
            args.clone(),
            |a| pick_shape(a.0, a.1.clone(), a.2),
            |a, da| {
                pick_shape_frule(
                    Dual::constant(a.0),
                    Dual::new(a.1.clone(), da.1),
                    Dual::new(a.2, da.2),
                )
            },
        );
        test_frule_batched::<4, _, _>(
            args.clone(),
            |a| pick_shape(a.0, a.1.clone(), a.2),
            |a, da| {
                <pick_shape as Frule<_, Batch<f64, 4>>>::frule(
                    &pick_shape {},
                    (
                        Dual::constant(a.0),
                        Dual::new(a.1.clone(), da.1),
                        Dual::new(a.2, da.2),
                    ),
                )
            },
        );
        test_frule(
            (shape, 0.25),
            |a| ring_width(&a.0, a.1),
            |a, da| ring_width_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        );
    }
    // The guard reads the bindings: w > h picks w·x − h, d/dw = x, d/dh = −1.
    let d = pick_shape_frule(
        Dual::constant(5),
        Dual::new(
            Some(Shape::Rect { w: 1.5, h: 0.4 }),
            Some(ShapeTangent::Rect { w: 1.0, h: 0.0 }),
        ),
        Dual::new(1.3, 0.0),
    );
    assert_eq!(d.tangent, 1.3);
}

// --- Generic enums, `Vec` inside a variant, `skip` and integer fields --------------------

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Act<T> {
    Identity,
    Leaky(T),
    Softplus { beta: T },
}

#[derive_frule]
fn act_generic<T: Float>(a: &Act<T>, x: T) -> T {
    match a {
        Act::Identity => x,
        Act::Leaky(s) => {
            if x > T::zero() {
                x
            } else {
                *s * x
            }
        }
        Act::Softplus { beta } => (T::one() + (*beta * x).exp()).ln() / *beta,
    }
}

#[test]
fn generic_enum() {
    for act in [Act::Identity, Act::Leaky(0.2), Act::Softplus { beta: 1.7 }] {
        let args = (act, -0.6);
        test_frule(
            args,
            |a| act_generic(&a.0, a.1),
            |a, da| act_generic_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        );
        test_frule_batched::<4, _, _>(
            args,
            |a| act_generic(&a.0, a.1),
            |a, da| {
                <act_generic as Frule<_, Batch<f64, 4>>>::frule(
                    &act_generic {},
                    (Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
                )
            },
        );
    }
    // f32 too: d/dbeta of ln(1 + e^{βx})/β.
    let d = act_generic_frule(
        Dual::new(
            &Act::Softplus { beta: 2.0f32 },
            &ActTangent::Softplus { beta: 1.0 },
        ),
        Dual::new(0.5f32, 0.0),
    );
    let (b, x) = (2.0f64, 0.5f64);
    let expected = x / (1.0 + (-b * x).exp()) / b - (1.0 + (b * x).exp()).ln() / (b * b);
    approx::assert_relative_eq!(d.tangent as f64, expected, max_relative = 1e-5);
}

/// A piecewise profile: constant, or a table of samples with a name and a count.
#[derive(Differentiable, Clone, Debug, PartialEq)]
pub enum Profile {
    Constant(f64),
    Table {
        samples: Vec<f64>,
        #[differentiable(skip)]
        name: String,
        repeat: usize,
    },
}

#[derive_frule]
fn profile_integral(p: &Profile, length: f64) -> f64 {
    match p {
        Profile::Constant(c) => c * length,
        Profile::Table {
            samples, repeat, ..
        } => {
            // Trapezoid rule over evenly spaced samples, the table repeated `repeat` times.
            let n = samples.len();
            let dx = length / ((n - 1) as f64);
            let mut s = 0.0;
            for i in 0..n - 1 {
                s += 0.5 * (samples[i] + samples[i + 1]) * dx;
            }
            s * (*repeat as f64)
        }
    }
}

#[test]
fn vec_inside_a_variant_with_skip_and_integer_fields() {
    let table = Profile::Table {
        samples: vec![0.5, 1.5, 1.0, -0.25],
        name: "drag".to_string(),
        repeat: 3,
    };
    for p in [Profile::Constant(2.5), table] {
        let args = (p, 1.2);
        test_frule(
            args.clone(),
            |a| profile_integral(&a.0, a.1),
            |a, da| profile_integral_frule(Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
        );
        test_frule_batched::<4, _, _>(
            args,
            |a| profile_integral(&a.0, a.1),
            |a, da| {
                <profile_integral as Frule<_, Batch<f64, 4>>>::frule(
                    &profile_integral {},
                    (Dual::new(&a.0, &da.0), Dual::new(a.1, da.1)),
                )
            },
        );
    }
}

// --- Enums built in a derived body, `Result` matched with `Ok` --------------------------

/// Builds an activation from active values and returns it.
#[derive_frule]
fn fit_activation(x: f64, y: f64, leaky: bool) -> Activation {
    if leaky {
        Activation::LeakyRelu(y / x)
    } else {
        Activation::Elu { alpha: x * y }
    }
}

#[derive_frule]
fn checked_radius(area: f64) -> Result<f64, String> {
    if area > 0.0 {
        Ok((area / PI).sqrt())
    } else {
        Err("negative area".to_string())
    }
}

#[derive_frule]
fn circle_from_area(area: f64) -> Option<Shape> {
    match checked_radius(area) {
        Ok(r) => Some(Shape::Circle { r }),
        Err(_) => None,
    }
}

#[test]
fn enums_built_in_derived_bodies() {
    for leaky in [true, false] {
        test_frule(
            (0.8, -0.3),
            |a| fit_activation(a.0, a.1, leaky),
            |a, da| {
                fit_activation_frule(
                    Dual::new(a.0, da.0),
                    Dual::new(a.1, da.1),
                    Dual::constant(leaky),
                )
            },
        );
    }
    test_frule(
        (1.7,),
        |a| circle_from_area(a.0),
        |a, da| circle_from_area_frule(Dual::new(a.0, da.0)),
    );
    // r = √(A/π): dr/dA = 1/(2√(πA)).
    let d = circle_from_area_frule(Dual::new(1.7, 1.0));
    let Some(ShapeTangent::Circle { r: dr }) = d.tangent else {
        panic!("expected a circle's tangent, got {:?}", d.tangent);
    };
    approx::assert_relative_eq!(dr, 1.0 / (2.0 * (PI * 1.7).sqrt()), max_relative = 1e-15);
    assert_eq!(circle_from_area_frule(Dual::new(-1.0, 1.0)).primal, None);
}

// --- An enum with data none of which carries a tangent -----------------------------------

#[derive(Differentiable, Clone, Copy, Debug, PartialEq)]
pub enum Steps {
    Fixed(usize),
    Adaptive { max: usize, halve: bool },
}

/// Explicit Euler on y' = −k·y from y(0) = y0 over t = 1, in `n` steps.
#[derive_frule]
fn decay(y0: f64, k: f64, steps: Steps) -> f64 {
    let n = match steps {
        Steps::Fixed(n) => n,
        Steps::Adaptive { max, halve: true } => max / 2,
        Steps::Adaptive { max, .. } => max,
    };
    let h = 1.0 / n as f64;
    let mut y = y0;
    for _ in 0..n {
        y -= h * k * y;
    }
    y
}

#[test]
fn enum_without_tangent_data() {
    // y = y0 (1 − k/n)ⁿ: ∂y/∂k = −y0 (1 − k/n)ⁿ⁻¹.
    for (steps, n) in [
        (Steps::Fixed(8), 8),
        (
            Steps::Adaptive {
                max: 8,
                halve: true,
            },
            4,
        ),
        (
            Steps::Adaptive {
                max: 8,
                halve: false,
            },
            8,
        ),
    ] {
        let d = decay_frule(
            Dual::new(1.5, 0.0),
            Dual::new(0.7, 1.0),
            Dual::constant(steps),
        );
        assert_eq!(d.primal, decay(1.5, 0.7, steps));
        let base = 1.0 - 0.7 / n as f64;
        approx::assert_relative_eq!(d.tangent, -1.5 * base.powi(n - 1), max_relative = 1e-13);
        test_frule(
            (1.5, 0.7, steps),
            |a| decay(a.0, a.1, a.2),
            |a, da| {
                decay_frule(
                    Dual::new(a.0, da.0),
                    Dual::new(a.1, da.1),
                    Dual::new(a.2, da.2),
                )
            },
        );
    }
}
