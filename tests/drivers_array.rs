//! The drivers at a fixed size: `jacobian_array`, `hessian_array` and `hvp_array` at an
//! array `[f64; N]`, their results arrays. Every derivative is checked against a closed
//! form (a 2-link arm, the Lorenz system, competitive Lotka-Volterra, Lorenz-96, an
//! exponential fit's residuals, Rosenbrock's Hessian) or central differences, at 2, 3, 4,
//! 6 and 12 × 3, past the one-pass limits (chunks), at one output, and for a rule whose
//! body is one chain (its Jacobian entry). The functions are asymmetric so that a
//! transposed result fails; every value is compared with the function's bit for bit.

// The functions index slices in loops, as their authors write them.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{
    hessian_array, hvp_array, jacobian_array, JacobianSink, SliceRule, HESSIAN_ARRAY_ONE_PASS,
    HVP_ARRAY_ONE_PASS, JACOBIAN_ARRAY_ONE_PASS,
};
use fwdad::prelude::*;

/// Tip of a planar arm of two links (`lengths`), joint angles `q`.
#[derive_frule]
fn arm_tip(q: &[f64; 2], lengths: &[f64; 2]) -> [f64; 2] {
    let a = q[0] + q[1];
    [
        lengths[0] * q[0].cos() + lengths[1] * a.cos(),
        lengths[0] * q[0].sin() + lengths[1] * a.sin(),
    ]
}

/// The Lorenz system's right-hand side, σ = 10, ρ = 28, β = 8/3.
#[derive_frule]
fn lorenz(u: &[f64]) -> [f64; 3] {
    let (sigma, rho, beta) = (10.0, 28.0, 8.0 / 3.0);
    [
        sigma * (u[1] - u[0]),
        u[0] * (rho - u[2]) - u[1],
        u[0] * u[1] - beta * u[2],
    ]
}

/// Growth rates and competition matrix of four species (asymmetric).
const R: [f64; 4] = [1.0, 0.72, 1.53, 1.27];
const A: [[f64; 4]; 4] = [
    [1.0, 1.09, 1.52, 0.0],
    [0.0, 1.0, 0.44, 1.36],
    [2.33, 0.0, 1.0, 0.47],
    [1.21, 0.51, 0.35, 1.0],
];

/// Competitive Lotka-Volterra: `ẋᵢ = rᵢ xᵢ (1 - Σⱼ aᵢⱼ xⱼ)`, the right-hand side an implicit
/// integrator's Newton matrix needs the Jacobian of.
#[derive_frule]
fn lotka_volterra(x: [f64; 4]) -> [f64; 4] {
    let mut dx = [0.0; 4];
    for i in 0..4 {
        let mut crowd = 0.0;
        for j in 0..4 {
            crowd += A[i][j] * x[j];
        }
        dx[i] = R[i] * x[i] * (1.0 - crowd);
    }
    dx
}

/// Lorenz-96 with six states and forcing 8: `ẋᵢ = (xᵢ₊₁ - xᵢ₋₂) xᵢ₋₁ - xᵢ + F`, cyclic.
#[derive_frule]
fn lorenz96(x: &[f64; 6]) -> [f64; 6] {
    let n = 6;
    let mut dx = [0.0; 6];
    for i in 0..n {
        dx[i] = (x[(i + 1) % n] - x[(i + n - 2) % n]) * x[(i + n - 1) % n] - x[i] + 8.0;
    }
    dx
}

const FIT_T: [f64; 12] = [
    0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0,
];
const FIT_Y: [f64; 12] = [
    3.02, 2.41, 1.98, 1.63, 1.37, 1.18, 1.03, 0.92, 0.84, 0.72, 0.66, 0.61,
];

/// Residuals of `a e^{-k t} + c` against 12 observations (12 × 3).
#[derive_frule]
fn exp_fit(p: &[f64]) -> [f64; 12] {
    let mut r = [0.0; 12];
    for i in 0..12 {
        r[i] = p[0] * (-p[1] * FIT_T[i]).exp() + p[2] - FIT_Y[i];
    }
    r
}

