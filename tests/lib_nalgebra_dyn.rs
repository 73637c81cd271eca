//! nalgebra's dynamically sized `DVector`, `DMatrix`, `RowDVector` inside derived bodies
//! (feature `nalgebra`), and library constants whose scalar is not written
//! (`Matrix3::identity()`), written as data scientists write them: a least-squares
//! residual, a Gaussian-process quadratic form through `cholesky().solve`, a softmax.
//! Derivatives are checked against central finite differences of the plain functions in
//! one direction, batched (`Batch<f64, 4>`) and at second order (`Hyper`), primals bit
//! for bit.
//!
//! Run with `cargo test --features nalgebra --test lib_nalgebra_dyn`.
use fwdad::prelude::*;
use fwdad::{Batch, Hyper};
use nalgebra::{DMatrix, DVector, Matrix3, RowDVector, SVector, Vector3};

/// Half the squared residual of a linear least-squares fit, `½ |A x − b|²`.
#[derive_frule]
fn least_squares(x: &DVector<f64>, a: &DMatrix<f64>, b: &DVector<f64>) -> f64 {
    let r = a * x - b;
    0.5 * r.norm_squared()
}

/// The quadratic form `dᵀ K⁻¹ d` of a Gaussian process's log-likelihood, with `K` the
/// kernel matrix plus noise, through its Cholesky factor.
#[derive_frule]
fn gp_quadratic(d: &DVector<f64>, k: &DMatrix<f64>, noise: f64) -> f64 {
    let n = d.len();
    let kn = k + DMatrix::identity(n, n) * noise;
    let chol = kn.cholesky().expect("positive definite");
    let z = chol.solve(d);
    d.dot(&z)
}

/// The log-probability of class `y` under a softmax of the scores `w · features`.
#[derive_frule]
fn softmax_log_prob(w: &DMatrix<f64>, features: &DVector<f64>, y: usize) -> f64 {
    let scores = w * features;
    let m = scores.max();
    let mut total = 0.0;
    for i in 0..scores.len() {
        total += (scores[i] - m).exp();
    }
    scores[y] - m - total.ln()
}

/// A parameter vector given as a slice, assembled into a `DVector`, weighted by a row.
#[derive_frule]
fn weighted_energy(theta: &[f64], weights: &RowDVector<f64>) -> f64 {
    let v = DVector::from_column_slice(theta);
    let e = weights * v.component_mul(&v);
    e[0] + v.norm()
}

/// A quadratic form scaled by the matrix's size (`nrows`, `ncols`).
#[derive_frule]
fn scaled_form(a: &DMatrix<f64>, x: &DVector<f64>) -> f64 {
    let n = a.nrows();
    let m = a.ncols();
    let q = x.transpose() * a * x;
    q[0] / (n * m) as f64
}

/// The log-sum-exp of `x`, its terms written one by one into a vector of zeros.
#[derive_frule]
fn log_sum_exp(x: &DVector<f64>) -> f64 {
    let mut e = DVector::zeros(x.len());
    for i in 0..x.len() {
        e[i] = x[i].exp();
    }
    e.sum().ln()
}

/// The sum of cubes of a vector's entries, by iterating over them.
#[derive_frule]
fn sum_of_cubes(x: &DVector<f64>) -> f64 {
    let mut s = 0.0;
    for v in x.iter() {
        s += v * v * v;
    }
    s
}

/// A squared norm plus a weighted sum, of a vector taken by value and used twice.
#[derive_frule]
fn owned_energy(x: DVector<f64>, w: &DVector<f64>) -> f64 {
    x.dot(&x) + w.dot(&x)
}

/// A shear of the identity whose scalar type is not written.
#[derive_frule]
fn sheared_norm(m: &Matrix3<f64>, v: &Vector3<f64>) -> f64 {
    let a = Matrix3::identity() + m;
    (a * v).norm()
}

/// A determinant of a matrix written entry by entry.
#[derive_frule]
fn shear_determinant(x: &DVector<f64>) -> f64 {
    let mut m: DMatrix<f64> = DMatrix::zeros(2, 2);
    m[(0, 1)] = x[0] * x[1];
    m[(1, 0)] = x[0];
    m[(0, 0)] = 1.0;
    m[(1, 1)] = 2.0;
    m.determinant()
}

/// A linear map returning a `DVector`.
#[derive_frule]
fn linear_map(x: &DVector<f64>, a: &DMatrix<f64>) -> DVector<f64> {
    a * x
}

/// The norm of another derived function's `DVector` result.
#[derive_frule]
fn mapped_norm(x: &DVector<f64>, a: &DMatrix<f64>) -> f64 {
    let r: DVector<f64> = linear_map(x, a);
    r.norm()
}

