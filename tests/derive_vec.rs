//! `Vec` buffers in derived bodies: `vec![..]`, `Vec::with_capacity` + `push`, `to_vec`,
//! `fill`, `copy_from_slice`, `swap`, returning a `Vec`, and `Option` methods.
// The bodies exercise the constructs themselves (`Vec::new` then `push`, `is_some` then
// `unwrap`), so clippy's style advice does not apply.
#![allow(
    clippy::vec_init_then_push,
    clippy::unnecessary_unwrap,
    clippy::assign_op_pattern,
    clippy::useless_vec
)]

use fwdad::prelude::*;
use fwdad::testing::test_frule;

/// Prefix sums of xᵢ², built with `push` into a buffer that starts inactive.
#[derive_frule]
fn prefix_sq(x: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    let mut s = 0.0;
    for v in x.iter() {
        s += v * v;
        out.push(s);
    }
    out
}

/// `vec![0.0; n]` written by index, `to_vec`, `swap`, `vec![a, b]`.
#[derive_frule]
fn shuffle(x: &[f64], k: f64) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    for i in 0..x.len() {
        y[i] = k * x[i];
    }
    let mut z = x.to_vec();
    z.swap(0, 1);
    let w = vec![z[0] * y[1], k];
    let mut r = Vec::new();
    r.push(w[0] + w[1]);
    r.push(z[1] - y[0]);
    r
}

/// `fill` and `copy_from_slice` on an output buffer; `Option` methods.
#[derive_frule]
fn refill(x: &[f64], out: &mut [f64], extra: Option<f64>) {
    out.fill(1.0);
    out[..2].copy_from_slice(&x[1..3]);
    if extra.is_some() {
        out[2] = out[2] * extra.unwrap();
    }
}

#[test]
fn prefix_sums_of_squares() {
    let x = [0.5, -1.0, 2.0];
    let e = [0.0, 1.0, 0.0];
    let d = prefix_sq_frule(Dual::new(&x[..], &e[..]));
    assert_eq!(d.primal, prefix_sq(&x));
    // d/dx1 of prefix sums: [0, 2x1, 2x1]
    assert_eq!(d.tangent, vec![0.0, -2.0, -2.0]);
    test_frule(
        (x.to_vec(),),
        |a| prefix_sq(&a.0),
        |a, da| prefix_sq_frule(Dual::new(&a.0[..], &da.0[..])),
    );
}

#[test]
fn vec_building_and_swaps() {
    let args = (vec![0.3, 1.2, -0.7], 1.5);
    test_frule(
        args,
        |a| shuffle(&a.0, a.1),
        |a, da| shuffle_frule(Dual::new(&a.0[..], &da.0[..]), Dual::new(a.1, da.1)),
    );
}

#[test]
fn fill_copy_and_option() {
    let args = (vec![0.3, 1.2, -0.7], vec![0.0; 4], Some(2.5));
    test_frule(
        args,
        |a| refill(&a.0, &mut a.1, a.2),
        |a, da| {
            refill_frule(
                Dual::new(&a.0[..], &da.0[..]),
                Dual::new(&mut a.1[..], &mut da.1[..]),
                Dual::new(a.2, da.2),
            )
        },
    );
}

/// Writes through `&mut [f64; N]` and `&mut Vec<f64>` (index assignment, compound
/// assignment, `push`, `swap`).
#[derive_frule]
fn write_targets(x: f64, a: &mut [f64; 3], v: &mut Vec<f64>) {
    a[0] = x * x;
    a[2] += x;
    v[0] *= x;
    v.push(a[0] + 1.0);
    v.swap(0, 1);
}

#[test]
fn writes_through_mut_array_and_vec() {
    let args = (1.5, [1.0, 2.0, 3.0], vec![4.0, 5.0]);
    test_frule(
        args,
        |a| write_targets(a.0, &mut a.1, &mut a.2),
        |a, da| {
            write_targets_frule(
                Dual::new(a.0, da.0),
                Dual::new(&mut a.1, &mut da.1),
                Dual::new(&mut a.2, &mut da.2),
            )
        },
    );
}

/// Rows of a nested `Vec` cloned and measured by method: borrowed, not copied out.
#[derive_frule]
fn swap_rows(x: &[f64]) -> f64 {
    let mut m = vec![vec![0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            m[i][j] = x[i] * x[j];
        }
    }
    let r0 = m[0].clone();
    m[0] = m[2].clone();
    m[2] = r0;
    m[0][1] + 2.0 * m[2][2] + m[1].len() as f64
}

#[test]
fn cloned_and_measured_rows() {
    let x = [0.5, -1.0, 2.0];
    // Rows 0 and 2 swapped: m[0][1] = x2·x1, m[2][2] = x0·x2; f = x2·x1 + 2·x0·x2 + 3,
    // ∇f = (2x2, x2, x1 + 2x0).
    let (v, g) = fwdad::drivers::gradient(swap_rows {}, &x);
    assert_eq!(v, swap_rows(&x));
    assert_eq!(v, -2.0 + 2.0 + 3.0);
    assert_eq!(g, [4.0, 2.0, 0.0]);
}
