//! `Dual::constant(&m)` of a borrowed library value (an ndarray `Array2`, a nalgebra
//! `DMatrix`, `Matrix3`, `Isometry3`) at a derived function's `_frule`: the zero tangent is
//! built by the rule's entry, as for a borrowed struct of the user's. Written as an ML
//! engineer and a roboticist call their rules; derivatives against closed forms.

use fwdad::prelude::*;
use nalgebra::{DMatrix, DVector, Isometry3, Matrix3, Point3, Vector3};
use ndarray::{Array1, Array2};

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * (1.0 + want.abs()),
        "{what}: {got} against {want}"
    );
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

/// Mean log-loss of a logistic model over the rows of `x`.
#[derive_frule]
fn log_loss(w: &Array1<f64>, x: &Array2<f64>, y: &Array1<f64>) -> f64 {
    let z = x.dot(w);
    let p = z.mapv(|v| 1.0 / (1.0 + (-v).exp()));
    let n = y.len() as f64;
    let mut total = 0.0;
    for (pi, yi) in p.iter().zip(y.iter()) {
        total -= yi * pi.ln() + (1.0 - yi) * (1.0 - pi).ln();
    }
    total / n
}

#[test]
fn ndarray_data_as_constants() {
    let x = Array2::from_shape_vec(
        (5, 3),
        vec![
            1.0, 0.2, -0.5, 1.0, 1.5, 0.3, 1.0, -0.7, 0.8, 1.0, 0.1, 0.1, 1.0, 2.0, -1.0,
        ],
    )
    .unwrap();
    let y = Array1::from(vec![0.0, 1.0, 0.0, 1.0, 1.0]);
    let w = Array1::from(vec![0.1, -0.3, 0.4]);
    let z = x.dot(&w);
    for k in 0..3 {
        let mut e = Array1::zeros(3);
        e[k] = 1.0;
        let d = log_loss_frule(Dual::new(&w, &e), Dual::constant(&x), Dual::constant(&y));
        assert_eq!(d.primal.to_bits(), log_loss(&w, &x, &y).to_bits());
        // The gradient of the mean log-loss: Xᵀ(σ(Xw) − y) / n.
        let want: f64 = (0..5)
            .map(|i| (sigmoid(z[i]) - y[i]) * x[[i, k]])
            .sum::<f64>()
            / 5.0;
        close(d.tangent, want, 1e-13, &format!("d/dw{k}"));
    }
    // A differentiated design matrix next to constant weights and labels.
    let mut dx = Array2::zeros((5, 3));
    dx[[2, 1]] = 1.0;
    let d = log_loss_frule(Dual::constant(&w), Dual::new(&x, &dx), Dual::constant(&y));
    close(
        d.tangent,
        (sigmoid(z[2]) - y[2]) * w[1] / 5.0,
        1e-13,
        "d/dx21",
    );
}

/// Half the squared residual of a least-squares fit `‖A θ − b‖² / 2`.
#[derive_frule]
fn half_sq_residual(theta: &DVector<f64>, a: &DMatrix<f64>, b: &DVector<f64>) -> f64 {
    let r = a * theta - b;
    0.5 * r.norm_squared()
}

/// A quadratic form under a fixed inertia tensor, and a point moved by a fixed pose.
#[derive_frule]
fn rotational_energy(omega: &Vector3<f64>, inertia: &Matrix3<f64>) -> f64 {
    0.5 * omega.dot(&(inertia * omega))
}

#[derive_frule]
fn transformed_height(p: &Point3<f64>, pose: &Isometry3<f64>) -> f64 {
    (pose * p).z
}

#[test]
fn nalgebra_data_as_constants() {
    let a = DMatrix::from_row_slice(4, 2, &[1.0, 0.0, 1.0, 1.0, 1.0, 2.0, 1.0, 3.0]);
    let b = DVector::from_vec(vec![0.9, 2.1, 2.9, 4.2]);
    let theta = DVector::from_vec(vec![0.8, 1.05]);
    let r = &a * &theta - &b;
    for k in 0..2 {
        let mut e = DVector::zeros(2);
        e[k] = 1.0;
        let d = half_sq_residual_frule(
            Dual::new(&theta, &e),
            Dual::constant(&a),
            Dual::constant(&b),
        );
        assert_eq!(
            d.primal.to_bits(),
            half_sq_residual(&theta, &a, &b).to_bits()
        );
        // ∇ = Aᵀ r.
        let want: f64 = (0..4).map(|i| a[(i, k)] * r[i]).sum();
        close(d.tangent, want, 1e-13, &format!("d/dθ{k}"));
    }
    let inertia = Matrix3::new(2.0, 0.1, 0.0, 0.1, 1.5, 0.2, 0.0, 0.2, 1.0);
    let omega = Vector3::new(0.3, -0.4, 1.2);
    let d = rotational_energy_frule(
        Dual::new(&omega, &Vector3::new(0.0, 1.0, 0.0)),
        Dual::constant(&inertia),
    );
    // ∂/∂ω (ωᵀ I ω / 2) = I ω for a symmetric I.
    close(d.tangent, (inertia * omega)[1], 1e-14, "(Iω)_y");
    let pose = Isometry3::new(Vector3::new(0.1, 0.2, 0.3), Vector3::new(0.4, -0.2, 0.7));
    let p = Point3::new(1.0, 2.0, 3.0);
    let d = transformed_height_frule(
        Dual::new(&p, &Vector3::new(1.0, 0.0, 0.0)),
        Dual::constant(&pose),
    );
    // The height's derivative in p.x is the rotation's (2, 0) entry.
    let rot = pose.rotation.to_rotation_matrix();
    close(d.tangent, rot[(2, 0)], 1e-14, "R20");
}
