//! ML code over ndarray and nalgebra, as written with those crates: an MLP with
//! `Array2` weights, softmax and log-sum-exp over `Array1`, layer norm, attention with
//! `Array2` products, and a Gaussian process's negative log marginal likelihood with a
//! squared-exponential kernel `DMatrix` and its Cholesky solve. Checked against central
//! finite differences in every mode (`check_modes!`), primals bit for bit.
//!
//! Run with `cargo test --features nalgebra,ndarray --test reach_apps_linalg`.

mod common;

use common::modes::{assert_close, fd_gradient};
use fwdad::prelude::*;
use nalgebra::{DMatrix, DVector};
use ndarray::{Array1, Array2};

// ---------------------------------------------------------------- ndarray

#[derive_frule]
fn softmax_nd(z: &Array1<f64>) -> Array1<f64> {
    let m = z.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let e = z.mapv(|v| (v - m).exp());
    let s = e.sum();
    e / s
}

#[derive_frule]
fn log_sum_exp_nd(z: &Array1<f64>) -> f64 {
    let m = z.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    m + z.mapv(|v| (v - m).exp()).sum().ln()
}

/// A two-layer perceptron with a tanh hidden layer and a cross-entropy loss.
#[derive_frule]
fn mlp_nd_loss(
    w1: &Array2<f64>,
    b1: &Array1<f64>,
    w2: &Array2<f64>,
    b2: &Array1<f64>,
    x: &Array1<f64>,
    label: usize,
) -> f64 {
    let h = (w1.dot(x) + b1).mapv(|v| v.tanh());
    let logits: Array1<f64> = w2.dot(&h) + b2;
    log_sum_exp_nd(&logits) - logits[label]
}

/// The loss as a function of the input, flattened for the drivers.
#[derive_frule]
fn mlp_nd_of_input(
    x: &[f64],
    w1: &Array2<f64>,
    b1: &Array1<f64>,
    w2: &Array2<f64>,
    b2: &Array1<f64>,
) -> f64 {
    let x = Array1::from_vec(x.to_vec());
    mlp_nd_loss(w1, b1, w2, b2, &x, 1)
}

/// The loss as a function of the first layer's weights (row-major), for the drivers.
#[derive_frule]
fn mlp_nd_of_weights(
    theta: &[f64],
    b1: &Array1<f64>,
    w2: &Array2<f64>,
    b2: &Array1<f64>,
    x: &Array1<f64>,
) -> f64 {
    let w1 = Array2::from_shape_vec((b1.len(), x.len()), theta.to_vec()).unwrap();
    mlp_nd_loss(&w1, b1, w2, b2, x, 2)
}

#[derive_frule]
fn layer_norm_nd(x: &Array1<f64>, gamma: &Array1<f64>, beta: &Array1<f64>) -> Array1<f64> {
    let mean = x.mean().unwrap();
    let centered = x - mean;
    let var = centered.mapv(|v| v * v).mean().unwrap();
    centered / (var + 1e-5).sqrt() * gamma + beta
}

#[derive_frule]
fn layer_norm_nd_loss(x: &[f64], gamma: &Array1<f64>, beta: &Array1<f64>) -> f64 {
    let x = Array1::from_vec(x.to_vec());
    let y: Array1<f64> = layer_norm_nd(&x, gamma, beta);
    y.mapv(|v| v.powi(3)).sum()
}

// ---------------------------------------------------------------- nalgebra GP

/// The squared-exponential kernel matrix of 1-D inputs with noise on the diagonal.
#[derive_frule]
fn kernel_matrix(x: &[f64], ell: f64, sf: f64, sn: f64) -> DMatrix<f64> {
    let n = x.len();
    let mut k = DMatrix::zeros(n, n);
    for i in 0..n {
        for j in 0..n {
            let d = (x[i] - x[j]) / ell;
            k[(i, j)] = sf * sf * (-0.5 * d * d).exp();
        }
        k[(i, i)] += sn * sn;
    }
    k
}

