//! ndarray as ML engineers and physicists write it, annotated unmodified: a tanh layer
//! `(W x + b).mapv(f64::tanh)`, a softmax over the rows of a score matrix updated in place
//! (`axis_iter_mut`, the row's `fold` and `mapv_inplace`), features centred row by row
//! (`rows_mut`), rows scaled with `outer_iter_mut().enumerate()`, columns read with
//! `axis_iter`, a three-index tensor built with `Array3::from_shape_fn` or filled into
//! `Array3::zeros`, `map_inplace`, and the trapezoid rule over `Array1::linspace`.
//! Each in one direction, in batches (`gradient_with::<4>`) and at second order
//! (`hessian_with::<2>`) against central differences or closed forms; primals bit for bit.
//!
//! Run with `cargo test --features ndarray --test reach_apps_ndarray_users`.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use fwdad::prelude::*;
use ndarray::{s, Array1, Array2, Array3, Axis};

/// A dense layer with a tanh activation, summed: the activation passed by name.
#[derive_frule]
fn tanh_layer(w: &Array2<f64>, x: &Array1<f64>, b: &Array1<f64>) -> f64 {
    let h = (w.dot(x) + b).mapv(f64::tanh);
    h.sum()
}

/// The same layer with the activation written as a closure.
#[derive_frule]
fn tanh_layer_closure(w: &Array2<f64>, x: &Array1<f64>, b: &Array1<f64>) -> f64 {
    let h = (w.dot(x) + b).mapv(|v| v.tanh());
    h.sum()
}

/// Both layers of the weights and biases `p = [W by rows, b]` at a fixed input.
#[derive_frule]
fn layer_of_params(p: &[f64]) -> f64 {
    let w = Array2::from_shape_vec((2, 2), p[0..4].to_vec()).unwrap();
    let x = Array1::from_vec(vec![0.5, -1.0]);
    let b = Array1::from_vec(p[4..6].to_vec());
    tanh_layer(&w, &x, &b) + 0.5 * tanh_layer_closure(&w, &x, &b)
}

#[test]
fn tanh_layer_has_the_backprop_gradient() {
    let p = [0.3, -0.2, 0.5, 0.9, 0.1, -0.1];
    // ∂/∂W_ij = 1.5 (1 − hᵢ²) xⱼ, ∂/∂bᵢ = 1.5 (1 − hᵢ²).
    let x = [0.5, -1.0];
    let (v, g) = fwdad::gradient_with::<4>(layer_of_params {}, &p);
    assert_eq!(v.to_bits(), layer_of_params(&p).to_bits());
    for i in 0..2 {
        let z = p[2 * i] * x[0] + p[2 * i + 1] * x[1] + p[4 + i];
        let s = 1.5 * (1.0 - z.tanh().powi(2));
        assert!((g[2 * i] - s * x[0]).abs() < 1e-14, "∂W{i}0");
        assert!((g[2 * i + 1] - s * x[1]).abs() < 1e-14, "∂W{i}1");
        assert!((g[4 + i] - s).abs() < 1e-14, "∂b{i}");
    }
    check_modes!(layer_of_params {}, layer_of_params, p);
}

/// Attention-like weights: a softmax over each row of a 2×3 score matrix, in place.
#[derive_frule]
fn row_softmax(scores: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((2, 3), scores.to_vec()).unwrap();
    for mut row in a.axis_iter_mut(Axis(0)) {
        let m = row.fold(f64::NEG_INFINITY, |m, &v| m.max(v));
        row.mapv_inplace(|v| (v - m).exp());
        let s = row.sum();
        row /= s;
    }
    a[[0, 1]] * 2.0 + a[[1, 2]]
}

#[test]
fn row_softmax_in_place_has_the_softmax_jacobian() {
    let x: [f64; 6] = [1.0, 0.3, 1.5, -0.4, 0.7, 0.2];
    let softmax = |r: &[f64]| {
        let e: Vec<f64> = r.iter().map(|v| v.exp()).collect();
        let s: f64 = e.iter().sum();
        e.iter().map(|v| v / s).collect::<Vec<f64>>()
    };
    let (s0, s1) = (softmax(&x[0..3]), softmax(&x[3..6]));
    // ∂sᵢ/∂xⱼ = sᵢ (δᵢⱼ − sⱼ) within a row.
    let mut want = [0.0; 6];
    for j in 0..3 {
        want[j] = 2.0 * s0[1] * (f64::from(u8::from(j == 1)) - s0[j]);
        want[3 + j] = s1[2] * (f64::from(u8::from(j == 2)) - s1[j]);
    }
    let (v, g) = fwdad::gradient_with::<4>(row_softmax {}, &x);
    assert_eq!(v.to_bits(), row_softmax(&x).to_bits());
    for i in 0..6 {
        assert!(
            (g[i] - want[i]).abs() < 1e-14,
            "∂{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    check_modes!(row_softmax {}, row_softmax, x);
}

/// Features centred by their column means, row by row; the centred data's energy.
#[derive_frule]
fn centred_energy(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((2, 3), x.to_vec()).unwrap();
    let mean = a.mean_axis(Axis(0)).unwrap();
    for mut r in a.rows_mut() {
        r -= &mean;
    }
    (&a * &a).sum()
}

/// Row `i` of a 3×2 matrix scaled by `i + 1`.
#[derive_frule]
fn graded_rows(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 2), x.to_vec()).unwrap();
    for (i, mut r) in a.outer_iter_mut().enumerate() {
        r *= (i + 1) as f64;
    }
    a.sum() + a[[2, 1]] * a[[0, 0]]
}

