//! First-order drivers (`derivative`, `jvp`, `gradient`, `jacobian`) on DiffTests-style
//! functions written with `#[derive_frule]`: scalar → scalar, scalar → vector,
//! vector → scalar, vector → vector and in-place vector → vector.
//!
//! Each result is checked three ways: against derivatives worked out by hand (in the
//! `*_exact` functions, written independently of the rules), against central finite
//! differences of the plain function, and (for batched drivers) against the
//! column-by-column Jacobian of one-direction passes, which width 1 must equal bit for bit
//! and wider batches (4, 8, 16, 32: linearised, so the same among themselves bit for bit)
//! to rounding, including sizes that are not a multiple of the width.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

use approx::assert_relative_eq;
use fwdad::drivers::{
    bind, gradient_width, gradient_with, inplace, jacobian_width, jacobian_with, GradientWorkspace,
    JacobianWorkspace, Matrix, Out, Wrt,
};
use fwdad::prelude::*;
use fwdad::{Dual, Frule, Mode};
use std::cell::Cell;

// ---------------------------------------------------------------------------------------
// Helpers (plain Rust, no AD)
// ---------------------------------------------------------------------------------------

/// A one-direction tangent read as a flat list (what `jvp` returns for each result type).
trait Flat {
    fn flat(self) -> Vec<f64>;
}
impl Flat for f64 {
    fn flat(self) -> Vec<f64> {
        vec![self]
    }
}
impl Flat for Vec<f64> {
    fn flat(self) -> Vec<f64> {
        self
    }
}
impl<const M: usize> Flat for [f64; M] {
    fn flat(self) -> Vec<f64> {
        self.to_vec()
    }
}

fn unit(n: usize, j: usize) -> Vec<f64> {
    let mut e = vec![0.0; n];
    e[j] = 1.0;
    e
}

/// Central finite-difference Jacobian of a plain function, step scaled to each input.
fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Matrix {
    let m = f(x).len();
    let mut j = Matrix::zeros(m, x.len());
    for c in 0..x.len() {
        let h = 1e-6 * x[c].abs().max(1.0);
        let mut xp = x.to_vec();
        let mut xm = x.to_vec();
        xp[c] += h;
        xm[c] -= h;
        let (fp, fm) = (f(&xp), f(&xm));
        for r in 0..m {
            j[(r, c)] = (fp[r] - fm[r]) / (2.0 * h);
        }
    }
    j
}

fn assert_bits_eq(a: &Matrix, b: &Matrix, what: &str) {
    assert_eq!(a.shape(), b.shape(), "{what}: shapes");
    for i in 0..a.nrows() {
        for j in 0..a.ncols() {
            assert_eq!(
                a[(i, j)].to_bits(),
                b[(i, j)].to_bits(),
                "{what}: entry ({i}, {j}): {:e} vs {:e}",
                a[(i, j)],
                b[(i, j)]
            );
        }
    }
}

/// The Jacobian at every width (1, 4, 8, 16, 32) equals the one built column by column
/// from one-direction `jvp` passes (width 1 bit for bit, wider batches to rounding and bit
/// for bit among themselves); the values equal the plain function's. Returns
/// the Jacobian. `$rule` is an expression building the rule (evaluated once per pass).
macro_rules! jacobian_all_widths {
    ($rule:expr, $x:expr, $plain:expr) => {{
        let x: &[f64] = $x;
        let n = x.len();
        let plain: Vec<f64> = $plain;
        let mut cols = Matrix::zeros(plain.len(), n);
        for j in 0..n {
            let (_, t) = jvp($rule, x, &unit(n, j));
            let t = Flat::flat(t);
            for i in 0..plain.len() {
                cols[(i, j)] = t[i];
            }
        }
        let (v1, j1) = jacobian_with::<1>($rule, x);
        let (v4, j4) = jacobian_with::<4>($rule, x);
        let (v16, j16) = jacobian_with::<16>($rule, x);
        let (v32, j32) = jacobian_with::<32>($rule, x);
        let (v8, j8) = jacobian($rule, x);
        for v in [&v1, &v4, &v8, &v16, &v32] {
            assert_eq!(v.len(), plain.len());
            for i in 0..plain.len() {
                assert_eq!(v[i].to_bits(), plain[i].to_bits(), "value {i}");
            }
        }
        // Width 1 runs the one-direction arithmetic; wider batches linearise chains,
        // which sums the same derivative in another order: equal among themselves bit
        // for bit, and to the columns to rounding.
        assert_bits_eq(&j1, &cols, "width 1 vs columns");
        assert_bits_eq(&j4, &j8, "width 4 vs default width");
        assert_bits_eq(&j16, &j8, "width 16 vs default width");
        assert_bits_eq(&j32, &j8, "width 32 vs default width");
        assert_matrix_close(&j8, &cols, 1e-13, 1e-13, "default width vs columns");
        j8
    }};
}

