//! `#[primitive(rule = ..)]`: hand-written rules on slices and mutated buffers
//! (`fwdad_special::linalg`, another crate), checked with `test_frule` in one direction
//! and in batches, in second order, and from this crate's derived code.
// Numeric code is written index-style on purpose: it is what users bring to the macro.
#![allow(clippy::needless_range_loop)]

use fwdad::prelude::*;
use fwdad::testing::{test_frule, test_frule_batched};
use fwdad::{Hyper, ScalarTangent};
use fwdad_special::linalg::{self, dot, gemv};

#[test]
fn dot_passes_test_frule() {
    for n in [0, 1, 3, 4, 7, 9] {
        let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).sin()).collect();
        let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).cos() - 0.5).collect();
        let args = (a, b);
        test_frule(
            args.clone(),
            |p| dot(&p.0, &p.1),
            |p, dp| {
                linalg::dot_frule(
                    Dual::new(&p.0[..], &dp.0[..]),
                    Dual::new(&p.1[..], &dp.1[..]),
                )
            },
        );
        test_frule_batched::<4, _, _>(
            args,
            |p| dot(&p.0, &p.1),
            |p, dp| {
                <dot as Frule<_, Batch<f64, 4>>>::frule(
                    &dot {},
                    (
                        Dual::new(&p.0[..], &dp.0[..]),
                        Dual::new(&p.1[..], &dp.1[..]),
                    ),
                )
            },
        );
    }
}

/// `dot` is bilinear: along `u` in `a` and `v` in `b`, the second-order part is `u·v`
/// (the term a rule written with `ScalarTangent::scale` would lose).
#[test]
fn dot_second_order_cross_term() {
    let (a, b) = ([1.0, 2.0, 3.0], [0.5, -1.0, 2.0]);
    let (u, v) = ([0.3, -0.2, 1.0], [2.0, 1.0, -1.0]);
    let ta: Vec<Hyper<f64, f64>> = (0..3)
        .map(|i| Hyper {
            d1: u[i],
            d2: 0.0,
            d12: 0.0,
        })
        .collect();
    let tb: Vec<Hyper<f64, f64>> = (0..3)
        .map(|i| Hyper {
            d1: 0.0,
            d2: v[i],
            d12: 0.0,
        })
        .collect();
    let out = <dot as Frule<_, Hyper<f64, f64>>>::frule(
        &dot {},
        (Dual::new(&a[..], &ta[..]), Dual::new(&b[..], &tb[..])),
    );
    let uv: f64 = (0..3).map(|i| u[i] * v[i]).sum();
    let ub: f64 = (0..3).map(|i| u[i] * b[i]).sum();
    let av: f64 = (0..3).map(|i| a[i] * v[i]).sum();
    assert_eq!(out.primal, dot(&a, &b));
    assert_eq!(out.tangent.d1, ub);
    assert_eq!(out.tangent.d2, av);
    approx::assert_relative_eq!(out.tangent.d12, uv, max_relative = 1e-15);
}

type GemvArgs = (f64, Vec<f64>, Vec<f64>, f64, Vec<f64>);

fn gemv_args() -> GemvArgs {
    let (m, n) = (3, 5);
    let a = (0..m * n)
        .map(|k| ((k * 7 % 11) as f64 - 5.0) / 4.0)
        .collect();
    let x = (0..n).map(|j| (j as f64 * 0.9).sin()).collect();
    let y = (0..m).map(|i| 1.0 - i as f64 * 0.6).collect();
    (0.8, a, x, -1.3, y)
}

