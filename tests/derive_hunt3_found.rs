//! Third hunt for wrong primals and derivatives.
#![allow(clippy::needless_range_loop)]
use fwdad::drivers::{bind, gradient, gradient_with, hessian_with, jvp, Wrt};
use fwdad::prelude::*;

mod common;

use common::modes::{assert_close, fd_gradient};

/// Each first derivative of `$rule` (a `bind` of a `&[f64] -> f64` rule) in one direction
/// per input, in batches of 4 and 1, `gradient` and at second order, against `$want`, each
/// primal bit for bit against `$plain`.
macro_rules! check_first_order {
    ($rule:expr, $plain:expr, $x:expr, $want:expr) => {{
        let x: &[f64] = &$x;
        let plain = $plain;
        let y: f64 = plain(x);
        let want: Vec<f64> = $want;
        let mut modes: Vec<(&str, f64, Vec<f64>)> = Vec::new();
        let mut one = Vec::new();
        let mut v1 = 0.0;
        for k in 0..x.len() {
            let mut e = vec![0.0; x.len()];
            e[k] = 1.0;
            let (v, d): (f64, f64) = jvp($rule, x, &e);
            one.push(d);
            v1 = v;
        }
        modes.push(("one direction", v1, one));
        let (v, gb) = gradient_with::<4>($rule, x);
        modes.push(("batch of 4", v, gb));
        let (v, gb) = gradient_with::<1>($rule, x);
        modes.push(("batch of 1", v, gb));
        let (v, gb) = gradient($rule, x);
        modes.push(("gradient", v, gb));
        let (v, gh, _) = hessian_with::<2>($rule, x);
        modes.push(("second order", v, gh));
        for (mode, v, d) in modes {
            assert_eq!(v.to_bits(), y.to_bits(), "{mode}: primal");
            for k in 0..x.len() {
                assert_close(d[k], want[k], 1e-6, &format!("{mode}: d/dx{k}"));
            }
        }
    }};
}

// ---------------------------------------------------------------------------------------
// Found: `√(d² + a·d)` with `d = x[i] − x[j]` and `i = j` in batches

/// A pair term `√(d² + a·d)` between two entries picked by index (a pair list that may
/// hold a self-pair), plus a linear term.
#[derive_frule]
fn pair_term(x: &[f64], i: usize, j: usize) -> f64 {
    let d = x[i] - x[j];
    let a = x[2];
    (d * d + a * d).sqrt() + a * x[0]
}

#[test]
fn kink_of_a_difference_of_one_entry() {
    let x = [0.7, -0.3, 1.5];
    // `i = j`: `d` is 0 whatever `x`, so the root is constant 0; the gradient is that of
    // `a·x₀`.
    check_first_order!(
        bind(pair_term {}, (Wrt, 1, 1)),
        |x: &[f64]| pair_term(x, 1, 1),
        x,
        vec![1.5, 0.0, 0.7]
    );
    // Away from the kink, against central differences.
    let g = fd_gradient(&|x: &[f64]| pair_term(x, 0, 1), &x);
    check_first_order!(
        bind(pair_term {}, (Wrt, 0, 1)),
        |x: &[f64]| pair_term(x, 0, 1),
        x,
        g
    );
}

#[test]
fn kink_of_a_difference_along_directions_that_keep_it() {
    // Two entries equal (`d = 0`), with directions along which `d` stays 0: moving both
    // entries together, and moving `a`. Along them `f = a·x₀` plus 0, so the derivatives are
    // `a` and `x₀`. (Along `x₀` alone the root has an infinite derivative.)
    let x = [0.4, 0.4, 1.5];
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let want = [1.5, 0.4];
    for (dir, want) in dirs.iter().zip(want) {
        let (v, d): (f64, f64) = jvp(bind(pair_term {}, (Wrt, 0, 1)), &x, dir);
        assert_eq!(v.to_bits(), pair_term(&x, 0, 1).to_bits());
        assert_close(d, want, 1e-15, "one direction");
    }
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    let out = <pair_term as Frule<_, Batch<f64, 2>>>::frule(
        &pair_term {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), pair_term(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "batch of 2");
    }
}

