//! ndarray inside derived bodies (feature `ndarray`): a least-squares fit written with
//! `Array1`/`Array2` arithmetic, checked against the normal-equations gradient derived by
//! hand and central finite differences, in one direction, batched and second order.
//!
//! Run with `cargo test --features ndarray --test lib_ndarray`.
use fwdad::prelude::*;
use ndarray::{Array1, Array2};

/// Sum of squared residuals of the model `y ≈ a e^{−b t} + c` at the samples `(t, y)`.
#[derive_frule]
fn decay_misfit(params: &Array1<f64>, t: &Array1<f64>, y: &Array1<f64>) -> f64 {
    let (a, b, c) = (params[0], params[1], params[2]);
    let model = (t * -b).exp() * a + c;
    let r = &model - y;
    r.dot(&r)
}

/// The linear least-squares objective `|A x − b|²`, with a matrix-vector product.
#[derive_frule]
fn linear_misfit(x: &Array1<f64>, a: &Array2<f64>, b: &Array1<f64>) -> f64 {
    let ax: Array1<f64> = a.dot(x);
    let r = ax - b;
    (&r * &r).sum()
}

/// The drivers take a slice: the misfit of a parameter vector.
#[derive_frule]
fn linear_misfit_of(x: &[f64]) -> f64 {
    let a = Array2::from_shape_vec(
        (4, 3),
        vec![
            1.0, 0.5, -0.2, //
            0.3, 2.0, 0.1, //
            -0.4, 0.2, 1.5, //
            1.0, 1.0, 1.0,
        ],
    )
    .unwrap();
    let b = Array1::from_vec(vec![1.0, -0.5, 2.0, 0.3]);
    let xs = Array1::from_vec(x.to_vec());
    linear_misfit(&xs, &a, &b)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn samples() -> (Array1<f64>, Array1<f64>) {
    let t = Array1::linspace(0.0, 3.0, 7);
    let y = t.mapv(|ti: f64| 2.0 * (-0.7 * ti).exp() + 0.3 + 0.05 * (5.0 * ti).sin());
    (t, y)
}

#[test]
fn decay_fit_gradient_matches_the_hand_derived_one() {
    let (t, y) = samples();
    let p = Array1::from_vec(vec![1.8, 0.6, 0.2]);
    let (a, b, c) = (p[0], p[1], p[2]);
    // ∂/∂a = 2 Σ rᵢ e^{−b tᵢ}, ∂/∂b = −2 Σ rᵢ a tᵢ e^{−b tᵢ}, ∂/∂c = 2 Σ rᵢ.
    let e = t.mapv(|ti| (-b * ti).exp());
    let r = &e * a + c - &y;
    let grad = [
        2.0 * (&r * &e).sum(),
        -2.0 * (&r * &e * &t).sum() * a,
        2.0 * r.sum(),
    ];
    let zero = Array1::zeros(7);
    for (k, expected) in grad.iter().enumerate() {
        let mut dp = Array1::zeros(3);
        dp[k] = 1.0;
        let d = decay_misfit_frule(
            Dual::new(&p, &dp),
            Dual::new(&t, &zero),
            Dual::new(&y, &zero),
        );
        assert_eq!(d.primal, decay_misfit(&p, &t, &y));
        assert!(
            close(d.tangent, *expected, 1e-13),
            "∂{k}: {} vs {expected}",
            d.tangent
        );
    }
    // Along the data: ∂/∂y = −2 r.
    let dy = Array1::from_vec(vec![0.1, -0.2, 0.3, 0.0, 0.5, -0.1, 0.2]);
    let d = decay_misfit_frule(
        Dual::new(&p, &Array1::zeros(3)),
        Dual::new(&t, &zero),
        Dual::new(&y, &dy),
    );
    assert!(close(d.tangent, -2.0 * r.dot(&dy), 1e-13));
}

#[test]
fn linear_misfit_gradient_and_hessian_are_the_normal_equations() {
    let x = [0.4, -1.2, 0.7];
    let (f, g) = fwdad::gradient(linear_misfit_of {}, &x);
    let (_, _, h) = fwdad::hessian(linear_misfit_of {}, &x);
    let a = Array2::from_shape_vec(
        (4, 3),
        vec![1.0, 0.5, -0.2, 0.3, 2.0, 0.1, -0.4, 0.2, 1.5, 1.0, 1.0, 1.0],
    )
    .unwrap();
    let b = Array1::from_vec(vec![1.0, -0.5, 2.0, 0.3]);
    let xs = Array1::from_vec(x.to_vec());
    let r = a.dot(&xs) - &b;
    assert!(close(f, r.dot(&r), 1e-14));
    // ∇ = 2 Aᵀ r, ∇² = 2 AᵀA.
    let grad = a.t().dot(&r) * 2.0;
    let hess = a.t().dot(&a) * 2.0;
    for i in 0..3 {
        assert!(close(g[i], grad[i], 1e-13), "∂{i}");
        for j in 0..3 {
            assert!(close(h[(i, j)], hess[[i, j]], 1e-13), "H[{i},{j}]");
        }
    }
    // One direction and a batch through the rule itself, against central differences.
    let v = [0.3, 0.1, -0.5];
    let plus: Vec<f64> = x.iter().zip(&v).map(|(a, b)| a + 1e-6 * b).collect();
    let minus: Vec<f64> = x.iter().zip(&v).map(|(a, b)| a - 1e-6 * b).collect();
    let fd = (linear_misfit_of(&plus) - linear_misfit_of(&minus)) / 2e-6;
    let d = linear_misfit_of_frule(Dual::new(&x[..], &v[..]));
    assert!(close(d.tangent, fd, 1e-7), "{} vs {fd}", d.tangent);
}

/// A corner entry scaled by the matrix's size, read with `nrows()` and `ncols()`.
#[derive_frule]
fn scaled_corner(a: &Array2<f64>) -> f64 {
    let n = a.nrows() * a.ncols();
    a[[1, 2]] / n as f64
}

#[test]
fn matrix_sizes_are_integers() {
    let a = Array2::from_shape_vec((2, 3), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let da = Array2::from_elem((2, 3), 1.0);
    let d = scaled_corner_frule(Dual::new(&a, &da));
    assert_eq!(d.primal, 1.0);
    assert_eq!(d.tangent, 1.0 / 6.0);
}

/// Sample mean and variance of a signal, with ndarray's own `sum` and `dot` (not a slice's).
#[derive_frule]
fn standardised_energy(x: &Array1<f64>, scale: f64) -> f64 {
    let n = x.len() as f64;
    let mean = x.sum() / n;
    let centred = x - mean;
    let var = centred.dot(&centred) / (n - 1.0);
    scale * (mean * mean + var).ln()
}

#[test]
fn ndarray_sum_is_the_librarys() {
    let x = Array1::from(vec![0.3, 1.2, -0.5, 2.0]);
    // d/dscale is the log itself; d/dx_i against central differences.
    let (v, d) = derivative(bind(standardised_energy {}, (&x, Wrt)), 1.5);
    assert_eq!(v, standardised_energy(&x, 1.5));
    assert!(close(d, v / 1.5, 1e-14));
    let n = 4.0;
    let mean = x.sum() / n;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    for i in 0..4 {
        // Written out: d/dx_i of ln(mean² + var) = (2 mean / n + 2 (x_i − mean) / (n − 1)) / (mean² + var).
        let want = 1.5 * (2.0 * mean / n + 2.0 * (x[i] - mean) / (n - 1.0)) / (mean * mean + var);
        let mut dx = Array1::zeros(4);
        dx[i] = 1.0;
        let out = standardised_energy_frule(Dual::new(&x, &dx), Dual::new(1.5, 0.0));
        assert!(
            close(out.tangent, want, 1e-12),
            "d/dx{i}: {} vs {want}",
            out.tangent
        );
    }
}

/// Ridge regression, as a data scientist writes it: `x.dot(w)` of a matrix is a vector.
#[derive_frule]
fn ridge(w: &Array1<f64>, x: &Array2<f64>, y: &Array1<f64>, lam: f64) -> f64 {
    let pred = x.dot(w);
    let r = &pred - y;
    r.dot(&r) / (y.len() as f64) + lam * w.dot(w)
}

/// The trace of the centred Gram matrix: `mean_axis`, a transpose's product, `diag`.
#[derive_frule]
fn centred_trace(x: &Array2<f64>) -> f64 {
    let mu = x.mean_axis(ndarray::Axis(0)).unwrap();
    let xc = x - &mu;
    let g = xc.t().dot(&xc);
    g.diag().sum()
}

/// A second-difference energy over slices of a parameter, `2.0 * &view` on the left.
// As users write it: `s![1..-1]` counts from the end, which clippy takes for an empty range.
#[allow(clippy::op_ref, clippy::reversed_empty_ranges)]
#[derive_frule]
fn laplace_energy(u: &Array1<f64>) -> f64 {
    let d = &u.slice(ndarray::s![2..]) - &(2.0 * &u.slice(ndarray::s![1..-1]))
        + &u.slice(ndarray::s![..-2]);
    (&d * &d).sum()
}

#[test]
fn matrix_products_views_and_axes() {
    let x = Array2::from_shape_fn((5, 3), |(i, j)| ((i * 3 + j) as f64 * 0.41).sin());
    let y = Array1::from_shape_fn(5, |i| (i as f64 * 0.7).cos());
    let w = Array1::from(vec![0.3, -0.8, 1.1]);
    let lam = 0.05;
    // ∇w = (2/n) Xᵀ(Xw − y) + 2λw.
    let want = x.t().dot(&(x.dot(&w) - &y)) * (2.0 / 5.0) + &w * (2.0 * lam);
    for k in 0..3 {
        let mut dw = Array1::zeros(3);
        dw[k] = 1.0;
        let (dx, dy) = (Array2::zeros((5, 3)), Array1::zeros(5));
        let d = ridge_frule(
            Dual::new(&w, &dw),
            Dual::new(&x, &dx),
            Dual::new(&y, &dy),
            Dual::new(lam, 0.0),
        );
        assert_eq!(d.primal.to_bits(), ridge(&w, &x, &y, lam).to_bits());
        assert!(close(d.tangent, want[k], 1e-13), "ridge d/dw{k}");
    }
    // ∂/∂x_ij tr(X_cᵀ X_c) = 2 (x_ij − μ_j).
    let mu = x.mean_axis(ndarray::Axis(0)).unwrap();
    for (i, j) in [(0, 0), (2, 1), (4, 2)] {
        let mut dx = Array2::zeros((5, 3));
        dx[(i, j)] = 1.0;
        let d = centred_trace_frule(Dual::new(&x, &dx));
        assert_eq!(d.primal.to_bits(), centred_trace(&x).to_bits());
        assert!(
            close(d.tangent, 2.0 * (x[(i, j)] - mu[j]), 1e-13),
            "trace d/dx{i}{j}"
        );
    }
    // Σ (u_{i+2} − 2u_{i+1} + u_i)², against the written-out gradient.
    let u = Array1::from_shape_fn(7, |i| (i as f64 * 0.9).sin());
    for k in 0..7 {
        let mut du = Array1::zeros(7);
        du[k] = 1.0;
        let d = laplace_energy_frule(Dual::new(&u, &du));
        assert_eq!(d.primal.to_bits(), laplace_energy(&u).to_bits());
        let mut want = 0.0;
        for i in 0..5 {
            let r = u[i + 2] - 2.0 * u[i + 1] + u[i];
            let c = [(i, 1.0), (i + 1, -2.0), (i + 2, 1.0)]
                .iter()
                .filter(|(m, _)| *m == k)
                .map(|(_, c)| *c)
                .sum::<f64>();
            want += 2.0 * r * c;
        }
        assert!(close(d.tangent, want, 1e-13), "laplace d/du{k}");
    }
}

/// An RBF network's output summed over the samples `t`: the design matrix
/// `Φ_ij = exp(−(t_i − c_j)² / 2σ²)` of the centres `c` built with
/// `Array2::from_shape_fn`, the weights `w_j = 1 / (1 + j)` with `Array1::from_shape_fn`.
#[derive_frule]
fn rbf_output(c: &[f64], t: &[f64], sigma: f64) -> f64 {
    let (n, m) = (t.len(), c.len());
    let phi = Array2::from_shape_fn((n, m), |(i, j)| {
        let d = t[i] - c[j];
        (-d * d / (2.0 * sigma * sigma)).exp()
    });
    let w = Array1::from_shape_fn(m, |j| 1.0 / (1.0 + j as f64));
    phi.dot(&w).sum()
}

#[test]
fn rbf_design_matrix_from_shape_fn() {
    let c = [0.2, 0.9, 1.7];
    let t = [0.0, 0.5, 1.0, 1.5, 2.0];
    let sigma = 0.6;
    let (v, g) = fwdad::gradient(bind(rbf_output {}, (Wrt, &t[..], sigma)), &c);
    assert_eq!(v.to_bits(), rbf_output(&c, &t, sigma).to_bits());
    // ∂/∂c_j Σ_i w_j Φ_ij = w_j Σ_i Φ_ij (t_i − c_j) / σ².
    let phi = |i: usize, j: usize| (-(t[i] - c[j]).powi(2) / (2.0 * sigma * sigma)).exp();
    for j in 0..3 {
        let w = 1.0 / (1.0 + j as f64);
        let expected: f64 = (0..5)
            .map(|i| w * phi(i, j) * (t[i] - c[j]) / (sigma * sigma))
            .sum();
        assert!(close(g[j], expected, 1e-13), "{j}: {} {expected}", g[j]);
    }
    // In σ, one direction: ∂Φ_ij/∂σ = Φ_ij (t_i − c_j)² / σ³.
    let d = rbf_output_frule(
        Dual::new(&c[..], &[0.0; 3][..]),
        Dual::new(&t[..], &[0.0; 5][..]),
        Dual::new(sigma, 1.0),
    );
    let expected: f64 = (0..5)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .map(|(i, j)| phi(i, j) * (t[i] - c[j]).powi(2) / sigma.powi(3) / (1.0 + j as f64))
        .sum();
    assert_eq!(d.primal.to_bits(), v.to_bits());
    assert!(close(d.tangent, expected, 1e-13));
    // Second order: ∂²/∂c_j² = w_j Σ_i Φ_ij ((t_i − c_j)²/σ⁴ − 1/σ²), no cross terms.
    let (_, _, hess) = fwdad::hessian(bind(rbf_output {}, (Wrt, &t[..], sigma)), &c);
    for j in 0..3 {
        let w = 1.0 / (1.0 + j as f64);
        let expected: f64 = (0..5)
            .map(|i| {
                w * phi(i, j) * ((t[i] - c[j]).powi(2) / sigma.powi(4) - 1.0 / (sigma * sigma))
            })
            .sum();
        assert!(close(hess[(j, j)], expected, 1e-12), "{j}");
        for k in 0..3 {
            if k != j {
                assert_eq!(hess[(j, k)], 0.0);
            }
        }
    }
}
