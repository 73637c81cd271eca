//! Functions and checks shared by the driver tests: DiffTests-style scalar functions,
//! Rosenbrock and Ackley with hand-derived gradients, test points, and a matrix
//! comparison; `modes`, the every-mode check of the idiom tests. Each test crate uses a
//! part of it.
#![allow(dead_code, clippy::needless_range_loop)]

pub mod modes;
pub mod scaled;
pub mod widths;

use fwdad::drivers::Matrix;
use fwdad::prelude::*;

pub fn test_points(n: usize, seed: u64) -> Vec<f64> {
    // A deterministic spread of values in (-1.5, 1.5), none zero.
    (0..n)
        .map(|i| {
            let t = ((i as u64 * 2654435761 + seed * 40503) % 1000) as f64 / 1000.0;
            let v = 3.0 * t - 1.5;
            if v.abs() < 0.05 {
                0.37
            } else {
                v
            }
        })
        .collect()
}

pub fn assert_matrix_close(a: &Matrix, b: &Matrix, max_relative: f64, epsilon: f64, what: &str) {
    assert_eq!(a.shape(), b.shape(), "{what}: shapes");
    for i in 0..a.nrows() {
        for j in 0..a.ncols() {
            assert!(
                approx::relative_eq!(
                    a[(i, j)],
                    b[(i, j)],
                    max_relative = max_relative,
                    epsilon = epsilon
                ),
                "{what}: entry ({i}, {j}): {} vs {}",
                a[(i, j)],
                b[(i, j)]
            );
        }
    }
}

/// The extended Rosenbrock function.
#[derive_frule]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

pub fn rosenbrock_grad_exact(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n {
        if i + 1 < n {
            g[i] += -400.0 * x[i] * (x[i + 1] - x[i] * x[i]) - 2.0 * (1.0 - x[i]);
        }
        if i > 0 {
            g[i] += 200.0 * (x[i] - x[i - 1] * x[i - 1]);
        }
    }
    g
}

/// The Ackley function in n dimensions.
#[derive_frule]
pub fn ackley(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut s1 = 0.0;
    let mut s2 = 0.0;
    for i in 0..x.len() {
        s1 += x[i] * x[i];
        s2 += (2.0 * std::f64::consts::PI * x[i]).cos();
    }
    -20.0 * (-0.2 * (s1 / n).sqrt()).exp() - (s2 / n).exp() + 20.0 + std::f64::consts::E
}

pub fn ackley_grad_exact(x: &[f64]) -> Vec<f64> {
    use std::f64::consts::PI;
    let n = x.len() as f64;
    let s1: f64 = x.iter().map(|v| v * v).sum();
    let s2: f64 = x.iter().map(|v| (2.0 * PI * v).cos()).sum();
    let r = (s1 / n).sqrt();
    let e = (-0.2 * r).exp();
    let g = (s2 / n).exp();
    x.iter()
        .map(|&xi| 4.0 / n * e * xi / r + 2.0 * PI / n * g * (2.0 * PI * xi).sin())
        .collect()
}

/// tan²x, written as DiffTests writes it.
#[derive_frule]
pub fn num2num_1(x: f64) -> f64 {
    x.sin().powi(2) / x.cos().powi(2)
}

#[derive_frule]
pub fn num2num_2(x: f64) -> f64 {
    2.0 * x + (x * x * x).sqrt()
}

#[derive_frule]
pub fn num2num_3(x: f64) -> f64 {
    10.31_f64.powf(x + x) - x
}

/// The logistic function.
#[derive_frule]
pub fn num2num_5(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}