/// A recurrence through the stages, every state an output (a dense lower triangle and a
/// band above it).
#[derive_frule]
fn chain20(x: &[f64]) -> [f64; 20] {
    let mut y = [0.0; 20];
    let mut s = 0.0;
    for i in 0..20 {
        s = (0.5 * s + x[i]).sin() + 0.3 * x[i] * x[(i + 7) % 20];
        y[i] = s;
    }
    y
}

/// The same recurrence through 40 stages.
#[derive_frule]
fn chain40(x: &[f64]) -> [f64; 40] {
    let mut y = [0.0; 40];
    let mut s = 0.0;
    for i in 0..40 {
        s = (0.5 * s + x[i]).sin() + 0.3 * x[i] * x[(i + 7) % 40];
        y[i] = s;
    }
    y
}

/// Polar to Cartesian: one straight chain, so its rule writes its Jacobian entry.
#[derive_frule]
fn polar(p: &[f64]) -> [f64; 2] {
    [p[0] * p[1].cos(), p[0] * p[1].sin()]
}

#[derive_frule]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    s
}

/// A log-sum-exp of weighted inputs plus a coupling: a dense, non-polynomial Hessian.
#[derive_frule]
fn soft_energy(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += ((i as f64 + 1.0) * 0.3 * x[i]).exp();
    }
    s.ln() + x[0] * x[x.len() - 1].sin()
}

/// Rosenbrock's Hessian in closed form.
fn rosenbrock_hessian<const N: usize>(x: &[f64; N]) -> [[f64; N]; N] {
    let mut h = [[0.0; N]; N];
    for i in 0..N - 1 {
        h[i][i] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
        h[i + 1][i + 1] += 200.0;
        h[i][i + 1] -= 400.0 * x[i];
        h[i + 1][i] -= 400.0 * x[i];
    }
    h
}

/// Rosenbrock's gradient in closed form.
fn rosenbrock_gradient<const N: usize>(x: &[f64; N]) -> [f64; N] {
    let mut g = [0.0; N];
    for i in 0..N - 1 {
        let t = x[i + 1] - x[i] * x[i];
        g[i] += -400.0 * x[i] * t - 2.0 * (1.0 - x[i]);
        g[i + 1] += 200.0 * t;
    }
    g
}

/// Central differences of each output of `f` along each input: `J[i][j]`.
fn central_jacobian<const N: usize, const M: usize>(
    f: impl Fn(&[f64; N]) -> [f64; M],
    x: &[f64; N],
    h: f64,
) -> [[f64; N]; M] {
    let mut jac = [[0.0; N]; M];
    for j in 0..N {
        let (mut up, mut down) = (*x, *x);
        up[j] += h;
        down[j] -= h;
        let (fu, fd) = (f(&up), f(&down));
        for i in 0..M {
            jac[i][j] = (fu[i] - fd[i]) / (2.0 * h);
        }
    }
    jac
}

fn assert_close<const N: usize, const M: usize>(
    what: &str,
    got: &[[f64; N]; M],
    want: &[[f64; N]; M],
    tol: f64,
) {
    for i in 0..M {
        for j in 0..N {
            let scale = want[i][j].abs().max(1.0);
            assert!(
                (got[i][j] - want[i][j]).abs() <= tol * scale,
                "{what}: entry ({i}, {j}) is {}, expected {}",
                got[i][j],
                want[i][j]
            );
        }
    }
}

#[test]
fn two_link_arm_2x2_against_its_closed_form() {
    let lengths = [0.8, 0.45];
    for q in [[0.3, 0.9], [-1.2, 2.5], [0.0, 0.0]] {
        let (p, j) = jacobian_array(bind(arm_tip {}, (Wrt, &lengths)), &q);
        assert_eq!(p, arm_tip(&q, &lengths));
        let a = q[0] + q[1];
        let want = [
            [
                -lengths[0] * q[0].sin() - lengths[1] * a.sin(),
                -lengths[1] * a.sin(),
            ],
            [
                lengths[0] * q[0].cos() + lengths[1] * a.cos(),
                lengths[1] * a.cos(),
            ],
        ];
        assert_close("arm", &j, &want, 1e-15);
    }
}