// ---------------------------------------------------------------------------------------
// Scalar → scalar (DiffTests' NUMBER_TO_NUMBER)
// ---------------------------------------------------------------------------------------

/// The constant function (its derivative is an exact zero).
#[derive_frule]
fn num2num_4(x: f64) -> f64 {
    let _ = x;
    1.0
}

#[test]
fn derivative_of_scalar_functions() {
    for &x in &[0.2, 0.7, 1.3] {
        let (v, d) = derivative(num2num_1 {}, x);
        assert_eq!(v.to_bits(), num2num_1(x).to_bits());
        assert_relative_eq!(d, 2.0 * x.sin() / x.cos().powi(3), max_relative = 1e-14);

        let (v, d) = derivative(num2num_2 {}, x);
        assert_eq!(v, num2num_2(x));
        assert_relative_eq!(d, 2.0 + 1.5 * x.sqrt(), max_relative = 1e-14);

        let (v, d) = derivative(num2num_3 {}, x);
        assert_eq!(v, num2num_3(x));
        let l = 10.31_f64.ln();
        assert_relative_eq!(
            d,
            2.0 * l * 10.31_f64.powf(2.0 * x) - 1.0,
            max_relative = 1e-14
        );

        let (s, d) = derivative(num2num_5 {}, x);
        assert_relative_eq!(d, s * (1.0 - s), max_relative = 1e-14);

        assert_eq!(derivative(num2num_4 {}, x), (num2num_4(x), 0.0));

        // Finite differences of the plain functions.
        let h = 1e-6;
        for (f, rule_d) in [
            (num2num_1 as fn(f64) -> f64, derivative(num2num_1 {}, x).1),
            (num2num_2, derivative(num2num_2 {}, x).1),
            (num2num_3, derivative(num2num_3 {}, x).1),
            (num2num_5, derivative(num2num_5 {}, x).1),
        ] {
            let fd = (f(x + h) - f(x - h)) / (2.0 * h);
            assert_relative_eq!(rule_d, fd, max_relative = 1e-7);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Scalar → vector (DiffTests' NUMBER_TO_ARRAY)
// ---------------------------------------------------------------------------------------

#[derive_frule]
fn num2arr_1(x: f64) -> [f64; 4] {
    let a = num2num_1(x);
    let b = num2num_2(x);
    [a, b, num2num_3(x), a - b]
}

/// A helix with a growing radius, returned as a tuple.
#[derive_frule]
fn spiral(t: f64) -> (f64, f64, f64) {
    let r = 1.0 + t * t;
    (r * t.cos(), r * t.sin(), t)
}

#[test]
fn derivative_of_scalar_to_vector() {
    let x = 0.4_f64;
    let (v, d) = derivative(num2arr_1 {}, x);
    assert_eq!(v, num2arr_1(x));
    let d1 = 2.0 * x.sin() / x.cos().powi(3);
    let d2 = 2.0 + 1.5 * x.sqrt();
    let d3 = 2.0 * 10.31_f64.ln() * 10.31_f64.powf(2.0 * x) - 1.0;
    let exact = [d1, d2, d3, d1 - d2];
    for i in 0..4 {
        assert_relative_eq!(d[i], exact[i], max_relative = 1e-14);
    }

    let t = 0.8_f64;
    let (p, dp) = derivative(spiral {}, t);
    assert_eq!(p, spiral(t));
    let r = 1.0 + t * t;
    assert_relative_eq!(dp.0, 2.0 * t * t.cos() - r * t.sin(), max_relative = 1e-14);
    assert_relative_eq!(dp.1, 2.0 * t * t.sin() + r * t.cos(), max_relative = 1e-14);
    assert_eq!(dp.2, 1.0);
}

// ---------------------------------------------------------------------------------------
// Vector → scalar (DiffTests' VECTOR_TO_NUMBER)
// ---------------------------------------------------------------------------------------

/// DiffTests' vec2num_1: (exp(x₁) + log(x₃)·x₄) / x₅ (1-based).
#[derive_frule]
fn vec2num_1(x: &[f64]) -> f64 {
    (x[0].exp() + x[2].ln() * x[3]) / x[4]
}

/// DiffTests' vec2num_5: Σ (−xᵢ)³.
#[derive_frule]
fn vec2num_5(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (-x[i]).powi(3);
    }
    s
}

/// A piecewise function: the largest weighted entry (a one-hot gradient).
#[derive_frule]
fn weighted_max(x: &[f64]) -> f64 {
    let mut best = x[0];
    for i in 1..x.len() {
        let v = x[i] * (i as f64 + 1.0);
        if v > best {
            best = v;
        }
    }
    best
}

#[test]
fn gradient_of_rosenbrock_and_ackley() {
    for n in [2, 3, 7, 37] {
        let x = test_points(n, 1);
        let (v, g) = gradient(rosenbrock {}, &x);
        assert_eq!(v.to_bits(), rosenbrock(&x).to_bits());
        let exact = rosenbrock_grad_exact(&x);
        for i in 0..n {
            assert_relative_eq!(g[i], exact[i], max_relative = 1e-13, epsilon = 1e-12);
        }
        let fd = fd_jacobian(|x| vec![rosenbrock(x)], &x);
        for i in 0..n {
            assert_relative_eq!(g[i], fd[(0, i)], max_relative = 1e-6, epsilon = 1e-6);
        }

        let (v, g) = gradient(ackley {}, &x);
        assert_eq!(v.to_bits(), ackley(&x).to_bits());
        let exact = ackley_grad_exact(&x);
        for i in 0..n {
            assert_relative_eq!(g[i], exact[i], max_relative = 1e-12, epsilon = 1e-14);
        }
        let fd = fd_jacobian(|x| vec![ackley(x)], &x);
        for i in 0..n {
            assert_relative_eq!(g[i], fd[(0, i)], max_relative = 1e-6, epsilon = 1e-8);
        }
    }
}

#[test]
fn gradient_at_every_width_equals_columns() {
    let x = test_points(37, 2);
    for rule_j in [
        jacobian_all_widths!(rosenbrock {}, &x, vec![rosenbrock(&x)]),
        jacobian_all_widths!(ackley {}, &x, vec![ackley(&x)]),
        jacobian_all_widths!(vec2num_5 {}, &x, vec![vec2num_5(&x)]),
        jacobian_all_widths!(weighted_max {}, &x, vec![weighted_max(&x)]),
    ] {
        assert_eq!(rule_j.shape(), (1, 37));
    }
    // gradient_with agrees with the gradient row of jacobian_with.
    let (v4, g4) = gradient_with::<4>(rosenbrock {}, &x);
    let (v32, g32) = gradient_with::<32>(rosenbrock {}, &x);
    let (_, j) = jacobian_with::<4>(rosenbrock {}, &x);
    assert_eq!(v4, v32);
    assert_eq!(g4, j.row(0));
    assert_eq!(g32, j.row(0));
}

#[test]
fn gradient_of_difftests_vec2num() {
    let x = [0.3, -1.2, 2.5, 0.8, 1.7];
    let (v, g) = gradient(vec2num_1 {}, &x);
    assert_eq!(v, vec2num_1(&x));
    let num = x[0].exp() + x[2].ln() * x[3];
    let exact = [
        x[0].exp() / x[4],
        0.0,
        x[3] / (x[2] * x[4]),
        x[2].ln() / x[4],
        -num / (x[4] * x[4]),
    ];
    for i in 0..5 {
        assert_relative_eq!(g[i], exact[i], max_relative = 1e-14);
    }
    // The unused input has an exact zero derivative.
    assert_eq!(g[1], 0.0);

    let (_, g) = gradient(vec2num_5 {}, &x);
    for i in 0..5 {
        assert_relative_eq!(g[i], -3.0 * x[i] * x[i], max_relative = 1e-15);
    }

    // The arg max of x[i]·(i+1) is i = 4 (1.7·5): a one-hot gradient of weight 5.
    let (v, g) = gradient(weighted_max {}, &x);
    assert_eq!(v, 1.7 * 5.0);
    assert_eq!(g, [0.0, 0.0, 0.0, 0.0, 5.0]);
}

#[test]
fn empty_input_gives_value_and_empty_derivatives() {
    #[derive_frule]
    fn offset_sum(x: &[f64]) -> f64 {
        let mut s = 1.5;
        for i in 0..x.len() {
            s += x[i];
        }
        s
    }
    let (v, g) = gradient(offset_sum {}, &[]);
    assert_eq!((v, g), (offset_sum(&[]), []));
    let (v, j) = jacobian(offset_sum {}, &[]);
    assert_eq!(v, [1.5]);
    assert_eq!(j.shape(), (1, 0));
}

// ---------------------------------------------------------------------------------------
// Vector → vector (DiffTests' VECTOR_TO_VECTOR), out of place and in place
// ---------------------------------------------------------------------------------------

/// The trigonometric function of Moré, Garbow and Hillstrom, in place:
/// yᵢ = n − Σⱼ cos xⱼ + (i+1)(1 − cos xᵢ) − sin xᵢ.
#[derive_frule]
fn trigonometric(x: &[f64], y: &mut [f64]) {
    let n = x.len();
    let mut c = 0.0;
    for j in 0..n {
        c += x[j].cos();
    }
    for i in 0..n {
        y[i] = n as f64 - c + (i as f64 + 1.0) * (1.0 - x[i].cos()) - x[i].sin();
    }
}

fn trigonometric_plain(x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    trigonometric(x, &mut y);
    y
}

fn trigonometric_jac_exact(x: &[f64]) -> Matrix {
    let n = x.len();
    let mut j = Matrix::zeros(n, n);
    for r in 0..n {
        for c in 0..n {
            j[(r, c)] = x[c].sin();
        }
        j[(r, r)] += (r as f64 + 1.0) * x[r].sin() - x[r].cos();
    }
    j
}

/// Brown's almost-linear function, in place: yᵢ = xᵢ + Σ x − (n+1), y_last = Π x − 1.
#[derive_frule]
fn brown_almost_linear(x: &[f64], y: &mut [f64]) {
    let n = x.len();
    let mut s = 0.0;
    let mut p = 1.0;
    for j in 0..n {
        s += x[j];
        p *= x[j];
    }
    for i in 0..n - 1 {
        y[i] = x[i] + s - (n as f64 + 1.0);
    }
    y[n - 1] = p - 1.0;
}

fn brown_plain(x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    brown_almost_linear(x, &mut y);
    y
}

fn brown_jac_exact(x: &[f64]) -> Matrix {
    let n = x.len();
    let mut j = Matrix::zeros(n, n);
    for r in 0..n - 1 {
        for c in 0..n {
            j[(r, c)] = if r == c { 2.0 } else { 1.0 };
        }
    }
    for c in 0..n {
        j[(n - 1, c)] = (0..n).filter(|&k| k != c).map(|k| x[k]).product();
    }
    j
}

/// DiffTests' mutation test, in place: the output buffer is read back after writes.
#[derive_frule]
fn mutation_test(x: &[f64], y: &mut [f64]) {
    y[0] = x[0];
    y[0] *= x[1];
    y[1] = y[0] * x[2];
    y[2] = y[0] + y[1];
    y[2] *= x[0];
}

/// A fixed-size vector → vector map returning an array.
#[derive_frule]
fn vec2arr(x: &[f64]) -> [f64; 3] {
    [x[0] * x[1].exp(), x[1] / x[2], (x[0] * x[2]).atan()]
}

/// One dense layer, in place: y = tanh(W x + b), W row-major m × n.
#[derive_frule]
fn dense_tanh(w: &[f64], b: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..b.len() {
        let mut s = b[i];
        for j in 0..n {
            s += w[i * n + j] * x[j];
        }
        y[i] = s.tanh();
    }
}

#[test]
fn jacobian_of_in_place_functions_at_every_width() {
    for n in [1, 5, 37] {
        let x = test_points(n, 3);
        let j = jacobian_all_widths!(inplace(trigonometric {}, n), &x, trigonometric_plain(&x));
        assert_matrix_close(
            &j,
            &trigonometric_jac_exact(&x),
            1e-13,
            1e-13,
            "trigonometric: exact",
        );
        assert_matrix_close(
            &j,
            &fd_jacobian(trigonometric_plain, &x),
            1e-6,
            1e-7,
            "trigonometric: finite differences",
        );
    }
    for n in [2, 5, 37] {
        // Near 1, so that the product stays of order 1.
        let x: Vec<f64> = test_points(n, 4).iter().map(|v| 1.0 + 0.1 * v).collect();
        let j = jacobian_all_widths!(inplace(brown_almost_linear {}, n), &x, brown_plain(&x));
        assert_matrix_close(&j, &brown_jac_exact(&x), 1e-13, 1e-13, "brown: exact");
        assert_matrix_close(
            &j,
            &fd_jacobian(brown_plain, &x),
            1e-6,
            1e-7,
            "brown: finite differences",
        );
    }
}

#[test]
fn jacobian_of_mutation_test() {
    let x = [1.5, -2.0, 0.5];
    let plain = |x: &[f64]| {
        let mut y = vec![0.0; 3];
        mutation_test(x, &mut y);
        y
    };
    let j = jacobian_all_widths!(inplace(mutation_test {}, 3), &x, plain(&x));
    // y0 = x0 x1, y1 = x0 x1 x2, y2 = x0 (x0 x1 + x0 x1 x2) = x0² x1 (1 + x2).
    let (a, b, c) = (x[0], x[1], x[2]);
    let exact = Matrix::from_rows(&[
        [b, a, 0.0],
        [b * c, a * c, a * b],
        [2.0 * a * b * (1.0 + c), a * a * (1.0 + c), a * a * b],
    ]);
    assert_matrix_close(&j, &exact, 1e-15, 0.0, "mutation test: exact");
    assert_matrix_close(&j, &fd_jacobian(plain, &x), 1e-7, 1e-8, "mutation test: fd");
}

#[test]
fn jacobian_of_array_valued_function() {
    let x = [0.7, -0.3, 1.9];
    let j = jacobian_all_widths!(vec2arr {}, &x, vec2arr(&x).to_vec());
    let (a, b, c) = (x[0], x[1], x[2]);
    let d = 1.0 + (a * c) * (a * c);
    let exact = Matrix::from_rows(&[
        [b.exp(), a * b.exp(), 0.0],
        [0.0, 1.0 / c, -b / (c * c)],
        [c / d, 0.0, a / d],
    ]);
    assert_matrix_close(&j, &exact, 1e-15, 1e-16, "vec2arr: exact");
    assert_matrix_close(
        &j,
        &fd_jacobian(|x| vec2arr(x).to_vec(), &x),
        1e-7,
        1e-8,
        "vec2arr: fd",
    );
}

#[test]
fn jacobian_of_a_layer_in_its_input_and_in_its_weights() {
    let (m, n) = (6, 9);
    let w = test_points(m * n, 5);
    let b = test_points(m, 6);
    let x = test_points(n, 7);
    let layer = |w: &[f64], x: &[f64]| {
        let mut y = vec![0.0; m];
        dense_tanh(w, &b, x, &mut y);
        y
    };
    let y = layer(&w, &x);
    // tanh' = sech² z of the pre-activation z, as 1/cosh² z: `1 − y²` cancels where y is
    // near ±1 (relative error 1e-13 at z = 4.8, above this test's tolerance).
    let dy: Vec<f64> = (0..m)
        .map(|i| {
            let z = b[i] + (0..n).map(|j| w[i * n + j] * x[j]).sum::<f64>();
            1.0 / (z.cosh() * z.cosh())
        })
        .collect();

    // With respect to the input: J = diag(sech² z) W.
    let jx = jacobian_all_widths!(
        inplace(bind(dense_tanh {}, (&w[..], &b[..], Wrt, Out)), m),
        &x,
        y.clone()
    );
    let mut exact = Matrix::zeros(m, n);
    for i in 0..m {
        for j in 0..n {
            exact[(i, j)] = dy[i] * w[i * n + j];
        }
    }
    assert_matrix_close(&jx, &exact, 1e-14, 1e-15, "layer: d/dx exact");
    assert_matrix_close(
        &jx,
        &fd_jacobian(|x| layer(&w, x), &x),
        1e-6,
        1e-8,
        "layer: d/dx fd",
    );

    // With respect to the weights (54 inputs: two chunks of 32, the second padded):
    // ∂yᵢ/∂W_kl = δ_ik sech²(zᵢ) x_l.
    let jw = jacobian_all_widths!(
        inplace(bind(dense_tanh {}, (Wrt, &b[..], &x[..], Out)), m),
        &w,
        y.clone()
    );
    let mut exact = Matrix::zeros(m, m * n);
    for i in 0..m {
        for l in 0..n {
            exact[(i, i * n + l)] = dy[i] * x[l];
        }
    }
    assert_matrix_close(&jw, &exact, 1e-14, 0.0, "layer: d/dW exact");
    assert_matrix_close(
        &jw,
        &fd_jacobian(|w| layer(w, &x), &w),
        1e-6,
        1e-8,
        "layer: d/dW fd",
    );
}

#[test]
fn jvp_is_the_jacobian_times_the_direction() {
    let n = 11;
    let x = test_points(n, 8);
    let v = test_points(n, 9);
    let (y, jv) = jvp(inplace(trigonometric {}, n), &x, &v);
    assert_eq!(y, trigonometric_plain(&x));
    let exact = trigonometric_jac_exact(&x).mul_vec(&v);
    for i in 0..n {
        assert_relative_eq!(jv[i], exact[i], max_relative = 1e-13, epsilon = 1e-13);
    }
    let (r, dr) = jvp(rosenbrock {}, &x, &v);
    assert_eq!(r, rosenbrock(&x));
    let g = rosenbrock_grad_exact(&x);
    let exact: f64 = g.iter().zip(&v).map(|(a, b)| a * b).sum();
    assert_relative_eq!(dr, exact, max_relative = 1e-12);
}

#[test]
#[should_panic(expected = "direction's length")]
fn jvp_rejects_a_direction_of_the_wrong_length() {
    let _ = jvp(rosenbrock {}, &[1.0, 2.0], &[1.0]);
}

/// `JacobianWorkspace` keeps its seeds between calls (a single chunk stays seeded): over a
/// sequence of sizes that enters, leaves and re-enters the single-chunk case, every call
/// equals a fresh `jacobian_with` bit for bit and the exact Jacobian.
#[test]
fn jacobian_workspace_reuses_buffers_across_sizes() {
    let mut ws = JacobianWorkspace::<4>::new();
    for (k, n) in [3, 3, 4, 9, 2, 2, 4, 13, 1].into_iter().enumerate() {
        let x = test_points(n, 20 + k as u64);
        let (want_v, want_j) = jacobian_with::<4>(inplace(trigonometric {}, n), &x);
        let (v, j) = ws.jacobian(inplace(trigonometric {}, n), &x);
        assert_eq!(v, want_v, "values, n = {n}");
        assert_bits_eq(j, &want_j, &format!("workspace vs jacobian_with, n = {n}"));
        assert_matrix_close(j, &trigonometric_jac_exact(&x), 1e-13, 1e-13, "exact");
    }
}

/// `JacobianWorkspace::gradient` equals `gradient_with` bit for bit, and the exact
/// gradient, over sizes in and out of one chunk.
#[test]
fn gradient_through_a_workspace() {
    let mut ws = JacobianWorkspace::<8>::new();
    for (k, n) in [2, 8, 8, 20, 5].into_iter().enumerate() {
        let x = test_points(n, 40 + k as u64);
        let (want_v, want_g) = gradient_with::<8>(rosenbrock {}, &x);
        let (v, g) = ws.gradient(rosenbrock {}, &x);
        assert_eq!(v.to_bits(), want_v.to_bits());
        assert_eq!(g, &want_g[..], "n = {n}");
        for (a, b) in g.iter().zip(rosenbrock_grad_exact(&x)) {
            assert_relative_eq!(*a, b, max_relative = 1e-13, epsilon = 1e-13);
        }
    }
}

/// A rule that records how `gradient` calls it: the number of passes and the width of
/// their tangents (its mode's size in `f64`s), then runs the derived Ackley rule.
struct Recording<'c> {
    passes: &'c Cell<usize>,
    width: &'c Cell<usize>,
}

impl<'a, S: Mode> Frule<(Dual<&'a [f64], &'a [S]>,), S> for Recording<'_>
where
    ackley: Frule<(Dual<&'a [f64], &'a [S]>,), S>,
{
    type Output = <ackley as Frule<(Dual<&'a [f64], &'a [S]>,), S>>::Output;
    fn frule(&self, args: (Dual<&'a [f64], &'a [S]>,)) -> Self::Output {
        self.passes.set(self.passes.get() + 1);
        // The lanes of the mode (`Batch<f64, N>` or `MaybeZero<Batch<f64, N>>`).
        self.width.set(S::DYN_LANES);
        ackley {}.frule(args)
    }
}

/// `gradient` widens its passes with the input as `gradient_width` says on its first call
/// of a length (later calls time the widths, see `drivers_gradient_tuning.rs`), and
/// `GradientWorkspace` as it measured (observed through the rule's mode); both return the
/// exact gradient.
#[test]
fn gradient_widens_its_passes_for_large_inputs() {
    let mut ws = GradientWorkspace::new();
    let mut first_call = std::collections::HashSet::new();
    for (k, n) in [10, 63, 64, 100, 511, 512, 1000, 100, 3, 20, 22]
        .into_iter()
        .enumerate()
    {
        let x = test_points(n, 70 + k as u64);
        // One pass up to 32 inputs (`n` lanes rounded up to 4, 8, 10, 12, 16, 20 or 32),
        // then 16, and 32 from 256 on.
        let want_w = match n {
            0..=4 => 4,
            5..=8 => 8,
            9..=10 => 10,
            11..=12 => 12,
            13..=16 => 16,
            17..=20 => 20,
            21..=32 => 32,
            33..256 => 16,
            _ => 32,
        };
        assert_eq!(gradient_width(n), want_w, "n = {n}");
        let (passes, width) = (Cell::new(0), Cell::new(0));
        let rule = || Recording {
            passes: &passes,
            width: &width,
        };
        let (v, g) = gradient(rule(), &x);
        // The first call of a length takes `gradient_width`; a later one (n = 100 again)
        // may be one of the timed calls by which `gradient` chooses its width.
        if first_call.insert(n) {
            assert_eq!(width.get(), want_w, "gradient's width, n = {n}");
        } else {
            assert!(
                [8, 16, 32].contains(&width.get()),
                "gradient's width, n = {n}"
            );
        }
        assert_eq!(
            passes.get(),
            n.div_ceil(width.get()),
            "gradient's passes, n = {n}"
        );
        assert_eq!(v, ackley(&x));
        for (a, b) in g.iter().zip(ackley_grad_exact(&x)) {
            assert_relative_eq!(*a, b, max_relative = 1e-12, epsilon = 1e-13);
        }
        // The workspace (reused across sizes, in and out of order) takes the same width up
        // to 16 inputs; above, the width it measured fastest (its first call of a length
        // times all three). Either way it returns the same bits.
        ws.gradient(rule(), &x);
        let ws_w = ws.width(n).unwrap_or(want_w);
        assert!(
            n > 16 || ws.width(n).is_none(),
            "n = {n}: nothing to measure"
        );
        passes.set(0);
        let (wv, wg) = ws.gradient(rule(), &x);
        assert_eq!((width.get(), passes.get()), (ws_w, n.div_ceil(ws_w)));
        assert_eq!(wv.to_bits(), v.to_bits());
        assert_eq!(wg, &g[..], "workspace, n = {n}");
    }
}

/// `jacobian` takes 4 directions per pass up to 4 inputs, 8 up to 8 and 16 above
/// (`jacobian_width`): observed through the rule's mode, at n = 1, at each boundary and at
/// lengths no width divides, with the exact gradient every time.
#[test]
fn jacobian_takes_the_width_of_its_input_length() {
    for n in [1, 3, 4, 5, 8, 9, 15, 16, 17, 33, 40] {
        let want_w = match n {
            0..=4 => 4,
            5..=8 => 8,
            _ => 16,
        };
        assert_eq!(jacobian_width(n), want_w, "n = {n}");
        let x = test_points(n, 90 + n as u64);
        let (passes, width) = (Cell::new(0), Cell::new(0));
        let (v, j) = jacobian(
            Recording {
                passes: &passes,
                width: &width,
            },
            &x,
        );
        assert_eq!(width.get(), want_w, "jacobian's width, n = {n}");
        assert_eq!(
            passes.get(),
            n.div_ceil(want_w),
            "jacobian's passes, n = {n}"
        );
        assert_eq!(v, [ackley(&x)]);
        assert_eq!(j.shape(), (1, n));
        for (a, b) in j.row(0).iter().zip(ackley_grad_exact(&x)) {
            assert_relative_eq!(*a, b, max_relative = 1e-12, epsilon = 1e-13);
        }
    }
}

/// A polynomial model `p(t) = Σⱼ xⱼ tʲ` observed through `sin` at `m` times, plus a
/// coupling of each output to one coefficient: `rₖ = sin p(tₖ) + x_{k mod n} p(tₖ)`.
#[derive_frule]
fn observed_polynomial(x: &[f64], m: usize) -> Vec<f64> {
    let mut r = Vec::with_capacity(m);
    for k in 0..m {
        let t = (k as f64 + 1.0) / m as f64;
        let mut p = 0.0;
        let mut tj = 1.0;
        for j in 0..x.len() {
            p += x[j] * tj;
            tj *= t;
        }
        r.push(p.sin() + x[k % x.len()] * p);
    }
    r
}

/// ∂rₖ/∂xⱼ = (cos p + x_{k mod n}) tₖʲ + [j = k mod n] p, from the formula.
fn observed_polynomial_jacobian(x: &[f64], m: usize) -> Matrix {
    let n = x.len();
    let mut jac = Matrix::zeros(m, n);
    for k in 0..m {
        let t = (k as f64 + 1.0) / m as f64;
        let p: f64 = (0..n).map(|j| x[j] * t.powi(j as i32)).sum();
        for j in 0..n {
            jac[(k, j)] = (p.cos() + x[k % n]) * t.powi(j as i32);
        }
        jac[(k, k % n)] += p;
    }
    jac
}

/// Every width class of `jacobian` with more outputs than inputs and fewer, against the
/// formula and against central differences.
#[test]
fn jacobian_of_every_width_class_with_more_and_fewer_outputs() {
    for n in [1, 2, 4, 5, 7, 8, 9, 16, 17, 20] {
        for m in [1, 2, n + 3, 2 * n + 1] {
            let x = test_points(n, 200 + (n * m) as u64);
            let (r, jac) = jacobian(bind(observed_polynomial {}, (Wrt, m)), &x);
            assert_eq!(r, observed_polynomial(&x, m), "n = {n}, m = {m}");
            assert_eq!(jac.shape(), (m, n));
            let exact = observed_polynomial_jacobian(&x, m);
            for k in 0..m {
                for j in 0..n {
                    assert_relative_eq!(
                        jac[(k, j)],
                        exact[(k, j)],
                        max_relative = 1e-12,
                        epsilon = 1e-12
                    );
                }
            }
            let fd = fd_jacobian(|x| observed_polynomial(x, m), &x);
            for k in 0..m {
                for j in 0..n {
                    assert_relative_eq!(
                        jac[(k, j)],
                        fd[(k, j)],
                        max_relative = 1e-6,
                        epsilon = 1e-7
                    );
                }
            }
        }
    }
}