#[test]
fn gemv_writes_its_buffer_and_passes_test_frule() {
    let args = gemv_args();
    test_frule(
        args.clone(),
        |p| gemv(p.0, &p.1, &p.2, p.3, &mut p.4),
        |p, dp| {
            linalg::gemv_frule(
                Dual::new(p.0, dp.0),
                Dual::new(&p.1[..], &dp.1[..]),
                Dual::new(&p.2[..], &dp.2[..]),
                Dual::new(p.3, dp.3),
                Dual::new(&mut p.4[..], &mut dp.4[..]),
            )
        },
    );
    test_frule_batched::<3, _, _>(
        args,
        |p| gemv(p.0, &p.1, &p.2, p.3, &mut p.4),
        |p, dp| {
            <gemv as Frule<_, Batch<f64, 3>>>::frule(
                &gemv {},
                (
                    Dual::new(p.0, dp.0),
                    Dual::new(&p.1[..], &dp.1[..]),
                    Dual::new(&p.2[..], &dp.2[..]),
                    Dual::new(p.3, dp.3),
                    Dual::new(&mut p.4[..], &mut dp.4[..]),
                ),
            )
        },
    );
}

/// Derived code calling the kernels of another crate: `y ← A x` into a local buffer, then
/// a quadratic form.
#[derive_frule]
fn energy(a: &[f64], x: &[f64], k: f64) -> f64 {
    let mut y = [0.0; 3];
    gemv(1.0, a, x, 0.0, &mut y[..]);
    let e = dot(&y[..], &y[..]);
    k * e + linalg::dot(x, x)
}

/// A buffer of the caller's, updated in place by the primitive inside derived code.
#[derive_frule]
fn relax(a: &[f64], x: &[f64], y: &mut [f64], w: f64) {
    gemv(w, a, x, 1.0 - w, y);
    for i in 0..y.len() {
        y[i] = y[i].tanh();
    }
}

#[test]
fn derived_code_uses_full_rules() {
    let (_, a, x, _, y) = gemv_args();
    let args = (a.clone(), x.clone(), 0.7);
    test_frule(
        args.clone(),
        |p| energy(&p.0, &p.1, p.2),
        |p, dp| {
            energy_frule(
                Dual::new(&p.0[..], &dp.0[..]),
                Dual::new(&p.1[..], &dp.1[..]),
                Dual::new(p.2, dp.2),
            )
        },
    );
    test_frule_batched::<4, _, _>(
        args,
        |p| energy(&p.0, &p.1, p.2),
        |p, dp| {
            <energy as Frule<_, Batch<f64, 4>>>::frule(
                &energy {},
                (
                    Dual::new(&p.0[..], &dp.0[..]),
                    Dual::new(&p.1[..], &dp.1[..]),
                    Dual::new(p.2, dp.2),
                ),
            )
        },
    );
    let args = (a, x, y, 0.4);
    test_frule(
        args.clone(),
        |p| relax(&p.0, &p.1, &mut p.2, p.3),
        |p, dp| {
            relax_frule(
                Dual::new(&p.0[..], &dp.0[..]),
                Dual::new(&p.1[..], &dp.1[..]),
                Dual::new(&mut p.2[..], &mut dp.2[..]),
                Dual::new(p.3, dp.3),
            )
        },
    );
}

/// The Hessian of `energy` in `x` (A and k fixed): `2k AᵀA + 2I`, by `Hyper` through both
/// full rules.
#[test]
fn energy_hessian_through_full_rules() {
    let (_, a, x, _, _) = gemv_args();
    let (m, n, k) = (3, x.len(), 0.7);
    let zero_a = vec![
        Hyper {
            d1: 0.0,
            d2: 0.0,
            d12: 0.0
        };
        a.len()
    ];
    for i in 0..n {
        for j in 0..n {
            let tx: Vec<Hyper<f64, f64>> = (0..n)
                .map(|l| Hyper {
                    d1: if l == i { 1.0 } else { 0.0 },
                    d2: if l == j { 1.0 } else { 0.0 },
                    d12: 0.0,
                })
                .collect();
            let out = <energy as Frule<_, Hyper<f64, f64>>>::frule(
                &energy {},
                (
                    Dual::new(&a[..], &zero_a[..]),
                    Dual::new(&x[..], &tx[..]),
                    fwdad::constant_in::<Hyper<f64, f64>, _>(k),
                ),
            );
            let ata: f64 = (0..m).map(|r| a[r * n + i] * a[r * n + j]).sum();
            let expected = 2.0 * k * ata + if i == j { 2.0 } else { 0.0 };
            approx::assert_relative_eq!(
                out.tangent.d12,
                expected,
                max_relative = 1e-13,
                epsilon = 1e-14
            );
        }
    }
}

