//! Third hunt: mutable views of library values reached otherwise than by `let` of
//! `row_mut`/`column_mut`/... (each in one direction, in batches and at second order
//! against central differences, primals bit for bit).
//!
//! Found (wrong primal, so wrong derivatives): a view given by an `if` (`let mut r = if ..
//! { a.row_mut(0) } else { a.row_mut(1) };`), a view moved into another binding (`let mut
//! q = r;`) and one assigned after its `let` (`let mut r; r = a.row_mut(2);`) were taken
//! for values: `r *= 2.0` made a new array and left `a` as it was. Now written through.
//! Views in a derived function's signature are errors (`tests/ui/libs/view-in-signature.rs`);
//! views taken from a tuple (`split_at`) are written through (`tests/reach_apps_libs4.rs`). The other
//! functions are guards that passed: methods on temporary views, index writes into views,
//! views in loops, `as_mut_slice`, `copy_from`/`set_row`, `assign`, a view of a view.
//!
//! Run with `cargo test --features nalgebra,ndarray --test derive_hunt3_views`.
#![allow(clippy::needless_range_loop)]

#[macro_use]
mod common;

use fwdad::prelude::*;
use nalgebra::{DMatrix, Matrix3, Vector3};
use ndarray::{s, Array1, Array2};

#[derive_frule]
fn na_temp_view_method(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    m.row_mut(0).scale_mut(2.0);
    m.column_mut(2).add_scalar_mut(1.0);
    m[(0, 1)] * m[(1, 2)] + m[(0, 2)]
}

#[derive_frule]
fn na_let_view_method(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    let mut r = m.row_mut(0);
    r.scale_mut(2.0);
    m[(0, 1)] + m[(1, 1)]
}

#[derive_frule]
fn na_let_view_index(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    let mut r = m.row_mut(1);
    r[2] *= 3.0;
    r[0] = x[0] * x[0];
    m[(1, 2)] + m[(1, 0)]
}

#[derive_frule]
fn na_view_in_loop(x: &[f64]) -> f64 {
    let mut m = DMatrix::from_row_slice(3, 3, &x[..9]);
    for j in 0..3 {
        let mut c = m.column_mut(j);
        let n = c.norm();
        c /= n;
    }
    m[(0, 0)] + m[(1, 1)] * m[(2, 2)]
}

#[derive_frule]
fn na_as_mut_slice(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    let s = m.as_mut_slice();
    s[0] *= 2.0;
    s[4] += x[1];
    m[(0, 0)] + m[(1, 1)]
}

#[derive_frule]
fn na_copy_from(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    let v = Vector3::new(x[0], x[1] * x[1], 2.0);
    m.column_mut(1).copy_from(&v);
    m.set_row(2, &v.transpose());
    m[(1, 1)] + m[(2, 0)] * m[(0, 1)]
}

#[derive_frule]
fn nd_temp_view_method(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    a.row_mut(0).mapv_inplace(|v| v * v);
    a.column_mut(2).fill(1.5);
    a[[0, 1]] + a[[1, 2]] * a[[1, 1]]
}

#[derive_frule]
fn nd_assign(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    let b = Array1::from_vec(vec![x[0], 2.0 * x[1], x[2]]);
    a.row_mut(1).assign(&b);
    a.slice_mut(s![2, ..]).assign(&b);
    a[[1, 1]] + a[[2, 0]] * a[[0, 0]]
}

#[derive_frule]
fn nd_temp_view_index(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    a.row_mut(0)[1] *= 3.0;
    let mut c = a.column_mut(2);
    c[0] += x[4];
    a[[0, 1]] + a[[0, 2]]
}

#[derive_frule]
fn nd_view_in_loop(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    for i in 0..3 {
        let mut r = a.row_mut(i);
        let n = r.sum();
        r /= n;
    }
    a[[0, 0]] + a[[1, 1]] * a[[2, 2]]
}

#[derive_frule]
fn nd_as_slice_mut(x: &[f64]) -> f64 {
    let mut a = Array1::from_vec(x[..4].to_vec());
    let s = a.as_slice_mut().unwrap();
    s[0] *= 2.0;
    a[0] + a[1]
}