#[test]
fn lorenz_3x3_against_its_closed_form() {
    let u = [1.3, -0.4, 22.0];
    let (v, j) = jacobian_array(lorenz {}, &u);
    assert_eq!(v, lorenz(&u));
    let want = [
        [-10.0, 10.0, 0.0],
        [28.0 - u[2], -1.0, -u[0]],
        [u[1], u[0], -8.0 / 3.0],
    ];
    assert_close("lorenz", &j, &want, 1e-15);
}

#[test]
fn lotka_volterra_4x4_against_its_closed_form() {
    let x = [0.3, 0.41, 0.12, 0.28];
    let (v, j) = jacobian_array(bind(lotka_volterra {}, (Wrt,)), &x);
    assert_eq!(v, lotka_volterra(x));
    let mut want = [[0.0; 4]; 4];
    for i in 0..4 {
        let crowd: f64 = (0..4).map(|k| A[i][k] * x[k]).sum();
        for k in 0..4 {
            let diag = if i == k { 1.0 - crowd } else { 0.0 };
            want[i][k] = R[i] * (diag - x[i] * A[i][k]);
        }
    }
    assert_close("lotka-volterra", &j, &want, 1e-14);
}

#[test]
fn lorenz96_6x6_against_its_closed_form() {
    let x = [8.01, 0.3, -1.2, 2.5, 7.1, -3.3];
    let (v, j) = jacobian_array(bind(lorenz96 {}, (Wrt,)), &x);
    assert_eq!(v, lorenz96(&x));
    let n = 6;
    let mut want = [[0.0; 6]; 6];
    for i in 0..n {
        let (ip, im1, im2) = ((i + 1) % n, (i + n - 1) % n, (i + n - 2) % n);
        want[i][ip] += x[im1];
        want[i][im2] -= x[im1];
        want[i][im1] += x[ip] - x[im2];
        want[i][i] -= 1.0;
    }
    assert_close("lorenz-96", &j, &want, 1e-15);
}

#[test]
fn exponential_fit_12x3_against_its_closed_form() {
    let p = [2.5, 1.1, 0.6];
    let (r, j) = jacobian_array(exp_fit {}, &p);
    assert_eq!(r, exp_fit(&p));
    let want: [[f64; 3]; 12] = core::array::from_fn(|i| {
        let e = (-p[1] * FIT_T[i]).exp();
        [e, -p[0] * FIT_T[i] * e, 1.0]
    });
    assert_close("exp fit", &j, &want, 1e-15);
}

#[test]
fn a_scalar_result_is_one_row() {
    let x = [0.4, -1.1, 0.9];
    let (v, j): ([f64; 1], [[f64; 3]; 1]) = jacobian_array(rosenbrock {}, &x);
    assert_eq!(v, [rosenbrock(&x)]);
    assert_close("rosenbrock row", &j, &[rosenbrock_gradient(&x)], 1e-14);
}

#[test]
fn twenty_inputs_in_one_pass_and_forty_in_chunks() {
    let x: [f64; 20] = core::array::from_fn(|i| 0.1 * i as f64 - 0.7);
    let (y, j) = jacobian_array(chain20 {}, &x);
    assert_eq!(y, chain20(&x));
    let want = central_jacobian(|y| chain20(y), &x, 1e-6);
    assert_close("chain of 20", &j, &want, 1e-8);

    const { assert!(40 > JACOBIAN_ARRAY_ONE_PASS) };
    let x: [f64; 40] = core::array::from_fn(|i| 0.05 * i as f64 - 0.9);
    let (y, j) = jacobian_array(chain40 {}, &x);
    assert_eq!(y, chain40(&x));
    let want = central_jacobian(|y| chain40(y), &x, 1e-6);
    assert_close("chain of 40", &j, &want, 1e-8);
}

/// Whether `f`'s rule has a Jacobian entry (a body of one chain), asked as the drivers do.
fn has_jacobian_entry<F: SliceRule<Batch<f64, 2>>>(f: &F, x: &[f64]) -> bool {
    struct Discard;
    impl JacobianSink for Discard {
        fn rows(&mut self, _: usize) {}
        fn value(&mut self, _: usize, _: f64) {}
        fn add(&mut self, _: usize, _: usize, _: f64) {}
    }
    let dx = vec![Batch::<f64, 2>::default(); x.len()];
    f.eval_jacobian(x, &dx, &mut Discard)
}