// ---- a full rule defined in this crate -------------------------------------------------

/// `out[i] = x[i]²`, with a rule generic over the tangent type.
#[primitive(rule = squares_rule)]
fn squares(x: &[f64], out: &mut [f64]) {
    for i in 0..x.len() {
        out[i] = x[i] * x[i];
    }
}

fn squares_rule<T: ScalarTangent<f64>>(
    x: Dual<&[f64], &[T]>,
    out: Dual<&mut [f64], &mut [T]>,
) -> Dual<(), NoTangent> {
    for i in 0..x.len() {
        let xi = x.at(i).copied();
        let yi = xi * xi;
        out.primal[i] = yi.primal;
        out.tangent[i] = yi.tangent;
    }
    Dual::new((), NoTangent)
}

#[test]
fn local_full_rule() {
    let args = (vec![0.5, -2.0, 3.0], vec![0.0; 3]);
    test_frule(
        args.clone(),
        |p| squares(&p.0, &mut p.1),
        |p, dp| {
            squares_frule(
                Dual::new(&p.0[..], &dp.0[..]),
                Dual::new(&mut p.1[..], &mut dp.1[..]),
            )
        },
    );
    test_frule_batched::<2, _, _>(
        args,
        |p| squares(&p.0, &mut p.1),
        |p, dp| {
            <squares as Frule<_, Batch<f64, 2>>>::frule(
                &squares {},
                (
                    Dual::new(&p.0[..], &dp.0[..]),
                    Dual::new(&mut p.1[..], &mut dp.1[..]),
                ),
            )
        },
    );
}

/// A full rule for a function of `f32`s only: generic over the `f32` tangent
/// (`T: ScalarTangent<f32>`; a rule generic over the mode `M` would see it only as
/// `M::Of<f32>`, which does not determine `M`). Helper hunt J.
#[primitive(rule = cube32_rule)]
pub fn cube32(x: f32) -> f32 {
    x * x * x
}

pub fn cube32_rule<T: ScalarTangent<f32>>(x: Dual<f32, T>) -> Dual<f32, T> {
    let p = x.primal;
    Dual::new(p * p * p, x.tangent.scale(3.0 * p * p))
}

/// With `f64` and `f32` arguments the mode is determined: generic over `M: Mode`.
#[primitive(rule = mixed32_rule)]
pub fn mixed32(a: f64, x: f32) -> f32 {
    a as f32 * x
}

pub fn mixed32_rule<M: fwdad::Mode>(
    a: Dual<f64, M>,
    x: Dual<f32, M::Of<f32>>,
) -> Dual<f32, M::Of<f32>> {
    let da = M::narrow::<f32>(a.tangent);
    Dual::new(
        a.primal as f32 * x.primal,
        da.scale(x.primal).add(x.tangent.scale(a.primal as f32)),
    )
}

#[test]
fn f32_full_rules() {
    let d = cube32_frule(Dual::new(2.0f32, 1.0f32));
    assert_eq!((d.primal, d.tangent), (8.0, 12.0));
    // In a batch of two directions.
    let d = <cube32 as Frule<_, Batch<f64, 2>>>::frule(
        &cube32 {},
        (Dual::new(2.0f32, Batch([1.0f32, 0.5])),),
    );
    assert_eq!(d.tangent.0, [12.0, 6.0]);
    // d(a·x) = x da + a dx.
    let d = mixed32_frule(Dual::new(3.0, 1.0), Dual::new(2.0f32, 0.5f32));
    assert_eq!((d.primal, d.tangent), (6.0, 2.0 + 1.5));
}