/// The trace, by entries `a[(i, i)]`, plus the determinant.
#[derive_frule]
fn trace_plus_determinant(a: &DMatrix<f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..a.nrows() {
        s += a[(i, i)];
    }
    s + a.determinant()
}

// ---------------------------------------------------------------------------------------
// Checks

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

/// The central difference of `f` at `x` along `v`.
fn central(f: &dyn Fn(&DVector<f64>) -> f64, x: &DVector<f64>, v: &DVector<f64>) -> f64 {
    let h = 1e-6;
    (f(&(x + v * h)) - f(&(x - v * h))) / (2.0 * h)
}

fn unit(n: usize, j: usize) -> DVector<f64> {
    DVector::from_fn(n, |i, _| if i == j { 1.0 } else { 0.0 })
}

/// Checks a rule of `x: &DVector<f64>` (and constants) against central differences of
/// `plain` in one direction per coordinate, in a batch of four (the first four
/// coordinates), and at second order (`∂²f/∂xᵢ∂xⱼ` against differences of the first
/// derivatives), each primal bit for bit. `$call(x_dual)` calls the rule in a mode.
macro_rules! check_modes {
    ($plain:expr, $x:expr, |$d:ident| $call:expr) => {{
        let plain = $plain;
        let x: DVector<f64> = $x;
        let n = x.len();
        let y = plain(&x);
        // One direction.
        for j in 0..n {
            let e = unit(n, j);
            let $d = Dual::new(&x, &e);
            let out: Dual<f64, f64> = $call;
            assert_eq!(out.primal.to_bits(), y.to_bits(), "one direction: primal");
            let fd = central(&plain, &x, &e);
            assert!(
                close(out.tangent, fd, 1e-7),
                "d/dx{j}: {} vs {fd}",
                out.tangent
            );
        }
        // Four directions at once.
        let seeds = DVector::from_fn(n, |i, _| {
            Batch(core::array::from_fn::<f64, 4, _>(|k| {
                if i == k {
                    1.0
                } else {
                    0.0
                }
            }))
        });
        let $d = Dual::new(&x, &seeds);
        let out: Dual<f64, Batch<f64, 4>> = $call;
        assert_eq!(out.primal.to_bits(), y.to_bits(), "batch: primal");
        for j in 0..n.min(4) {
            let fd = central(&plain, &x, &unit(n, j));
            assert!(close(out.tangent.0[j], fd, 1e-7), "batch d/dx{j}");
        }
        // Second order: uᵀ ∇²f v against the difference of ∇f·u along v.
        let u = DVector::from_fn(n, |i, _| 0.3 + 0.2 * i as f64);
        let v = DVector::from_fn(n, |i, _| if i % 2 == 0 { 0.5 } else { -0.4 });
        let seed = DVector::from_fn(n, |i, _| Hyper {
            d1: u[i],
            d2: v[i],
            d12: 0.0,
        });
        let $d = Dual::new(&x, &seed);
        let out: Dual<f64, Hyper<f64, f64>> = $call;
        assert_eq!(out.primal.to_bits(), y.to_bits(), "second order: primal");
        let h = 1e-4;
        let du = |x: &DVector<f64>| central(&plain, x, &u);
        let fd2 = (du(&(&x + &v * h)) - du(&(&x - &v * h))) / (2.0 * h);
        assert!(
            close(out.tangent.d1, central(&plain, &x, &u), 1e-7),
            "second order: d1"
        );
        assert!(
            close(out.tangent.d12, fd2, 1e-5),
            "second order: {} vs {fd2}",
            out.tangent.d12
        );
    }};
}

/// The zero tangent of a scalar in mode `S`.
fn zero<S: fwdad::Mode>() -> S {
    S::zero()
}

/// A zero tangent of `m`'s shape in mode `S`.
fn zeros_like<S: fwdad::Mode>(m: &DMatrix<f64>) -> DMatrix<S> {
    DMatrix::from_element(m.nrows(), m.ncols(), S::zero())
}

fn design() -> DMatrix<f64> {
    DMatrix::from_row_slice(
        5,
        3,
        &[
            1.0, 0.2, -0.5, 1.0, 0.9, 0.3, 1.0, -1.1, 0.8, 1.0, 0.4, 1.6, 1.0, 2.0, -0.7,
        ],
    )
}

