//! Functions of a fixed-size array (`&[f64; N]`, `[f64; N]`), the way robotics and
//! geometry code takes joint angles and poses, differentiated through `bind(f {}, (Wrt,
//! ..))`: the drivers fill the array from the slice they get. Every derivative is checked
//! against one written by hand.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use fwdad::drivers::{bind, hessian, jacobian, jvp, Wrt};
use fwdad::prelude::*;

/// End effector of a planar arm with three revolute joints.
#[derive_frule]
fn end_effector(theta: &[f64; 3], lengths: &[f64; 3]) -> [f64; 2] {
    let mut x = 0.0;
    let mut y = 0.0;
    let mut phi = 0.0;
    for i in 0..3 {
        phi += theta[i];
        x += lengths[i] * phi.cos();
        y += lengths[i] * phi.sin();
    }
    [x, y]
}

/// Squared distance of the end effector to a target.
#[derive_frule]
fn reach_error(theta: &[f64; 3]) -> f64 {
    let p = end_effector(theta, &[1.0, 0.8, 0.5]);
    let dx = p[0] - 1.2;
    let dy = p[1] - 0.7;
    dx * dx + dy * dy
}

/// Rosenbrock's banana in two variables, taken by value.
#[derive_frule]
fn banana(p: [f64; 2], a: f64, b: f64) -> f64 {
    let [x, y] = p;
    (a - x).powi(2) + b * (y - x * x).powi(2)
}

/// The arm's Jacobian by hand: ∂x/∂θⱼ = -Σ_{i ≥ j} lᵢ sin φᵢ, ∂y/∂θⱼ = Σ_{i ≥ j} lᵢ cos φᵢ.
fn arm_jacobian(theta: &[f64; 3], l: &[f64; 3]) -> [[f64; 3]; 2] {
    let phi = [
        theta[0],
        theta[0] + theta[1],
        theta[0] + theta[1] + theta[2],
    ];
    let mut j = [[0.0; 3]; 2];
    for c in 0..3 {
        for i in c..3 {
            j[0][c] -= l[i] * phi[i].sin();
            j[1][c] += l[i] * phi[i].cos();
        }
    }
    j
}

#[test]
fn jacobian_of_an_array_parameter() {
    let theta = [0.3, 0.4, -0.2];
    let l = [1.0, 0.8, 0.5];
    let (y, j) = jacobian(bind(end_effector {}, (Wrt, &l)), &theta);
    assert_eq!(y, end_effector(&theta, &l));
    let hand = arm_jacobian(&theta, &l);
    for r in 0..2 {
        for c in 0..3 {
            assert_relative_eq!(j[(r, c)], hand[r][c], max_relative = 1e-14, epsilon = 1e-15);
        }
    }
}

#[test]
fn gradient_of_an_array_parameter() {
    let theta = [0.3, 0.4, -0.2];
    let (v, g) = gradient(bind(reach_error {}, (Wrt,)), &theta);
    assert_eq!(v, reach_error(&theta));
    let p = end_effector(&theta, &[1.0, 0.8, 0.5]);
    let hand = arm_jacobian(&theta, &[1.0, 0.8, 0.5]);
    for c in 0..3 {
        let want = 2.0 * (p[0] - 1.2) * hand[0][c] + 2.0 * (p[1] - 0.7) * hand[1][c];
        assert_relative_eq!(g[c], want, max_relative = 1e-13, epsilon = 1e-15);
    }
    let (_, dv) = jvp(bind(reach_error {}, (Wrt,)), &theta, &[1.0, -1.0, 0.5]);
    assert_relative_eq!(dv, g[0] - g[1] + 0.5 * g[2], max_relative = 1e-13);
}

#[test]
fn hessian_of_an_array_by_value() {
    let (a, b) = (1.0, 100.0);
    let p = [-1.2, 1.0];
    let (v, g, h) = hessian(bind(banana {}, (Wrt, a, b)), &p);
    assert_eq!(v, banana(p, a, b));
    let [x, y] = p;
    assert_relative_eq!(
        g[0],
        -2.0 * (a - x) - 4.0 * b * x * (y - x * x),
        max_relative = 1e-14
    );
    assert_relative_eq!(g[1], 2.0 * b * (y - x * x), max_relative = 1e-14);
    assert_relative_eq!(
        h[(0, 0)],
        2.0 - 4.0 * b * (y - 3.0 * x * x),
        max_relative = 1e-14
    );
    assert_relative_eq!(h[(0, 1)], -4.0 * b * x, max_relative = 1e-14);
    assert_relative_eq!(h[(1, 0)], -4.0 * b * x, max_relative = 1e-14);
    assert_relative_eq!(h[(1, 1)], 2.0 * b, max_relative = 1e-14);
}

#[test]
#[should_panic(
    expected = "the differentiated argument has 2 elements, but the function takes an array of 3"
)]
fn a_slice_of_the_wrong_length_is_reported() {
    let _ = gradient(bind(reach_error {}, (Wrt,)), &[0.1, 0.2]);
}

/// The same arm with its link lengths taken as a slice.
#[derive_frule]
fn end_effector_x(theta: &[f64], lengths: &[f64]) -> f64 {
    let mut x = 0.0;
    let mut phi = 0.0;
    for i in 0..lengths.len() {
        phi += theta[i];
        x += lengths[i] * phi.cos();
    }
    x
}

#[test]
fn an_array_constant_binds_to_a_slice_parameter() {
    let theta = [0.3, 0.4, -0.2];
    let (v, g) = gradient(bind(end_effector_x {}, (Wrt, &[1.0, 0.8, 0.5])), &theta);
    assert_eq!(v, end_effector_x(&theta, &[1.0, 0.8, 0.5]));
    let hand = arm_jacobian(&theta, &[1.0, 0.8, 0.5]);
    for c in 0..3 {
        assert_relative_eq!(g[c], hand[0][c], max_relative = 1e-14, epsilon = 1e-15);
    }
}
