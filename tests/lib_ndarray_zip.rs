//! ndarray's `Zip` and `azip!` in derived bodies (feature `ndarray`): explicit Euler steps,
//! an axpy, a three-array update of a 2-D grid and a parameter read in place, each against
//! central differences of the plain function in one direction, in batches and at second
//! order, primal bit for bit, and against closed forms.
//!
//! Run with `cargo test --features ndarray --test lib_ndarray_zip`.

mod common;

use fwdad::prelude::*;
use ndarray::{azip, Array1, Array2, Zip};

/// Positions after three explicit Euler steps of `ṗ = v ∘ p`, with `Zip`.
#[derive_frule]
fn euler_zip(x: &[f64]) -> f64 {
    let mut pos = Array1::from_vec(x.to_vec());
    let vel = Array1::from_vec(vec![0.5, -0.25, 1.0]);
    let dt = 0.1;
    for _ in 0..3 {
        Zip::from(&mut pos)
            .and(&vel)
            .for_each(|p, &v| *p += dt * v * *p);
    }
    pos.iter().map(|p| p * p).sum::<f64>()
}

/// The same with `azip!`.
#[derive_frule]
fn euler_azip(x: &[f64]) -> f64 {
    let mut pos = Array1::from_vec(x.to_vec());
    let vel = Array1::from_vec(vec![0.5, -0.25, 1.0]);
    let dt = 0.1;
    for _ in 0..3 {
        azip!((p in &mut pos, &v in &vel) *p += dt * v * *p);
    }
    pos.iter().map(|p| p * p).sum::<f64>()
}

#[test]
fn euler_steps_through_zip_and_azip() {
    let x: [f64; 3] = [1.0, 0.3, 1.5];
    let v: [f64; 3] = [0.5, -0.25, 1.0];
    for f in [euler_zip as fn(&[f64]) -> f64, euler_azip] {
        // The plain functions agree with the explicit loop's closed form.
        let want: f64 = (0..3)
            .map(|i| (x[i] * (1.0 + 0.1 * v[i]).powi(3)).powi(2))
            .sum();
        assert!((f(&x) - want).abs() < 1e-12);
    }
    let (val, g) = fwdad::gradient_with::<4>(euler_zip {}, &x);
    assert_eq!(val.to_bits(), euler_zip(&x).to_bits());
    for i in 0..3 {
        let want = 2.0 * x[i] * (1.0 + 0.1 * v[i]).powi(6);
        assert!((g[i] - want).abs() < 1e-13, "∂{i}: {} vs {want}", g[i]);
    }
    check_modes!(euler_zip {}, euler_zip, x);
    check_modes!(euler_azip {}, euler_azip, x);
}

/// `y ← a x + y` with the parameters as ndarray arrays, `x` read in place by `Zip` (a
/// reference parameter, not borrowed again), then a weighted norm.
#[derive_frule]
fn axpy_norm(a: f64, x: &Array1<f64>, y: &Array1<f64>, w: &Array1<f64>) -> f64 {
    let mut y = y.clone();
    Zip::from(&mut y).and(x).for_each(|yi, &xi| {
        *yi += a * xi;
    });
    let mut acc = 0.0;
    azip!((&yi in &y, &wi in w) acc += wi * yi * yi);
    acc.sqrt()
}

#[derive_frule]
fn axpy_norm_of(p: &[f64]) -> f64 {
    let x = Array1::from_vec(vec![p[1], p[2], -0.5]);
    let y = Array1::from_vec(vec![p[3], 0.25, p[1] * p[2]]);
    let w = Array1::from_vec(vec![1.0, 2.0, 0.5]);
    axpy_norm(p[0], &x, &y, &w)
}

#[test]
fn axpy_with_reference_parameters() {
    let p = [0.7, 1.2, -0.4, 0.9];
    check_modes!(axpy_norm_of {}, axpy_norm_of, p);
    // ∂/∂a of √Σ wᵢ (yᵢ + a xᵢ)² is Σ wᵢ (yᵢ + a xᵢ) xᵢ / norm.
    let (x, y, w) = (
        [p[1], p[2], -0.5],
        [p[3], 0.25, p[1] * p[2]],
        [1.0, 2.0, 0.5],
    );
    let n = axpy_norm_of(&p);
    let want: f64 = (0..3)
        .map(|i| w[i] * (y[i] + p[0] * x[i]) * x[i])
        .sum::<f64>()
        / n;
    let (_, g) = gradient(axpy_norm_of {}, &p);
    assert!((g[0] - want).abs() < 1e-13, "{} vs {want}", g[0]);
}

/// One Jacobi sweep of a diffusion on a 2-D grid: three arrays zipped, the result of a
/// closure with a block body and typed parameters.
#[derive_frule]
fn diffuse(x: &[f64]) -> f64 {
    let u = Array2::from_shape_vec((2, 3), x.to_vec()).unwrap();
    let lap = Array2::from_shape_fn((2, 3), |(i, j)| u[[i, j]] * ((i + j) as f64 - 1.5));
    let kappa = Array2::from_elem((2, 3), 0.2);
    let mut next = Array2::<f64>::zeros((2, 3));
    Zip::from(&mut next).and(&u).and(&lap).and(&kappa).for_each(
        |n: &mut f64, &u: &f64, &l: &f64, &k: &f64| {
            let flux = k * l;
            *n = u + flux * u.tanh();
        },
    );
    next.iter().map(|v| v.sin()).sum::<f64>()
}

#[test]
fn diffusion_sweep_over_three_arrays() {
    let x = [0.3, -0.7, 1.1, 0.5, 0.2, -1.3];
    check_modes!(diffuse {}, diffuse, x);
}
