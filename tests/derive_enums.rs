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
        assert!(z.abs() > 0.05, "pre-activation {i} too close to a kink: {z}");
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
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
    Ring { inner: f64, outer: f64 },
    /// A regular polygon of `n` sides of length `side`.
    Polygon { side: f64, n: usize },
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
            let fd = (at(1.0, 1.0) - at(1.0, -1.0) - at(-1.0, 1.0) + at(-1.0, -1.0)) / (4.0 * h * h);
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
        let tangents = vec![
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
