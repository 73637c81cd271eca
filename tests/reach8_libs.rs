//! Library walls the tenth session's newcomer programs hit: a chain summed into nalgebra's
//! `DVector<f64>` (`.sum::<DVector<f64>>()`, `let total: DVector<f64> = it.sum();`), which
//! nalgebra starts from the first item. Checked in every mode against central differences
//! (`check_modes!`, primals bit for bit) and a closed form.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use common::modes::assert_close;
use fwdad::prelude::*;
use nalgebra::{DMatrix, DVector};

/// The weighted centroid of a point cloud (points as dynamic vectors), its distance from
/// the origin: a chain of scaled points summed into a `DVector`.
#[derive_frule]
fn centroid_distance(points: &[DVector<f64>], w: &[f64]) -> f64 {
    let total = points
        .iter()
        .zip(w)
        .map(|(p, wi)| p * *wi)
        .sum::<DVector<f64>>();
    let mass: f64 = w.iter().sum();
    (total / mass).norm()
}

fn cloud() -> Vec<DVector<f64>> {
    vec![
        DVector::from_vec(vec![1.0, 0.5, -0.2]),
        DVector::from_vec(vec![0.3, 2.0, 0.7]),
        DVector::from_vec(vec![-1.1, 0.4, 1.5]),
        DVector::from_vec(vec![0.8, -0.6, 0.1]),
    ]
}

#[test]
fn chain_summed_into_a_dvector() {
    let pts = cloud();
    let w = [0.5, 1.5, 1.0, 2.0];
    check_modes!(
        bind(centroid_distance {}, (&pts[..], Wrt)),
        |w: &[f64]| centroid_distance(&pts, w),
        w
    );
    // Closed form: c = Σ wᵢ pᵢ / Σ wᵢ, d|c|/dwₖ = ĉ · (pₖ - c) / Σ w.
    let (v, g) = gradient(bind(centroid_distance {}, (&pts[..], Wrt)), &w);
    assert_eq!(v.to_bits(), centroid_distance(&pts, &w).to_bits());
    let mass: f64 = w.iter().sum();
    let c = pts
        .iter()
        .zip(&w)
        .fold(DVector::zeros(3), |a, (p, wi)| a + p * *wi)
        / mass;
    let n = c.normalize();
    for k in 0..4 {
        assert_close(g[k], n.dot(&(&pts[k] - &c)) / mass, 1e-13, "d|c|/dw");
    }
}

/// A sum of outer products (a scatter matrix) typed on its `let`, then its trace.
#[derive_frule]
fn scatter_trace(x: &[f64]) -> f64 {
    let rows: Vec<DVector<f64>> = x.chunks(2).map(DVector::from_column_slice).collect();
    let scatter: DMatrix<f64> = rows.iter().map(|r| r * r.transpose()).sum();
    scatter.trace() + scatter[(0, 1)]
}

#[test]
fn let_typed_sum_of_dmatrices() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5, 3.0];
    check_modes!(bind(scatter_trace {}, (Wrt,)), scatter_trace, x);
    // Closed form: Σ (aᵢ² + bᵢ² + aᵢ bᵢ), d/da = 2a + b, d/db = 2b + a.
    let (_, g) = gradient(bind(scatter_trace {}, (Wrt,)), &x);
    for i in 0..3 {
        let (a, b) = (x[2 * i], x[2 * i + 1]);
        assert_close(g[2 * i], 2.0 * a + b, 1e-14, "d/da");
        assert_close(g[2 * i + 1], 2.0 * b + a, 1e-14, "d/db");
    }
}

/// A spread about the mean of rows summed by reference (`Sum<&DVector<f64>>`).
#[derive_frule]
fn spread(x: &[f64]) -> f64 {
    let rows: Vec<DVector<f64>> = x.chunks(3).map(DVector::from_column_slice).collect();
    let total: DVector<f64> = rows.iter().sum();
    let mean = total / rows.len() as f64;
    rows.iter().map(|r| (r - &mean).norm_squared()).sum::<f64>()
}

#[test]
fn sum_of_dvectors_by_reference() {
    let x = [0.5, -1.0, 2.0, 0.25, 1.5, 3.0, -0.7, 0.2, 1.1];
    check_modes!(bind(spread {}, (Wrt,)), spread, x);
    // Closed form: d/dx = 2 (x - mean) (the mean's own terms cancel).
    let (_, g) = gradient(bind(spread {}, (Wrt,)), &x);
    for j in 0..3 {
        let mean = (x[j] + x[3 + j] + x[6 + j]) / 3.0;
        for i in 0..3 {
            assert_close(g[3 * i + j], 2.0 * (x[3 * i + j] - mean), 1e-13, "d/dx");
        }
    }
}