#[test]
fn a_rule_of_one_chain_writes_its_jacobian_entry() {
    let p = [2.0, 0.5];
    assert!(has_jacobian_entry(&polar {}, &p));
    let (xy, j) = jacobian_array(polar {}, &p);
    assert_eq!(xy, polar(&p));
    let want = [
        [p[1].cos(), -p[0] * p[1].sin()],
        [p[1].sin(), p[0] * p[1].cos()],
    ];
    assert_close("polar", &j, &want, 1e-15);
    // Called again: nothing kept between calls.
    assert_eq!(jacobian_array(polar {}, &p), (xy, j));
}

#[test]
fn rosenbrock_hessians_at_every_size_against_the_closed_form() {
    fn check<const N: usize>(x: [f64; N]) {
        let (v, g, h) = hessian_array(rosenbrock {}, &x);
        assert_eq!(v, rosenbrock(&x), "value, n = {N}");
        assert_close("gradient", &[g], &[rosenbrock_gradient(&x)], 1e-14);
        assert_close("hessian", &h, &rosenbrock_hessian(&x), 1e-14);
    }
    check([0.5, 1.5]);
    check([0.5, 1.5, -0.7]);
    check([0.5, 1.5, -0.7, 0.2]);
    check([0.5, 1.5, -0.7, 0.2, 1.1, -0.3]);
    check([0.5, 1.5, -0.7, 0.2, 1.1, -0.3, 0.9, 0.4]);
    // Past the one-pass limit: chunks of 8 rows.
    const { assert!(12 > HESSIAN_ARRAY_ONE_PASS) };
    check(core::array::from_fn::<f64, 12, _>(|i| 0.2 * i as f64 - 1.0));
}

#[test]
fn a_dense_hessian_against_central_differences_of_the_gradient() {
    fn check<const N: usize>(x: [f64; N]) {
        let (v, g, h) = hessian_array(soft_energy {}, &x);
        assert_eq!(v, soft_energy(&x));
        let grad = |y: &[f64; N]| -> [f64; N] {
            let (_, g) = gradient(soft_energy {}, y);
            g
        };
        assert_close(
            "gradient",
            &[g],
            &[central_jacobian(|y| [soft_energy(y)], &x, 1e-6)[0]],
            1e-8,
        );
        assert_close("hessian", &h, &central_jacobian(grad, &x, 1e-6), 1e-7);
        for i in 0..N {
            for j in 0..N {
                assert_eq!(h[i][j], h[j][i], "exactly symmetric");
            }
        }
    }
    check([0.3, -0.2, 0.8]);
    check([0.3, -0.2, 0.8, 0.1, -0.5, 0.4]);
    check(core::array::from_fn::<f64, 11, _>(|i| 0.1 * i as f64 - 0.4));
}

#[test]
fn hessian_vector_products_against_the_closed_form() {
    fn check<const N: usize>(x: [f64; N], v: [f64; N]) {
        let (val, g, hv) = hvp_array(rosenbrock {}, &x, &v);
        assert_eq!(val, rosenbrock(&x));
        assert_close("gradient", &[g], &[rosenbrock_gradient(&x)], 1e-14);
        let h = rosenbrock_hessian(&x);
        let want: [f64; N] = core::array::from_fn(|i| (0..N).map(|j| h[i][j] * v[j]).sum());
        assert_close("H v", &[hv], &[want], 1e-13);
    }
    check([0.5, 1.5], [1.0, -2.0]);
    check([0.5, 1.5, -0.7, 0.2], [0.3, 1.0, -2.0, 0.5]);
    check(
        [0.5, 1.5, -0.7, 0.2, 1.1, -0.3],
        [1.0, 0.0, -1.0, 0.5, 2.0, 0.1],
    );
    check(
        core::array::from_fn::<f64, 11, _>(|i| 0.2 * i as f64 - 1.0),
        core::array::from_fn::<f64, 11, _>(|i| (i as f64).cos()),
    );
    // Past the one-pass limit: passes of 8.
    const { assert!(14 > HVP_ARRAY_ONE_PASS) };
    check(
        core::array::from_fn::<f64, 14, _>(|i| 0.2 * i as f64 - 1.0),
        core::array::from_fn::<f64, 14, _>(|i| (i as f64).cos()),
    );
}
