//! ML code over ndarray and nalgebra, as written with those crates: an MLP with
//! `Array2` weights, softmax and log-sum-exp over `Array1`, layer norm, attention with
//! `Array2` products, and a Gaussian process's negative log marginal likelihood with a
//! squared-exponential kernel `DMatrix` and its Cholesky solve. Checked against central
//! finite differences in every mode (`check_modes!`), primals bit for bit.
//!
//! Run with `cargo test --features nalgebra,ndarray --test reach_apps_linalg`.

mod common;

use common::modes::assert_close;
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