#[derive_frule]
fn nd_view_of_if(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    let mut r = if x[0] > 0.0 {
        a.row_mut(0)
    } else {
        a.row_mut(1)
    };
    r *= 2.0;
    a[[0, 1]] + a[[1, 1]]
}

#[derive_frule]
fn nd_view_moved(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    let r = a.row_mut(0);
    let mut q = r;
    q *= 2.0;
    a[[0, 1]] + a[[1, 1]]
}

#[derive_frule]
fn nd_view_deferred(x: &[f64]) -> f64 {
    let mut a = Array2::from_shape_vec((3, 3), x[..9].to_vec()).unwrap();
    let mut r;
    r = a.row_mut(2);
    r += 1.0;
    a[[2, 1]] * a[[1, 1]]
}

#[derive_frule]
fn na_reborrowed_view(x: &[f64]) -> f64 {
    let mut m = Matrix3::from_row_slice(&x[..9]);
    let mut v = m.view_mut((0, 0), (2, 2));
    let mut c = v.column_mut(1);
    c *= 3.0;
    m[(0, 1)] + m[(1, 1)] * m[(2, 1)]
}

#[test]
fn views() {
    let x: Vec<f64> = (0..9).map(|k| 0.3 + 0.17 * k as f64).collect();
    macro_rules! each {
        ($($f:ident),*) => {$(
            check_modes!($f {}, |x: &[f64]| $f(x), x);
        )*};
    }
    each!(
        na_temp_view_method,
        na_let_view_method,
        na_let_view_index,
        na_view_in_loop,
        na_as_mut_slice,
        na_copy_from,
        nd_temp_view_method,
        nd_assign,
        nd_temp_view_index,
        nd_view_in_loop,
        nd_view_of_if,
        nd_view_moved,
        nd_view_deferred,
        na_reborrowed_view,
        nd_as_slice_mut
    );
}

/// A constant view of weights, named `inactive`: plain data, not rejected.
#[derive_frule(inactive(w))]
fn weighted_sum(x: &[f64], w: ndarray::ArrayView1<'_, f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i] * x[i];
    }
    s
}

#[test]
fn inactive_view_parameter() {
    let w = Array1::from_vec(vec![0.5, 2.0, -1.0]);
    let x = [0.3, -0.7, 1.1];
    let (v, g) = fwdad::gradient(
        fwdad::drivers::bind(weighted_sum {}, (fwdad::drivers::Wrt, Inactive(w.view()))),
        &x,
    );
    assert_eq!(v.to_bits(), weighted_sum(&x, w.view()).to_bits());
    for i in 0..3 {
        assert!((g[i] - 2.0 * w[i] * x[i]).abs() < 1e-15);
    }
}

/// A cubic contact penalty `|p − q|³` through nalgebra's `norm`: differentiable where the
/// points coincide, gradient zero there.
#[derive_frule]
fn contact_cubed(x: &[f64]) -> f64 {
    let p = Vector3::new(x[0], x[1], x[2]);
    let q = Vector3::new(x[3], x[4], x[5]);
    let r = (p - q).norm();
    r * r * r + x[6] * r * r
}

#[test]
fn norm_at_coincident_points() {
    let x = [0.3, -0.2, 0.5, 0.3, -0.2, 0.5, 1.5];
    let y = contact_cubed(&x);
    let (v, g) = fwdad::gradient(contact_cubed {}, &x);
    assert_eq!(v.to_bits(), y.to_bits());
    let (v4, g4) = fwdad::gradient_with::<4>(contact_cubed {}, &x);
    assert_eq!(v4.to_bits(), y.to_bits());
    let (vh, gh, _) = fwdad::hessian_with::<2>(contact_cubed {}, &x);
    assert_eq!(vh.to_bits(), y.to_bits());
    for k in 0..7 {
        let mut e = [0.0; 7];
        e[k] = 1.0;
        let (_, d): (f64, f64) = fwdad::jvp(contact_cubed {}, &x, &e);
        for (mode, got) in [
            ("one direction", d),
            ("gradient", g[k]),
            ("batch of 4", g4[k]),
            ("second order", gh[k]),
        ] {
            assert_eq!(got, 0.0, "{mode}: d/dx{k}");
        }
    }
    check_modes!(
        contact_cubed {},
        contact_cubed,
        [0.3, -0.2, 0.5, 0.1, 0.2, -0.4, 1.5]
    );
}