/// Rows and columns read through views: row lengths, and columns weighted by position.
#[derive_frule]
fn lane_statistics(x: &[f64]) -> f64 {
    let a = Array2::from_shape_vec((2, 3), x.to_vec()).unwrap();
    let mut s = 0.0;
    for row in a.rows() {
        s += row.dot(&row).sqrt();
    }
    for (j, col) in a.axis_iter(Axis(1)).enumerate() {
        s += col.sum() * (j as f64 + 1.0);
    }
    s
}

#[test]
fn rows_updated_in_place() {
    let x: [f64; 6] = [1.0, 0.3, 1.5, -0.4, 0.7, 0.2];
    // Closed form of the centred energy: Σⱼ (x₀ⱼ − x₁ⱼ)² / 2, gradient ±(x₀ⱼ − x₁ⱼ).
    let (v, g) = fwdad::gradient_with::<4>(centred_energy {}, &x);
    assert_eq!(v.to_bits(), centred_energy(&x).to_bits());
    for j in 0..3 {
        let d = x[j] - x[3 + j];
        assert!(
            (g[j] - d).abs() < 1e-14 && (g[3 + j] + d).abs() < 1e-14,
            "column {j}"
        );
    }
    check_modes!(centred_energy {}, centred_energy, x);
    check_modes!(graded_rows {}, graded_rows, x);
    check_modes!(lane_statistics {}, lane_statistics, x);
}

/// The squared entries of the tensor `T_ijk = x_i x_j + x_k`, summed.
#[derive_frule]
fn tensor_energy(x: &[f64]) -> f64 {
    let n = 3;
    let t = Array3::from_shape_fn((n, n, n), |(i, j, k)| x[i] * x[j] + x[k]);
    t.mapv(|v| v * v).sum()
}

/// The entries of `T_ijk = x_i x_j − x_k` filled into `Array3::zeros`, summed.
#[derive_frule]
fn tensor_filled(x: &[f64]) -> f64 {
    let mut t = Array3::<f64>::zeros((2, 2, 2));
    for i in 0..2 {
        for j in 0..2 {
            for k in 0..2 {
                t[[i, j, k]] = x[i] * x[j] - x[k];
            }
        }
    }
    t.sum()
}

#[test]
fn three_index_tensors() {
    let x: [f64; 3] = [0.4, -0.3, 0.8];
    // Σ_ijk (xᵢxⱼ + xₖ)²: ∂/∂xₘ = Σ 2(xᵢxⱼ + xₖ)(δᵢₘxⱼ + xᵢδⱼₘ + δₖₘ).
    let mut want = [0.0; 3];
    for i in 0..3 {
        for j in 0..3 {
            for k in 0..3 {
                let t = x[i] * x[j] + x[k];
                want[i] += 2.0 * t * x[j];
                want[j] += 2.0 * t * x[i];
                want[k] += 2.0 * t;
            }
        }
    }
    let (v, g) = fwdad::gradient_with::<4>(tensor_energy {}, &x);
    assert_eq!(v.to_bits(), tensor_energy(&x).to_bits());
    for m in 0..3 {
        assert!(
            (g[m] - want[m]).abs() < 1e-13,
            "∂{m}: {} vs {}",
            g[m],
            want[m]
        );
    }
    check_modes!(tensor_energy {}, tensor_energy, x);
    check_modes!(tensor_filled {}, tensor_filled, [0.8, 0.6]);
}

/// `x sin x` elementwise in place, summed.
#[derive_frule]
fn damped_in_place(x: &[f64]) -> f64 {
    let mut a = Array1::from_vec(x.to_vec());
    a.map_inplace(|v| *v *= v.sin());
    a.sum()
}