#[test]
fn least_squares_residual_in_every_mode() {
    let a = design();
    let b = DVector::from_vec(vec![0.3, 1.2, -0.4, 2.2, 0.9]);
    let x = DVector::from_vec(vec![0.5, -0.3, 0.8]);
    // The gradient by hand: Aᵀ (A x − b).
    let grad = a.transpose() * (&a * &x - &b);
    let d = least_squares_frule(
        Dual::new(&x, &unit(3, 1)),
        Dual::new(&a, &zeros_like(&a)),
        Dual::new(&b, &DVector::zeros(5)),
    );
    assert!(close(d.tangent, grad[1], 1e-14));
    check_modes!(
        |x: &DVector<f64>| least_squares(x, &a, &b),
        x.clone(),
        |d| <least_squares as Frule<_, _>>::frule(
            &least_squares {},
            (
                d,
                Dual::new(&a, &zeros_like(&a)),
                Dual::new(&b, &b.map(|_| zero()))
            )
        )
    );
}

/// A squared-exponential kernel matrix of the points `t`.
fn kernel(t: &[f64]) -> DMatrix<f64> {
    DMatrix::from_fn(t.len(), t.len(), |i, j| {
        (-0.5 * (t[i] - t[j]).powi(2) / 0.7).exp()
    })
}

#[test]
fn gaussian_process_quadratic_form_in_every_mode() {
    let k = kernel(&[0.0, 0.4, 1.1, 1.5, 2.3]);
    let d = DVector::from_vec(vec![0.2, -0.5, 0.9, 0.1, -1.3]);
    // The gradient by hand: 2 (K + σ² I)⁻¹ d.
    let kn = &k + DMatrix::identity(5, 5) * 0.1;
    let grad = kn.clone().try_inverse().unwrap() * &d * 2.0;
    let out = gp_quadratic_frule(
        Dual::new(&d, &unit(5, 2)),
        Dual::new(&k, &zeros_like(&k)),
        Dual::new(0.1, 0.0),
    );
    assert!(close(out.tangent, grad[2], 1e-12));
    // Along the noise: −dᵀ (K + σ² I)⁻² d.
    let z = kn.clone().try_inverse().unwrap() * &d;
    let out = gp_quadratic_frule(
        Dual::new(&d, &DVector::zeros(5)),
        Dual::new(&k, &zeros_like(&k)),
        Dual::new(0.1, 1.0),
    );
    assert!(close(out.tangent, -z.dot(&z), 1e-12));
    check_modes!(
        |d: &DVector<f64>| gp_quadratic(d, &k, 0.1),
        d.clone(),
        |x| <gp_quadratic as Frule<_, _>>::frule(
            &gp_quadratic {},
            (
                x,
                Dual::new(&k, &zeros_like(&k)),
                Dual::new(0.1, fwdad::ConstTangent)
            )
        )
    );
}

#[test]
fn softmax_log_probability_in_every_mode() {
    let w = DMatrix::from_row_slice(
        3,
        4,
        &[
            0.5, -0.2, 0.1, 0.9, -0.3, 0.8, 0.4, -0.6, 0.2, 0.1, -0.7, 0.3,
        ],
    );
    let f = DVector::from_vec(vec![1.0, 0.4, -0.8, 1.3]);
    // ∂/∂f of log pᵧ = wᵧ − Σₖ pₖ wₖ, by hand.
    let s = &w * &f;
    let e = s.map(f64::exp);
    let p = &e / e.sum();
    let grad = w.row(1).transpose() - w.transpose() * &p;
    let out = softmax_log_prob_frule(
        Dual::new(&w, &zeros_like(&w)),
        Dual::new(&f, &unit(4, 3)),
        Dual::new(1, fwdad::NoTangent),
    );
    assert!(close(out.tangent, grad[3], 1e-13));
    check_modes!(
        |f: &DVector<f64>| softmax_log_prob(&w, f, 1),
        f.clone(),
        |x| <softmax_log_prob as Frule<_, _>>::frule(
            &softmax_log_prob {},
            (
                Dual::new(&w, &zeros_like(&w)),
                x,
                Dual::new(1, fwdad::NoTangent)
            )
        )
    );
}

#[test]
fn vectors_from_slices_and_row_vectors() {
    let weights = RowDVector::from_vec(vec![0.5, 1.5, -0.25]);
    let theta = [0.7, -1.2, 0.4];
    let (e, g) = gradient(bind(weighted_energy {}, (Wrt, &weights)), &theta);
    assert_eq!(e.to_bits(), weighted_energy(&theta, &weights).to_bits());
    // By hand: 2 wᵢ θᵢ + θᵢ / |θ|.
    let norm = theta.iter().map(|t| t * t).sum::<f64>().sqrt();
    for i in 0..3 {
        let want = 2.0 * weights[i] * theta[i] + theta[i] / norm;
        assert!(close(g[i], want, 1e-14), "{i}: {} vs {want}", g[i]);
    }
}