/// The negative log marginal likelihood of a GP, `½ yᵀK⁻¹y + ½ log|K| + n/2 log 2π`, of
/// the log-hyperparameters `[log ℓ, log σf, log σn]`.
#[derive_frule]
fn gp_nll(log_params: &[f64], x: &[f64], y: &DVector<f64>) -> f64 {
    let ell = log_params[0].exp();
    let sf = log_params[1].exp();
    let sn = log_params[2].exp();
    let k: DMatrix<f64> = kernel_matrix(x, ell, sf, sn);
    let n = x.len() as f64;
    let chol = k.cholesky().expect("kernel matrix is positive definite");
    let alpha = chol.solve(y);
    let log_det = 2.0 * chol.l().diagonal().iter().map(|d| d.ln()).sum::<f64>();
    0.5 * y.dot(&alpha) + 0.5 * log_det + 0.5 * n * (2.0 * std::f64::consts::PI).ln()
}

/// Attention weights: a softmax along each row of a score matrix, in place.
#[derive_frule]
fn row_softmax(scores: &Array2<f64>) -> Array2<f64> {
    let mut w = scores.clone();
    let (rows, cols) = (w.nrows(), w.ncols());
    for i in 0..rows {
        let mut m = f64::NEG_INFINITY;
        for j in 0..cols {
            m = m.max(w[(i, j)]);
        }
        let mut s = 0.0;
        for j in 0..cols {
            w[(i, j)] = (w[(i, j)] - m).exp();
            s += w[(i, j)];
        }
        for j in 0..cols {
            w[(i, j)] /= s;
        }
    }
    w
}

/// Single-head attention over tokens of width 3: `softmax(Q Kᵀ / √d) V`.
#[derive_frule]
fn attention_nd_loss(xs: &[f64], wq: &Array2<f64>, wk: &Array2<f64>, wv: &Array2<f64>) -> f64 {
    let x: Array2<f64> = Array2::from_shape_vec((xs.len() / 3, 3), xs.to_vec()).unwrap();
    let q = x.dot(wq);
    let k = x.dot(wk);
    let v = x.dot(wv);
    let scores = q.dot(&k.t()) / (3.0f64).sqrt();
    let weights: Array2<f64> = row_softmax(&scores);
    let y = weights.dot(&v);
    y.mapv(|a| a * a).sum()
}

/// The GP posterior mean at a test point, `k*ᵀ K⁻¹ y`, with the cross-covariances
/// collected from an iterator chain.
#[derive_frule]
fn gp_mean(y: &[f64], x: &[f64], x_star: f64) -> f64 {
    let n = x.len();
    let mut k = DMatrix::zeros(n, n);
    for i in 0..n {
        for j in 0..n {
            k[(i, j)] = (-0.5 * (x[i] - x[j]).powi(2)).exp();
        }
        k[(i, i)] += 0.01;
    }
    let k_star = DVector::from_iterator(n, x.iter().map(|xi| (-0.5 * (xi - x_star).powi(2)).exp()));
    let alpha = k.cholesky().unwrap().solve(&DVector::from_column_slice(y));
    k_star.dot(&alpha)
}

// ================================================================ tests

fn nd_net() -> (Array2<f64>, Array1<f64>, Array2<f64>, Array1<f64>) {
    let w1 = Array2::from_shape_vec(
        (4, 3),
        vec![
            0.4, -0.3, 0.2, -0.5, 0.1, 0.7, 0.3, 0.8, -0.6, 0.2, -0.4, -0.1,
        ],
    )
    .unwrap();
    let b1 = Array1::from_vec(vec![0.1, -0.2, 0.05, 0.3]);
    let w2 = Array2::from_shape_vec(
        (3, 4),
        vec![
            0.5, -0.2, 0.3, 0.1, -0.3, 0.6, -0.1, 0.4, 0.2, 0.1, 0.5, -0.7,
        ],
    )
    .unwrap();
    let b2 = Array1::from_vec(vec![0.0, 0.1, -0.1]);
    (w1, b1, w2, b2)
}

#[test]
fn ndarray_softmax_jacobian_is_diag_minus_outer() {
    #[derive_frule]
    fn softmax_of(z: &[f64]) -> Vec<f64> {
        let p: Array1<f64> = softmax_nd(&Array1::from_vec(z.to_vec()));
        p.to_vec()
    }
    let z = [0.3, -1.2, 2.0, 0.7];
    let (p, jac) = fwdad::jacobian(softmax_of {}, &z);
    assert_eq!(p, softmax_of(&z));
    for i in 0..4 {
        for j in 0..4 {
            let want = p[i] * (f64::from(u8::from(i == j)) - p[j]);
            assert_close(jac[(i, j)], want, 1e-14, &format!("dp{i}/dz{j}"));
        }
    }
}

