//! Second-order drivers (`second_derivative`, `hessian`, `hvp`) on unmodified
//! `#[derive_frule]` functions, by forward-over-forward (`Hyper<f64, Batch<f64, N>>`).
//!
//! Checked against Hessians worked out by hand, against central finite differences of the
//! hand-written gradients, across batch widths (bit for bit), and against the one-entry
//! second-order mode (`Hyper<f64, f64>`, seeded with `d1 = eᵢ`, `d2 = eⱼ`). Includes the
//! perturbation-confusion test d/dx [x · d/dy (x + y)] = 1.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

use approx::assert_relative_eq;
use fwdad::drivers::{bind, hessian_with, hvp_with, second_derivative, Matrix, Wrt};
use fwdad::prelude::*;
use fwdad::Hyper;
use std::f64::consts::PI;

// ---------------------------------------------------------------------------------------
// Helpers (plain Rust, no AD)
// ---------------------------------------------------------------------------------------

/// Central differences of a hand-written gradient: an independent Hessian.
fn fd_hessian(grad: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Matrix {
    let n = x.len();
    let mut h = Matrix::zeros(n, n);
    for j in 0..n {
        let s = 1e-6 * x[j].abs().max(1.0);
        let mut xp = x.to_vec();
        let mut xm = x.to_vec();
        xp[j] += s;
        xm[j] -= s;
        let (gp, gm) = (grad(&xp), grad(&xm));
        for i in 0..n {
            h[(i, j)] = (gp[i] - gm[i]) / (2.0 * s);
        }
    }
    h
}

/// The Hessian entry by entry with one-direction second-order tangents
/// (`Hyper<f64, f64>`, d1 = eᵢ, d2 = eⱼ): the reference for the batched driver.
macro_rules! hessian_entrywise {
    ($rule:expr, $x:expr) => {{
        let x: &[f64] = $x;
        let n = x.len();
        let mut h = Matrix::zeros(n, n);
        for i in 0..n {
            for j in 0..n {
                let seeds: Vec<Hyper<f64, f64>> = (0..n)
                    .map(|k| Hyper {
                        d1: if k == i { 1.0 } else { 0.0 },
                        d2: if k == j { 1.0 } else { 0.0 },
                        d12: 0.0,
                    })
                    .collect();
                let y = Frule::<_, Hyper<f64, f64>>::frule(&$rule, (Dual::new(x, &seeds[..]),));
                h[(i, j)] = y.tangent.d12;
            }
        }
        h
    }};
}

/// `hessian` at widths 1, 4, 8 (default), 16 and 32 agree bit for bit; their upper
/// triangle equals the entrywise Hessian bit for bit (the lower one is its mirror);
/// value and gradient equal those of `gradient`. Returns the Hessian.
macro_rules! hessian_all_widths {
    ($rule:expr, $x:expr) => {{
        let x: &[f64] = $x;
        let n = x.len();
        let (v1, g1, h1) = hessian_with::<1>($rule, x);
        let (v4, g4, h4) = hessian_with::<4>($rule, x);
        let (v8, g8, h8) = hessian($rule, x);
        let (v16, g16, h16) = hessian_with::<16>($rule, x);
        let (v32, g32, h32) = hessian_with::<32>($rule, x);
        let (v, g) = gradient($rule, x);
        for (vw, gw, hw) in [
            (v1, &g1, &h1),
            (v4, &g4, &h4),
            (v16, &g16, &h16),
            (v32, &g32, &h32),
        ] {
            assert_eq!(vw.to_bits(), v8.to_bits());
            assert_eq!(gw, &g8);
            assert_eq!(hw, &h8);
        }
        assert_eq!(v8.to_bits(), v.to_bits());
        // `gradient` runs a first-order batch, where chains are linearised: the same
        // derivative summed in another order, so equal to rounding, not bit for bit.
        for (a, b) in g8.iter().zip(&g) {
            assert_relative_eq!(*a, *b, max_relative = 1e-14, epsilon = 1e-14);
        }
        let entrywise = hessian_entrywise!($rule, x);
        for i in 0..n {
            for j in i..n {
                assert_eq!(
                    h8[(i, j)].to_bits(),
                    entrywise[(i, j)].to_bits(),
                    "({i}, {j})"
                );
                assert_eq!(
                    h8[(j, i)].to_bits(),
                    entrywise[(i, j)].to_bits(),
                    "({j}, {i})"
                );
            }
        }
        h8
    }};
}

// ---------------------------------------------------------------------------------------
// Scalar second derivatives
// ---------------------------------------------------------------------------------------

#[test]
fn second_derivatives_of_scalar_functions() {
    for &x in &[0.2_f64, 0.7, 1.3] {
        let (v, d1, d2) = second_derivative(num2num_1 {}, x);
        assert_eq!(v.to_bits(), num2num_1(x).to_bits());
        let (s, c) = x.sin_cos();
        assert_relative_eq!(d1, 2.0 * s / c.powi(3), max_relative = 1e-14);
        assert_relative_eq!(
            d2,
            2.0 / (c * c) + 6.0 * s * s / c.powi(4),
            max_relative = 1e-13
        );

        let (v, d1, d2) = second_derivative(num2num_2 {}, x);
        assert_eq!(v, num2num_2(x));
        assert_relative_eq!(d1, 2.0 + 1.5 * x.sqrt(), max_relative = 1e-14);
        assert_relative_eq!(d2, 0.75 / x.sqrt(), max_relative = 1e-13);

        let (v, d1, d2) = second_derivative(num2num_3 {}, x);
        assert_eq!(v, num2num_3(x));
        let l = 10.31_f64.ln();
        let p = 10.31_f64.powf(2.0 * x);
        assert_relative_eq!(d1, 2.0 * l * p - 1.0, max_relative = 1e-14);
        assert_relative_eq!(d2, 4.0 * l * l * p, max_relative = 1e-13);

        let (s, d1, d2) = second_derivative(num2num_5 {}, x);
        assert_eq!(s, num2num_5(x));
        assert_relative_eq!(d1, s * (1.0 - s), max_relative = 1e-14);
        assert_relative_eq!(d2, s * (1.0 - s) * (1.0 - 2.0 * s), max_relative = 1e-12);

        // The first derivative agrees with `derivative` bit for bit.
        assert_eq!(d1.to_bits(), derivative(num2num_5 {}, x).1.to_bits());
    }
}

// ---------------------------------------------------------------------------------------
// Rosenbrock and Ackley
// ---------------------------------------------------------------------------------------

fn rosenbrock_hess_exact(x: &[f64]) -> Matrix {
    let n = x.len();
    let mut h = Matrix::zeros(n, n);
    for i in 0..n {
        if i + 1 < n {
            h[(i, i)] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
            h[(i, i + 1)] = -400.0 * x[i];
            h[(i + 1, i)] = -400.0 * x[i];
        }
        if i > 0 {
            h[(i, i)] += 200.0;
        }
    }
    h
}

/// With r = √(s₁/n), E = exp(−0.2 r), G = exp(s₂/n):
/// ∂ᵢ∂ⱼ f = (4/n) E [δᵢⱼ/r − xᵢxⱼ (0.2/(n r²) + 1/(n r³))]
///        + (2π/n) G [2π δᵢⱼ cos 2πxᵢ − (2π/n) sin 2πxᵢ sin 2πxⱼ].
fn ackley_hess_exact(x: &[f64]) -> Matrix {
    let nn = x.len();
    let n = nn as f64;
    let s1: f64 = x.iter().map(|v| v * v).sum();
    let s2: f64 = x.iter().map(|v| (2.0 * PI * v).cos()).sum();
    let (r, g) = ((s1 / n).sqrt(), (s2 / n).exp());
    let e = (-0.2 * r).exp();
    let mut h = Matrix::zeros(nn, nn);
    for i in 0..nn {
        for j in 0..nn {
            let d = if i == j { 1.0 } else { 0.0 };
            let a =
                4.0 / n * e * (d / r - x[i] * x[j] * (0.2 / (n * r * r) + 1.0 / (n * r.powi(3))));
            let b = 2.0 * PI / n
                * g
                * (2.0 * PI * d * (2.0 * PI * x[i]).cos()
                    - 2.0 * PI / n * (2.0 * PI * x[i]).sin() * (2.0 * PI * x[j]).sin());
            h[(i, j)] = a + b;
        }
    }
    h
}

#[test]
fn hessian_of_rosenbrock() {
    for n in [2, 5, 37] {
        let x = test_points(n, 11);
        let h = hessian_all_widths!(rosenbrock {}, &x);
        let (v, g, _) = hessian(rosenbrock {}, &x);
        assert_eq!(v.to_bits(), rosenbrock(&x).to_bits());
        let ge = rosenbrock_grad_exact(&x);
        for i in 0..n {
            assert_relative_eq!(g[i], ge[i], max_relative = 1e-13, epsilon = 1e-12);
        }
        assert_matrix_close(&h, &rosenbrock_hess_exact(&x), 1e-14, 1e-12, "exact");
        assert_matrix_close(
            &h,
            &fd_hessian(rosenbrock_grad_exact, &x),
            1e-6,
            1e-5,
            "finite differences",
        );
    }
    // At the minimum: the classic 2-D Hessian [[802, −400], [−400, 200]].
    let (v, g, h) = hessian(rosenbrock {}, &[1.0, 1.0]);
    assert_eq!((v, g), (0.0, vec![0.0, 0.0]));
    assert_eq!(h.to_rows(), [[802.0, -400.0], [-400.0, 200.0]]);
}

#[test]
fn hessian_of_ackley() {
    for n in [2, 7, 20] {
        let x = test_points(n, 12);
        let h = hessian_all_widths!(ackley {}, &x);
        assert_eq!(hessian(ackley {}, &x).0, ackley(&x));
        assert_matrix_close(&h, &ackley_hess_exact(&x), 1e-11, 1e-12, "exact");
        assert_matrix_close(
            &h,
            &fd_hessian(ackley_grad_exact, &x),
            1e-5,
            1e-7,
            "finite differences",
        );
    }
}

// ---------------------------------------------------------------------------------------
// Functions with constants, calls and branches
// ---------------------------------------------------------------------------------------

/// ½ xᵀA x + Σ xᵢ³/3 with A row-major, not necessarily symmetric:
/// ∇²f = (A + Aᵀ)/2 + diag(2x).
#[derive_frule]
fn quadratic_cubic(a: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        let mut ax = 0.0;
        for j in 0..n {
            ax += a[i * n + j] * x[j];
        }
        s += 0.5 * x[i] * ax + x[i] * x[i] * x[i] / 3.0;
    }
    s
}