/// `√(a·(xᵢ − xⱼ))`: one product of a difference under the root.
#[derive_frule]
fn scaled_gap_root(x: &[f64], i: usize, j: usize) -> f64 {
    (x[2] * (x[i] - x[j])).sqrt() + x[2] * x[0]
}

/// `asin(1 − (xᵢ − xⱼ)²·a − a·(xᵢ − xⱼ))`: the kink of `asin` at 1.
#[derive_frule]
fn gap_asin(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    (1.0 + a * x[j] - a * x[i]).asin() * a
}

#[test]
fn kinks_of_cancelling_roots_along_directions_that_keep_them() {
    let x = [0.4, 0.4, 1.5];
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    // `√(a·d)` with `d` kept 0: `a·x₀`, derivatives `a`, `x₀`.
    let want = [1.5, 0.4];
    let out = <scaled_gap_root as Frule<_, Batch<f64, 2>>>::frule(
        &scaled_gap_root {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), scaled_gap_root(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "√(a·d), batch of 2");
        let (_, d): (f64, f64) = jvp(bind(scaled_gap_root {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "√(a·d), one direction");
    }
    // `asin(1 + a·(xⱼ − xᵢ))·a` with `d` kept 0: `asin(1)·a`, derivatives 0 and π/2.
    let want = [0.0, std::f64::consts::FRAC_PI_2];
    let out = <gap_asin as Frule<_, Batch<f64, 2>>>::frule(
        &gap_asin {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), gap_asin(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "asin, batch of 2");
        let (_, d): (f64, f64) = jvp(bind(gap_asin {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "asin, one direction");
    }
    // And `i = j` in every mode, against the closed forms.
    check_first_order!(
        bind(scaled_gap_root {}, (Wrt, 1, 1)),
        |x: &[f64]| scaled_gap_root(x, 1, 1),
        x,
        vec![1.5, 0.0, 0.4]
    );
    check_first_order!(
        bind(gap_asin {}, (Wrt, 1, 1)),
        |x: &[f64]| gap_asin(x, 1, 1),
        x,
        vec![0.0, 0.0, std::f64::consts::FRAC_PI_2]
    );
}

/// The kink of [`gap_asin`] in an arm of an `if` whose value a chain reads on.
#[derive_frule]
fn gap_asin_branch(x: &[f64], i: usize, j: usize) -> f64 {
    let a = x[2];
    let s = if a > 0.0 {
        (1.0 + a * x[j] - a * x[i]).asin()
    } else {
        a * x[0]
    };
    s * a + x[0]
}

#[test]
fn kink_of_cancelling_roots_in_an_arm() {
    let x = [0.4, 0.4, 1.5];
    let dirs = [[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let dx: Vec<Batch<f64, 2>> = (0..3).map(|k| Batch([dirs[0][k], dirs[1][k]])).collect();
    // `asin(1)·a + x₀` with `d` kept 0: derivatives 1 and π/2.
    let want = [1.0, std::f64::consts::FRAC_PI_2];
    let out = <gap_asin_branch as Frule<_, Batch<f64, 2>>>::frule(
        &gap_asin_branch {},
        (
            Dual::new(&x[..], &dx[..]),
            Dual::new(0, NoTangent),
            Dual::new(1, NoTangent),
        ),
    );
    assert_eq!(out.primal.to_bits(), gap_asin_branch(&x, 0, 1).to_bits());
    for lane in 0..2 {
        assert_close(out.tangent.0[lane], want[lane], 1e-15, "batch of 2");
        let (_, d): (f64, f64) = jvp(bind(gap_asin_branch {}, (Wrt, 0, 1)), &x, &dirs[lane]);
        assert_close(d, want[lane], 1e-15, "one direction");
    }
    check_first_order!(
        bind(gap_asin_branch {}, (Wrt, 1, 1)),
        |x: &[f64]| gap_asin_branch(x, 1, 1),
        x,
        vec![1.0, 0.0, std::f64::consts::FRAC_PI_2]
    );
}