#[test]
fn sizes_element_writes_and_iteration_in_every_mode() {
    let a = DMatrix::from_row_slice(3, 3, &[2.0, 0.5, -0.3, 0.1, 1.5, 0.4, -0.2, 0.3, 1.0]);
    let x = DVector::from_vec(vec![0.4, -1.1, 0.9]);
    check_modes!(|x: &DVector<f64>| scaled_form(&a, x), x.clone(), |d| {
        <scaled_form as Frule<_, _>>::frule(&scaled_form {}, (Dual::new(&a, &zeros_like(&a)), d))
    });
    check_modes!(log_sum_exp, x.clone(), |d| {
        <log_sum_exp as Frule<_, _>>::frule(&log_sum_exp {}, (d,))
    });
    check_modes!(sum_of_cubes, x.clone(), |d| {
        <sum_of_cubes as Frule<_, _>>::frule(&sum_of_cubes {}, (d,))
    });
}

#[test]
fn library_constant_without_a_written_scalar() {
    let m = Matrix3::new(0.0, 0.3, 0.1, 0.0, 0.0, -0.2, 0.0, 0.0, 0.0);
    let v = Vector3::new(0.7, -0.4, 1.3);
    let dv = Vector3::new(0.2, 0.5, -0.1);
    let out = sheared_norm_frule(Dual::new(&m, &Matrix3::zeros()), Dual::new(&v, &dv));
    assert_eq!(out.primal.to_bits(), sheared_norm(&m, &v).to_bits());
    // By hand: (A v)·(A dv) / |A v|.
    let a = Matrix3::identity() + m;
    let w = a * v;
    assert!(close(out.tangent, w.dot(&(a * dv)) / w.norm(), 1e-14));
}

// ---------------------------------------------------------------------------------------
// Drivers: functions of nalgebra vectors, differentiated without conversions

/// The energy of a charge at `x` in a harmonic trap centred at `c`, plus a sinusoidal
/// field along z.
#[derive_frule]
fn trap_energy(x: &Vector3<f64>) -> f64 {
    let c = Vector3::new(0.5, -0.2, 1.0);
    let d = x - c;
    0.5 * d.norm_squared() + x.z.sin()
}

/// A chain of three springs of unit rest length between four coordinates.
#[derive_frule]
fn chain_energy(x: &SVector<f64, 4>, k: f64) -> f64 {
    let mut e = 0.0;
    for i in 0..3 {
        let s = x[i + 1] - x[i] - 1.0;
        e += 0.5 * k * s * s;
    }
    e
}

/// The force of the trap, `−∇ energy`, as a vector.
#[derive_frule]
fn trap_force(x: &Vector3<f64>) -> Vector3<f64> {
    let c = Vector3::new(0.5, -0.2, 1.0);
    let f = c - x;
    Vector3::new(f.x, f.y, f.z - x.z.cos())
}

#[test]
fn gradient_and_hessian_of_a_function_of_a_vector3() {
    let x: Vector3<f64> = Vector3::new(0.3, 0.8, -0.6);
    // By hand: ∇ = x − c + (0, 0, cos z), ∇² = I − sin z e₃e₃ᵀ.
    let c = Vector3::new(0.5, -0.2, 1.0);
    let grad = x - c + Vector3::new(0.0, 0.0, x.z.cos());
    let hess =
        Matrix3::identity() - Matrix3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, x.z.sin());
    let (e, g): (f64, Vector3<f64>) = fwdad::na::gradient(bind(trap_energy {}, (Wrt,)), &x);
    assert_eq!(e.to_bits(), trap_energy(&x).to_bits());
    assert!((g - grad).amax() < 1e-15, "{g} vs {grad}");
    let (e, g, h): (f64, Vector3<f64>, Matrix3<f64>) =
        fwdad::na::hessian(bind(trap_energy {}, (Wrt,)), &x);
    assert_eq!(e.to_bits(), trap_energy(&x).to_bits());
    assert!((g - grad).amax() < 1e-15);
    assert!((h - hess).amax() < 1e-15, "{h} vs {hess}");
    // The slice drivers take the same binding.
    let (_, g) = gradient(bind(trap_energy {}, (Wrt,)), x.as_slice());
    assert!((g[2] - grad.z).abs() < 1e-15);
}