/// Huber loss of one residual (a derived function called by another).
#[derive_frule]
fn huber(r: f64, delta: f64) -> f64 {
    if r.abs() <= delta {
        0.5 * r * r
    } else {
        delta * (r.abs() - 0.5 * delta)
    }
}

/// Σ huber(xᵢ − cᵢ) + ½ Σ log(1 + xᵢ²): calls, a branch, a constant slice.
#[derive_frule]
fn robust_objective(x: &[f64], c: &[f64], delta: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += huber(x[i] - c[i], delta) + 0.5 * (1.0 + x[i] * x[i]).ln();
    }
    s
}

#[test]
fn hessian_of_bound_functions() {
    let n = 13;
    let a = test_points(n * n, 13);
    let x = test_points(n, 14);
    let h = hessian_all_widths!(bind(quadratic_cubic {}, (&a[..], Wrt)), &x);
    let (v, _, _) = hessian(bind(quadratic_cubic {}, (&a[..], Wrt)), &x);
    assert_eq!(v, quadratic_cubic(&a, &x));
    let mut exact = Matrix::zeros(n, n);
    for i in 0..n {
        for j in 0..n {
            exact[(i, j)] = 0.5 * (a[i * n + j] + a[j * n + i]);
        }
        exact[(i, i)] += 2.0 * x[i];
    }
    assert_matrix_close(&h, &exact, 1e-14, 1e-14, "quadratic + cubic");

    // Huber: the second derivative is 1 inside the band and 0 outside; plus
    // (1 − x²)/(1 + x²)² from the log term. Diagonal Hessian.
    let c = test_points(n, 15);
    let delta = 0.8;
    let h = hessian_all_widths!(bind(robust_objective {}, (Wrt, &c[..], delta)), &x);
    let (v, _, _) = hessian(bind(robust_objective {}, (Wrt, &c[..], delta)), &x);
    assert_eq!(v, robust_objective(&x, &c, delta));
    for i in 0..n {
        for j in 0..n {
            let expected = if i != j {
                0.0
            } else {
                let inside = if (x[i] - c[i]).abs() <= delta {
                    1.0
                } else {
                    0.0
                };
                inside + (1.0 - x[i] * x[i]) / (1.0 + x[i] * x[i]).powi(2)
            };
            assert_relative_eq!(h[(i, j)], expected, max_relative = 1e-14, epsilon = 1e-15);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Hessian-vector products
// ---------------------------------------------------------------------------------------

#[test]
fn hvp_equals_hessian_times_vector() {
    for n in [1, 3, 37] {
        let x = test_points(n, 16);
        let v = test_points(n, 17);
        let exact_h = rosenbrock_hess_exact(&x);
        let exact = exact_h.mul_vec(&v);
        let (value, g, hv) = hvp(rosenbrock {}, &x, &v);
        assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
        assert_eq!(g, gradient(rosenbrock {}, &x).1);
        for i in 0..n {
            assert_relative_eq!(hv[i], exact[i], max_relative = 1e-12, epsilon = 1e-10);
        }
        // Every width gives the same product, bit for bit.
        for hw in [
            hvp_with::<1>(rosenbrock {}, &x, &v).2,
            hvp_with::<4>(rosenbrock {}, &x, &v).2,
            hvp_with::<16>(rosenbrock {}, &x, &v).2,
            hvp_with::<32>(rosenbrock {}, &x, &v).2,
        ] {
            assert_eq!(hw, hv);
        }
        // And the Ackley product against its exact Hessian.
        let (_, _, hv) = hvp(ackley {}, &x, &v);
        let exact = ackley_hess_exact(&x).mul_vec(&v);
        for i in 0..n {
            assert_relative_eq!(hv[i], exact[i], max_relative = 1e-10, epsilon = 1e-12);
        }
    }
}

/// `hvp` takes 8 directions per pass up to 48 inputs and 16 above (`hvp_width`),
/// `hessian` 8: each class at n = 1, at its boundaries and at lengths no width divides,
/// against the Hessians worked out by hand; the Hessian exactly symmetric.
#[test]
fn every_width_class_of_hvp_and_hessian() {
    assert_eq!(fwdad::drivers::hvp_width(48), 8);
    assert_eq!(fwdad::drivers::hvp_width(49), 16);
    for n in [1, 2, 7, 8, 9, 16, 17, 47, 48, 49, 50, 63, 100] {
        let x = test_points(n, 300 + n as u64);
        let v = test_points(n, 400 + n as u64);
        for (what, hv, exact) in [
            (
                "rosenbrock",
                hvp(rosenbrock {}, &x, &v),
                rosenbrock_hess_exact(&x),
            ),
            ("ackley", hvp(ackley {}, &x, &v), ackley_hess_exact(&x)),
        ] {
            let (_, _, hv) = hv;
            let want = exact.mul_vec(&v);
            for i in 0..n {
                assert!(
                    (hv[i] - want[i]).abs() <= 1e-10 * (1.0 + want[i].abs()),
                    "{what}, n = {n}, entry {i}: {} against {}",
                    hv[i],
                    want[i]
                );
            }
        }
        if n <= 50 {
            let (value, g, h) = hessian(ackley {}, &x);
            assert_eq!(value, ackley(&x));
            let ge = ackley_grad_exact(&x);
            for i in 0..n {
                assert_relative_eq!(g[i], ge[i], max_relative = 1e-12, epsilon = 1e-13);
                for j in 0..n {
                    assert_eq!(h[(i, j)].to_bits(), h[(j, i)].to_bits(), "n = {n}");
                }
            }
            assert_matrix_close(&h, &ackley_hess_exact(&x), 1e-10, 1e-12, "ackley, exact");
            let (_, _, h) = hessian(rosenbrock {}, &x);
            assert_matrix_close(
                &h,
                &rosenbrock_hess_exact(&x),
                1e-14,
                1e-12,
                "rosenbrock, exact",
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Perturbation confusion
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn x_plus_y(v: &[f64]) -> f64 {
    v[0] + v[1]
}

#[derive_frule]
fn x_times_y(v: &[f64]) -> f64 {
    v[0] * v[1]
}

/// d/dx [x · d/dy s(x, y)] = ∂s/∂y + x · ∂²s/∂x∂y, read off one `hessian` call.
fn outer_derivative(grad: &[f64], hess: &Matrix, x: f64) -> f64 {
    grad[1] + x * hess[(0, 1)]
}

#[test]
fn no_perturbation_confusion_through_the_drivers() {
    // The classic test: d/dx [x · d/dy (x + y)] at x = 1 is 1 (a confused AD gives 2).
    let x = 1.0;
    for y in [0.0, 2.5] {
        let (v, g, h) = hessian(x_plus_y {}, &[x, y]);
        assert_eq!(v, x_plus_y(&[x, y]));
        assert_eq!(h.to_rows(), [[0.0, 0.0], [0.0, 0.0]]);
        assert_eq!(outer_derivative(&g, &h, x), 1.0);
    }
    // A variant with a genuine mixed term: d/dx [x · d/dy (x·y)] = d/dx [x²] = 2x.
    for x in [1.0, -0.5, 3.0] {
        let (v, g, h) = hessian(x_times_y {}, &[x, 0.7]);
        assert_eq!(v, x_times_y(&[x, 0.7]));
        assert_eq!(h.to_rows(), [[0.0, 1.0], [1.0, 0.0]]);
        assert_eq!(outer_derivative(&g, &h, x), 2.0 * x);
    }
    // And second_derivative of x ↦ x·(x + y)|_{y=x}: d²/dx² (2x²) = 4.
    #[derive_frule]
    fn nested(x: f64) -> f64 {
        let v = [x, x];
        x * x_plus_y(&v[..])
    }
    assert_eq!(nested(1.0), 2.0);
    assert_eq!(second_derivative(nested {}, 1.0), (2.0, 4.0, 4.0));
}

#[test]
fn hessian_of_empty_and_one_dimensional_inputs() {
    #[derive_frule]
    fn total(x: &[f64]) -> f64 {
        let mut s = 0.25;
        for i in 0..x.len() {
            s += x[i].exp();
        }
        s
    }
    let (v, g, h) = hessian(total {}, &[]);
    assert_eq!(v, total(&[]));
    assert!(g.is_empty());
    assert_eq!(h.shape(), (0, 0));
    let (v, g, h) = hessian(total {}, &[0.5]);
    assert_eq!(v, total(&[0.5]));
    assert_eq!(g, [0.5f64.exp()]);
    assert_eq!(h.to_rows(), [[0.5f64.exp()]]);
}

// ---------------------------------------------------------------------------------------
// Hand-written rules through the drivers
// ---------------------------------------------------------------------------------------

/// softplus, with its derivative given by hand (the logistic function of x).
#[primitive(d = (x - y).exp())]
fn softplus(x: f64) -> f64 {
    x.exp().ln_1p()
}

#[derive_frule]
fn softplus_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += softplus(x[i]) * (i as f64 + 1.0);
    }
    s
}

#[test]
fn primitive_rules_work_in_every_driver() {
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    // The handle of a #[primitive] serves the second-order mode too (f'' from d_dual).
    for x in [-2.0, 0.3, 1.7] {
        let (v, d1, d2) = second_derivative(softplus {}, x);
        assert_eq!(v, softplus(x));
        assert_relative_eq!(d1, sigmoid(x), max_relative = 1e-15);
        assert_relative_eq!(d2, sigmoid(x) * (1.0 - sigmoid(x)), max_relative = 1e-14);
    }
    let x = [0.3, -1.0, 2.0];
    let (v, g, h) = hessian(softplus_sum {}, &x);
    assert_eq!(v, softplus_sum(&x));
    for i in 0..3 {
        let w = i as f64 + 1.0;
        assert_relative_eq!(g[i], w * sigmoid(x[i]), max_relative = 1e-15);
        for j in 0..3 {
            let exact = if i == j {
                w * sigmoid(x[i]) * (1.0 - sigmoid(x[i]))
            } else {
                0.0
            };
            assert_relative_eq!(h[(i, j)], exact, max_relative = 1e-14);
        }
    }
}