/// A leaky activation applied in place, the gain `k` read from the first input.
#[derive_frule]
fn leaky_in_place(x: &[f64]) -> f64 {
    let mut a = Array1::from_vec(x.to_vec());
    let k = x[0];
    a.map_inplace(|v: &mut f64| {
        if *v > 0.0 {
            *v = (k * *v).tanh();
        } else {
            *v *= 0.1;
        }
    });
    a.sum()
}

#[test]
fn map_inplace_writes_each_element() {
    let x = [1.0, 0.3, 1.5];
    let (v, g) = fwdad::gradient_with::<4>(damped_in_place {}, &x);
    assert_eq!(v.to_bits(), damped_in_place(&x).to_bits());
    for i in 0..3 {
        let want = x[i].cos() * x[i] + x[i].sin();
        assert!((g[i] - want).abs() < 1e-15, "∂{i}");
    }
    check_modes!(damped_in_place {}, damped_in_place, x);
    check_modes!(leaky_in_place {}, leaky_in_place, [1.0, -0.3, 1.5]);
}

/// `∫₀^L sin(ω s) ds` by the trapezoid rule on 11 points of `linspace`, `[L, ω]`.
#[derive_frule]
fn trapezoid(p: &[f64]) -> f64 {
    let t = Array1::linspace(0.0, p[0], 11);
    let y = t.mapv(|s| (p[1] * s).sin());
    let h = p[0] / 10.0;
    h * (y.sum() - 0.5 * (y[0] + y[10]))
}

#[test]
fn trapezoid_over_linspace() {
    let p = [1.3, 0.6];
    check_modes!(trapezoid {}, trapezoid, p);
    // Close to the integral's own derivatives: ∂/∂L = sin(ωL).
    let (_, g) = fwdad::gradient_with::<4>(trapezoid {}, &p);
    assert!((g[0] - (p[1] * p[0]).sin()).abs() < 1e-2);
}

/// Explicit Euler steps of `ṗ = v ∘ p` for particles whose positions start at `x`,
/// element by element through `iter_mut().zip(..)`.
#[derive_frule]
fn euler_positions(x: &[f64]) -> f64 {
    let mut pos = Array1::from_vec(x.to_vec());
    let vel = Array1::from_vec(vec![0.5, -0.25, 1.0]);
    let dt = 0.1;
    for _ in 0..3 {
        for (p, &v) in pos.iter_mut().zip(vel.iter()) {
            *p += dt * v * *p;
        }
    }
    pos.iter().map(|p| p * p).sum::<f64>()
}

#[test]
fn elements_written_through_iter_mut() {
    let x: [f64; 3] = [1.0, 0.3, 1.5];
    // Each position grows by (1 + dt vᵢ)³: the gradient is 2 xᵢ (1 + dt vᵢ)⁶.
    let v: [f64; 3] = [0.5, -0.25, 1.0];
    let (val, g) = fwdad::gradient_with::<4>(euler_positions {}, &x);
    assert_eq!(val.to_bits(), euler_positions(&x).to_bits());
    for i in 0..3 {
        let want = 2.0 * x[i] * (1.0 + 0.1 * v[i]).powi(6);
        assert!((g[i] - want).abs() < 1e-13, "∂{i}: {} vs {want}", g[i]);
    }
    check_modes!(euler_positions {}, euler_positions, x);
}

/// A feature column rescaled and another shifted through views bound by `let`.
#[derive_frule]
fn rescaled_features(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((2, 3), x.to_vec()).unwrap();
    let mut c = a.column_mut(1);
    c *= 3.0;
    let mut t = a.slice_mut(s![.., 2]);
    t += 1.0;
    a[[0, 1]] * a[[1, 2]] + a[[0, 2]]
}

#[test]
fn views_bound_by_let_write_the_array() {
    let x: [f64; 6] = [0.3, -0.7, 1.2, 0.5, 0.1, -0.4];
    // 3 x₁ (x₅ + 1) + x₂ + 1.
    let (v, g) = fwdad::gradient_with::<4>(rescaled_features {}, &x);
    assert_eq!(v.to_bits(), rescaled_features(&x).to_bits());
    assert!((v - (3.0 * x[1] * (x[5] + 1.0) + x[2] + 1.0)).abs() < 1e-15);
    let want = [0.0, 3.0 * (x[5] + 1.0), 1.0, 0.0, 0.0, 3.0 * x[1]];
    for i in 0..6 {
        assert!(
            (g[i] - want[i]).abs() < 1e-15,
            "∂{i}: {} vs {}",
            g[i],
            want[i]
        );
    }
    check_modes!(rescaled_features {}, rescaled_features, x);
}
