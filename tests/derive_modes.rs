//! One derived rule, three tangent representations: single direction, a batch of
//! directions, and second order (`Hyper`), all checked against analytic derivatives.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::Hyper;

/// f(x, y) = x²·sin(y) + exp(x·y) / (1 + y²), with a loop and a branch in the way.
#[derive_frule]
fn f(x: f64, y: f64) -> f64 {
    let mut acc = 0.0;
    for _ in 0..2 {
        acc += 0.5 * x * x * y.sin();
    }
    let e = (x * y).exp() / (1.0 + y * y);
    if e > 1e6 {
        acc
    } else {
        acc + e
    }
}

fn grad(x: f64, y: f64) -> [f64; 2] {
    let d = 1.0 + y * y;
    let e = (x * y).exp();
    [
        2.0 * x * y.sin() + y * e / d,
        x * x * y.cos() + (x * e * d - e * 2.0 * y) / (d * d),
    ]
}

fn hessian(x: f64, y: f64) -> [[f64; 2]; 2] {
    // Central differences of the analytic gradient (independent of the rules).
    let h = 1e-5;
    let gx = |a: f64, b: f64| grad(a, b);
    let hxx = (gx(x + h, y)[0] - gx(x - h, y)[0]) / (2.0 * h);
    let hxy = (gx(x, y + h)[0] - gx(x, y - h)[0]) / (2.0 * h);
    let hyy = (gx(x, y + h)[1] - gx(x, y - h)[1]) / (2.0 * h);
    [[hxx, hxy], [hxy, hyy]]
}

#[test]
fn batch_of_two_gives_the_gradient_in_one_pass() {
    for &(x, y) in &[(0.3, 0.9), (-1.1, 0.4)] {
        let out = <f as Frule<_, Batch<f64, 2>>>::frule(
            &f {},
            (
                Dual::new(x, Batch([1.0, 0.0])),
                Dual::new(y, Batch([0.0, 1.0])),
            ),
        );
        assert_eq!(out.primal.to_bits(), f(x, y).to_bits());
        let g = grad(x, y);
        approx::assert_relative_eq!(out.tangent.0[0], g[0], max_relative = 1e-12);
        approx::assert_relative_eq!(out.tangent.0[1], g[1], max_relative = 1e-12);
        // Lane by lane, the batch equals the single-direction rule to rounding (each mode
        // simplifies its tangents its own way: one direction forms the quotient's tangent
        // as `(ȧ - y·ḃ)/b`, a batch from the partials `1/b` and `-y/b`; docs/design.md).
        let gx = f_frule(Dual::new(x, 1.0), Dual::new(y, 0.0)).tangent;
        let gy = f_frule(Dual::new(x, 0.0), Dual::new(y, 1.0)).tangent;
        approx::assert_relative_eq!(out.tangent.0[0], gx, max_relative = 1e-14);
        approx::assert_relative_eq!(out.tangent.0[1], gy, max_relative = 1e-14);
    }
}

#[test]
fn hyper_tangents_give_the_hessian() {
    let (x, y) = (0.3, 0.9);
    let h = hessian(x, y);
    let dirs = [[1.0, 0.0], [0.0, 1.0]];
    for (i, u) in dirs.iter().enumerate() {
        for (j, v) in dirs.iter().enumerate() {
            let seed = |k: usize| Hyper {
                d1: u[k],
                d2: v[k],
                d12: 0.0,
            };
            let out = <f as Frule<_, Hyper<f64, f64>>>::frule(
                &f {},
                (Dual::new(x, seed(0)), Dual::new(y, seed(1))),
            );
            approx::assert_relative_eq!(out.tangent.d12, h[i][j], max_relative = 1e-7);
            approx::assert_relative_eq!(out.tangent.d1, grad(x, y)[i], max_relative = 1e-12);
        }
    }
}

/// The classic perturbation-confusion test: d/dx [x · d/dy (x + y)] at x = 1 is 1.
/// With `Hyper`, the two levels are separate fields, so they cannot be confused.
#[derive_frule]
fn x_plus_y(x: f64, y: f64) -> f64 {
    x + y
}

#[test]
fn no_perturbation_confusion() {
    // Inner derivative d/dy (x + y) along ε₂, outer d/dx along ε₁, at x = 1, y = 0:
    // x · d/dy(x + y) = x · 1, whose derivative in x is 1 (a confused AD gives 2).
    let x = Dual::new(
        1.0,
        Hyper {
            d1: 1.0,
            d2: 0.0,
            d12: 0.0,
        },
    );
    let y = Dual::new(
        0.0,
        Hyper {
            d1: 0.0,
            d2: 1.0,
            d12: 0.0,
        },
    );
    let s = <x_plus_y as Frule<_, Hyper<f64, f64>>>::frule(&x_plus_y {}, (x, y));
    assert_eq!(s.primal, x_plus_y(1.0, 0.0));
    // x · s, then read the ε₁ε₂ part: d/dx (x · ∂s/∂y) = ∂s/∂y + x·∂²s/∂x∂y = 1.
    let p = x * s;
    assert_eq!(p.tangent.d12, 1.0);
}
