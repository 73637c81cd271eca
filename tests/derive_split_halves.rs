//! Parameters packed in one vector and unpacked with `split_at`, as ML code does: the
//! halves are slices, so iterator chains over them (`w2.iter().zip(h)`, `h.iter().zip(w2)`)
//! differentiate like chains over a parameter. Checked against central differences.
#![allow(clippy::needless_range_loop)]

use fwdad::drivers::{bind, hessian, Wrt};
use fwdad::prelude::*;

/// A 2-4-1 tanh network's mean squared error; `params` = [W1 (4×2), b1, w2, b2].
#[derive_frule]
fn mlp_loss(params: &[f64], inputs: &[[f64; 2]], targets: &[f64]) -> f64 {
    let (w1, rest) = params.split_at(8);
    let (b1, rest) = rest.split_at(4);
    let (w2, b2) = rest.split_at(4);
    let mut total = 0.0;
    for (x, t) in inputs.iter().zip(targets.iter()) {
        let mut h = [0.0; 4];
        for j in 0..4 {
            h[j] = (w1[2 * j] * x[0] + w1[2 * j + 1] * x[1] + b1[j]).tanh();
        }
        let y = h.iter().zip(w2).map(|(a, b)| a * b).sum::<f64>() + b2[0];
        total += (y - t).powi(2);
    }
    total / inputs.len() as f64
}

/// Weighted inner product of the two halves of `x`.
#[derive_frule]
fn halves_dot(x: &[f64]) -> f64 {
    let (a, b) = x.split_at(x.len() / 2);
    a.iter().zip(b).map(|(u, v)| u * v).sum::<f64>()
}

const INPUTS: [[f64; 2]; 4] = [[0.1, 0.2], [0.5, -0.3], [-0.8, 0.9], [0.3, 0.3]];
const TARGETS: [f64; 4] = [0.3, -0.1, 0.7, 0.2];

fn central<F: Fn(&[f64]) -> f64>(f: F, x: &[f64], i: usize, h: f64) -> f64 {
    let mut a = x.to_vec();
    a[i] += h;
    let mut b = x.to_vec();
    b[i] -= h;
    (f(&a) - f(&b)) / (2.0 * h)
}

#[test]
fn mlp_gradient_matches_central_differences() {
    let params: Vec<f64> = (0..17).map(|i| (i as f64 * 0.37).sin() * 0.5).collect();
    let (v, g) = gradient(bind(mlp_loss {}, (Wrt, &INPUTS[..], &TARGETS[..])), &params);
    assert_eq!(v, mlp_loss(&params, &INPUTS, &TARGETS));
    let f = |p: &[f64]| mlp_loss(p, &INPUTS, &TARGETS);
    for i in 0..17 {
        let fd = central(f, &params, i, 1e-6);
        assert!((g[i] - fd).abs() < 1e-8, "∂/∂p{i}: {} vs {fd}", g[i]);
    }
    // One direction agrees with the batched gradient.
    let dir: Vec<f64> = (0..17)
        .map(|i| if i % 3 == 0 { 1.0 } else { -0.5 })
        .collect();
    let (_, dv) = jvp(
        bind(mlp_loss {}, (Wrt, &INPUTS[..], &TARGETS[..])),
        &params,
        &dir,
    );
    let want: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert!((dv - want).abs() < 1e-12 * (1.0 + want.abs()));
}

#[test]
fn mlp_hessian_matches_differences_of_the_gradient() {
    let params: Vec<f64> = (0..17).map(|i| (i as f64 * 0.61).cos() * 0.4).collect();
    let (_, _, h) = hessian(bind(mlp_loss {}, (Wrt, &INPUTS[..], &TARGETS[..])), &params);
    let grad = |p: &[f64]| gradient(bind(mlp_loss {}, (Wrt, &INPUTS[..], &TARGETS[..])), p).1;
    for j in [0, 5, 9, 13, 16] {
        let step = 1e-5;
        let mut a = params.clone();
        a[j] += step;
        let mut b = params.clone();
        b[j] -= step;
        let (ga, gb) = (grad(&a), grad(&b));
        for i in 0..17 {
            let fd = (ga[i] - gb[i]) / (2.0 * step);
            assert!(
                (h[(i, j)] - fd).abs() < 1e-7,
                "H[{i},{j}]: {} vs {fd}",
                h[(i, j)]
            );
        }
    }
}

#[test]
fn halves_of_a_parameter_zip() {
    let x = [1.0, 2.0, 3.0, -4.0, 0.5, 2.0];
    let (v, g) = gradient(halves_dot {}, &x);
    assert_eq!(v, halves_dot(&x));
    // ∂/∂aᵢ = bᵢ, ∂/∂bᵢ = aᵢ.
    assert_eq!(g, [-4.0, 0.5, 2.0, 1.0, 2.0, 3.0]);
}