#[test]
fn jacobian_of_a_vector_valued_function_of_a_vector3() {
    let x: Vector3<f64> = Vector3::new(0.3, 0.8, -0.6);
    let (f, j) = fwdad::na::jacobian(bind(trap_force {}, (Wrt,)), &x);
    assert_eq!(f.as_slice(), trap_force(&x).as_slice());
    // By hand: −(I − sin z e₃e₃ᵀ).
    let want =
        -Matrix3::identity() + Matrix3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, x.z.sin());
    assert_eq!(j.shape(), (3, 3));
    for i in 0..3 {
        for k in 0..3 {
            assert!((j[(i, k)] - want[(i, k)]).abs() < 1e-15, "J[{i},{k}]");
        }
    }
}

#[test]
fn gradient_of_a_function_of_an_svector() {
    let x = SVector::<f64, 4>::new(0.0, 1.3, 2.1, 3.4);
    let k = 2.5;
    let (e, g) = fwdad::na::gradient(bind(chain_energy {}, (Wrt, k)), &x);
    assert_eq!(e.to_bits(), chain_energy(&x, k).to_bits());
    // By hand: ∂e/∂xᵢ = k (sᵢ₋₁ − sᵢ), sᵢ = xᵢ₊₁ − xᵢ − 1.
    let s: Vec<f64> = (0..3).map(|i| x[i + 1] - x[i] - 1.0).collect();
    let want = [-k * s[0], k * (s[0] - s[1]), k * (s[1] - s[2]), k * s[2]];
    for i in 0..4 {
        assert!(
            (g[i] - want[i]).abs() < 1e-14,
            "{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    let (_, _, h) = fwdad::na::hessian(bind(chain_energy {}, (Wrt, k)), &x);
    assert_eq!((h[(1, 1)], h[(1, 2)], h[(0, 3)]), (2.0 * k, -k, 0.0));
}

#[test]
fn gradient_and_hessian_of_a_function_of_a_dvector() {
    let a = design();
    let b = DVector::from_vec(vec![0.3, 1.2, -0.4, 2.2, 0.9]);
    let x = DVector::from_vec(vec![0.5, -0.3, 0.8]);
    let (e, g) = fwdad::na::gradient(bind(least_squares {}, (Wrt, &a, &b)), &x);
    assert_eq!(e.to_bits(), least_squares(&x, &a, &b).to_bits());
    // By hand: ∇ = Aᵀ (A x − b), ∇² = Aᵀ A.
    let grad = a.transpose() * (&a * &x - &b);
    assert!((&g - &grad).amax() < 1e-14, "{g} vs {grad}");
    let (_, _, h) = fwdad::na::hessian(bind(least_squares {}, (Wrt, &a, &b)), &x);
    let ata = a.transpose() * &a;
    assert!((&h - &ata).amax() < 1e-13, "{h} vs {ata}");
}

#[test]
fn matrix_entries_dvector_results_and_calls() {
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let x = DVector::from_vec(vec![1.0, 2.0]);
    // The Jacobian of x ↦ A x is A.
    let (v, j) = fwdad::na::jacobian(bind(linear_map {}, (Wrt, &a)), &x);
    assert_eq!(v, &a * &x);
    assert_eq!(j, a);
    // ∇|A x| = Aᵀ A x / |A x|.
    let (_, g) = fwdad::na::gradient(bind(mapped_norm {}, (Wrt, &a)), &x);
    let ax = &a * &x;
    let want = a.transpose() * &ax / ax.norm();
    assert!((g - want).amax() < 1e-14);
    // det [[1, x₀x₁], [x₀, 2]] = 2 − x₀² x₁: ∇ = (−2 x₀ x₁, −x₀²).
    let (d, g) = fwdad::na::gradient(bind(shear_determinant {}, (Wrt,)), &x);
    assert_eq!(d, 2.0 - x[0] * x[0] * x[1]);
    assert_eq!(g.as_slice(), &[-2.0 * x[0] * x[1], -x[0] * x[0]]);
    // Along dA = I: d tr = 2, d det = tr(adj A) = 5.
    let d = trace_plus_determinant_frule(Dual::new(&a, &DMatrix::identity(2, 2)));
    assert_eq!(d.primal, 5.0 + (4.0 - 6.0));
    assert!((d.tangent - 7.0).abs() < 1e-14, "{}", d.tangent);
}

#[test]
fn a_dynamic_vector_taken_by_value() {
    let x = DVector::from_vec(vec![0.5, -1.5, 2.0]);
    let w = DVector::from_vec(vec![1.0, 0.25, -0.5]);
    let (e, g) = fwdad::na::gradient(bind(owned_energy {}, (Wrt, &w)), &x);
    assert_eq!(e.to_bits(), owned_energy(x.clone(), &w).to_bits());
    // By hand: 2 x + w.
    assert!((g - (&x * 2.0 + &w)).amax() < 1e-15);
}