#[test]
fn ndarray_mlp_in_every_mode() {
    let (w1, b1, w2, b2) = nd_net();
    let x = [0.3, -0.8, 1.1];
    check_modes!(
        bind(mlp_nd_of_input {}, (Wrt, &w1, &b1, &w2, &b2)),
        |x: &[f64]| mlp_nd_of_input(x, &w1, &b1, &w2, &b2),
        x
    );
    let xa = Array1::from_vec(x.to_vec());
    let theta: Vec<f64> = w1.iter().copied().collect();
    check_modes!(
        bind(mlp_nd_of_weights {}, (Wrt, &b1, &w2, &b2, &xa)),
        |t: &[f64]| mlp_nd_of_weights(t, &b1, &w2, &b2, &xa),
        theta
    );
}

#[test]
fn ndarray_layer_norm_in_every_mode() {
    let gamma = Array1::from_vec(vec![1.0, 0.5, 2.0, -1.0, 0.3]);
    let beta = Array1::from_vec(vec![0.0, 0.1, -0.2, 0.3, 0.0]);
    let x = [0.3, -1.2, 2.0, 0.7, 0.1];
    check_modes!(
        bind(layer_norm_nd_loss {}, (Wrt, &gamma, &beta)),
        |x: &[f64]| layer_norm_nd_loss(x, &gamma, &beta),
        x
    );
}

#[test]
fn gp_marginal_likelihood_in_every_mode() {
    let x = [-1.5, -0.7, 0.0, 0.4, 1.1, 1.9];
    let y = DVector::from_vec(x.iter().map(|v: &f64| (2.0 * v).sin() + 0.1 * v).collect());
    let theta = [0.1f64.ln(), 0.8f64.ln(), 0.2f64.ln()];
    let theta = [theta[0] + 1.0, theta[1], theta[2]];
    check_modes!(
        bind(gp_nll {}, (Wrt, &x[..], &y)),
        |p: &[f64]| gp_nll(p, &x, &y),
        theta
    );
}

#[test]
fn gp_posterior_mean_is_linear_in_the_targets() {
    let x = [-1.5, -0.7, 0.0, 0.4, 1.1, 1.9];
    let y = [0.2, -0.3, 0.5, 0.9, 0.1, -0.4];
    let (m, g) = fwdad::gradient(bind(gp_mean {}, (Wrt, &x[..], 0.3)), &y);
    assert_eq!(m.to_bits(), gp_mean(&y, &x, 0.3).to_bits());
    // m = k*ᵀ K⁻¹ y: the gradient is K⁻¹ k*, and m = ∇m · y.
    let fd = fd_gradient(&|y| gp_mean(y, &x, 0.3), &y);
    for i in 0..6 {
        assert_close(g[i], fd[i], 1e-8, &format!("dm/dy{i}"));
    }
    let gy: f64 = g.iter().zip(&y).map(|(a, b)| a * b).sum();
    assert_close(gy, m, 1e-12, "m = ∇m · y");
    let (_, _, h) = fwdad::hessian(bind(gp_mean {}, (Wrt, &x[..], 0.3)), &y);
    for i in 0..6 {
        for j in 0..6 {
            assert!(
                h[(i, j)].abs() < 1e-12,
                "a linear function has no curvature"
            );
        }
    }
    // With respect to the inputs, in every mode.
    check_modes!(
        bind(gp_mean {}, (&y[..], Wrt, 0.3)),
        |x: &[f64]| gp_mean(&y, x, 0.3),
        x
    );
}

#[test]
fn ndarray_attention_in_every_mode() {
    let wq = Array2::from_shape_vec((3, 3), vec![0.4, -0.3, 0.2, -0.5, 0.1, 0.7, 0.3, 0.8, -0.6])
        .unwrap();
    let wk = Array2::from_shape_vec((3, 3), vec![0.2, 0.5, -0.1, 0.3, -0.4, 0.6, -0.2, 0.1, 0.9])
        .unwrap();
    let wv = Array2::from_shape_vec((3, 3), vec![1.0, 0.2, 0.0, -0.3, 0.7, 0.4, 0.5, -0.6, 0.8])
        .unwrap();
    let x = [
        0.3, -0.8, 1.1, 0.5, 0.2, -0.4, -1.0, 0.7, 0.9, 0.1, 0.0, 0.6,
    ];
    check_modes!(
        bind(attention_nd_loss {}, (Wrt, &wq, &wk, &wv)),
        |x: &[f64]| attention_nd_loss(x, &wq, &wk, &wv),
        x
    );
}
